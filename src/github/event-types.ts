/**
 * The few fields of a webhook payload the action uses, in the action's own names. event.ts reads
 * a payload into these; everything downstream depends on them rather than on GitHub's shapes.
 */

/** `string & {}` keeps the known names as editor hints without closing the set. */
export type ActorType = 'User' | 'Bot' | 'Organization' | (string & {});

export interface Actor {
  login: string;
  type: ActorType;
  id?: number;
}

export interface RepoRef {
  owner: string;
  name: string;
  fullName: string;
  defaultBranch: string;
  private: boolean;
}

export interface CommentRef {
  id: number;
  body: string;
  user: Actor;
  createdAt: string;
  updatedAt: string;
  htmlUrl: string;
}

export interface IssueRef {
  number: number;
  title: string;
  body: string;
  user: Actor;
  labels: string[];
  isPullRequest: boolean;
  htmlUrl: string;
  /** As of the event: for a labeled or assigned issue, when that happened. */
  updatedAt: string;
}

export interface PullRef {
  number: number;
  title: string;
  body: string;
  user: Actor;
  headRef: string;
  headSha: string;
  /** '' when the head repository was deleted. */
  headRepoFullName: string;
  baseRef: string;
  baseSha: string;
  /** The head lives in another repository (or a deleted one): never push there. */
  isFork: boolean;
  draft: boolean;
  htmlUrl: string;
  /** As of the event. */
  updatedAt: string;
}

export interface ReviewCommentRef extends CommentRef {
  path: string;
  line: number | null;
  startLine: number | null;
  diffHunk: string;
  inReplyToId: number | null;
}

export interface ReviewRef {
  id: number;
  body: string;
  user: Actor;
  state: string;
  /** '' for a pending review. */
  submittedAt: string;
  htmlUrl: string;
}

export const AUTOMATION_EVENTS = ['schedule', 'workflow_dispatch', 'push', 'repository_dispatch'] as const;
export type AutomationEventName = (typeof AUTOMATION_EVENTS)[number];

export type GitHubEvent =
  | { kind: 'issue_comment'; action: string; repo: RepoRef; sender: Actor; issue: IssueRef; comment: CommentRef }
  | { kind: 'issues'; action: string; repo: RepoRef; sender: Actor; issue: IssueRef; label?: string; assignee?: string }
  | { kind: 'pull_request_review_comment'; action: string; repo: RepoRef; sender: Actor; pull: PullRef; comment: ReviewCommentRef }
  | { kind: 'pull_request_review'; action: string; repo: RepoRef; sender: Actor; pull: PullRef; review: ReviewRef }
  | { kind: 'pull_request'; name: 'pull_request' | 'pull_request_target'; action: string; repo: RepoRef; sender: Actor; pull: PullRef }
  | { kind: 'automation'; name: AutomationEventName; repo: RepoRef | null; sender: Actor | null }
  | { kind: 'other'; name: string; repo: RepoRef | null; sender: Actor | null };
