import { z } from 'zod';

/**
 * The webhook payload of the run, read once into the few fields the action uses. The schemas are
 * loose (unknown fields pass) and double as type guards: a payload that does not fit its event's
 * schema becomes an 'other' event rather than an exception, so a surprising payload ends the run
 * as "not handled" instead of crashing it.
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
  | { kind: 'pull_request'; action: string; repo: RepoRef; sender: Actor; pull: PullRef }
  | { kind: 'automation'; name: AutomationEventName; repo: RepoRef | null; sender: Actor | null }
  | { kind: 'other'; name: string; repo: RepoRef | null; sender: Actor | null };

// GitHub sends null for an empty body or a missing line; the action treats both as "nothing".
const text = z
  .string()
  .nullish()
  .transform((v) => v ?? '');
const nullableNumber = z
  .number()
  .nullish()
  .transform((v) => v ?? null);

const ActorSchema = z
  .looseObject({ login: z.string(), type: z.string().nullish(), id: z.number().nullish() })
  .transform(
    (a): Actor => ({
      login: a.login,
      // Without a type, the `[bot]` suffix GitHub gives every app account is the tell.
      type: a.type ?? (a.login.endsWith('[bot]') ? 'Bot' : 'User'),
      ...(typeof a.id === 'number' ? { id: a.id } : {}),
    }),
  );

const RepoSchema = z
  .looseObject({
    name: z.string(),
    full_name: z.string(),
    // Push payloads of old give the owner a `name` as well as (or instead of) a `login`.
    owner: z.looseObject({ login: z.string().nullish(), name: z.string().nullish() }).nullish(),
    default_branch: z.string().nullish(),
    master_branch: z.string().nullish(),
    private: z.boolean().nullish(),
  })
  .transform(
    (r): RepoRef => ({
      owner: r.owner?.login ?? r.owner?.name ?? r.full_name.split('/')[0] ?? '',
      name: r.name,
      fullName: r.full_name,
      defaultBranch: r.default_branch ?? r.master_branch ?? '',
      private: r.private ?? false,
    }),
  );

const IssueSchema = z
  .looseObject({
    number: z.number(),
    title: text,
    body: text,
    user: ActorSchema,
    labels: z.array(z.looseObject({ name: z.string() })).nullish(),
    pull_request: z.looseObject({}).nullish(),
    html_url: text,
    updated_at: text,
  })
  .transform(
    (i): IssueRef => ({
      number: i.number,
      title: i.title,
      body: i.body,
      user: i.user,
      labels: (i.labels ?? []).map((l) => l.name),
      isPullRequest: i.pull_request != null,
      htmlUrl: i.html_url,
      updatedAt: i.updated_at,
    }),
  );

const BranchSchema = z.looseObject({
  ref: z.string(),
  sha: z.string(),
  repo: z.looseObject({ full_name: z.string() }).nullish(),
});

const PullSchema = z
  .looseObject({
    number: z.number(),
    title: text,
    body: text,
    user: ActorSchema,
    head: BranchSchema,
    base: BranchSchema,
    draft: z.boolean().nullish(),
    html_url: text,
    updated_at: text,
  })
  .transform((p): PullRef => {
    const headRepo = p.head.repo?.full_name ?? '';
    const baseRepo = p.base.repo?.full_name ?? '';
    return {
      number: p.number,
      title: p.title,
      body: p.body,
      user: p.user,
      headRef: p.head.ref,
      headSha: p.head.sha,
      headRepoFullName: headRepo,
      baseRef: p.base.ref,
      baseSha: p.base.sha,
      isFork: headRepo === '' || headRepo.toLowerCase() !== baseRepo.toLowerCase(),
      draft: p.draft ?? false,
      htmlUrl: p.html_url,
      updatedAt: p.updated_at,
    };
  });

const commentFields = {
  id: z.number(),
  body: text,
  user: ActorSchema,
  created_at: text,
  updated_at: text,
  html_url: text,
};

function toCommentRef(c: z.infer<z.ZodObject<typeof commentFields>>): CommentRef {
  return {
    id: c.id,
    body: c.body,
    user: c.user,
    createdAt: c.created_at,
    updatedAt: c.updated_at,
    htmlUrl: c.html_url,
  };
}

const CommentSchema = z.looseObject(commentFields).transform(toCommentRef);

const ReviewCommentSchema = z
  .looseObject({
    ...commentFields,
    path: z.string(),
    line: nullableNumber,
    start_line: nullableNumber,
    diff_hunk: text,
    in_reply_to_id: nullableNumber,
  })
  .transform(
    (c): ReviewCommentRef => ({
      ...toCommentRef(c),
      path: c.path,
      line: c.line,
      startLine: c.start_line,
      diffHunk: c.diff_hunk,
      inReplyToId: c.in_reply_to_id,
    }),
  );

const ReviewSchema = z
  .looseObject({ id: z.number(), body: text, user: ActorSchema, state: z.string(), submitted_at: text, html_url: text })
  .transform(
    (r): ReviewRef => ({
      id: r.id,
      body: r.body,
      user: r.user,
      state: r.state,
      submittedAt: r.submitted_at,
      htmlUrl: r.html_url,
    }),
  );

const base = { action: z.string(), repository: RepoSchema, sender: ActorSchema };

const IssueCommentPayload = z.looseObject({ ...base, issue: IssueSchema, comment: CommentSchema });
const IssuesPayload = z.looseObject({
  ...base,
  issue: IssueSchema,
  label: z.looseObject({ name: z.string() }).nullish(),
  assignee: z.looseObject({ login: z.string() }).nullish(),
});
const ReviewCommentPayload = z.looseObject({ ...base, pull_request: PullSchema, comment: ReviewCommentSchema });
const ReviewPayload = z.looseObject({ ...base, pull_request: PullSchema, review: ReviewSchema });
const PullRequestPayload = z.looseObject({ ...base, pull_request: PullSchema });

/** Read one webhook payload; never throws. */
export function parseEvent(name: string, payload: unknown): GitHubEvent {
  return parseKnown(name, payload) ?? { kind: 'other', name, ...repoAndSender(payload) };
}

function parseKnown(name: string, payload: unknown): GitHubEvent | null {
  switch (name) {
    case 'issue_comment': {
      const p = IssueCommentPayload.safeParse(payload);
      return p.success ? { kind: name, ...common(p.data), issue: p.data.issue, comment: p.data.comment } : null;
    }
    case 'issues': {
      const p = IssuesPayload.safeParse(payload);
      if (!p.success) return null;
      const { label, assignee } = p.data;
      return {
        kind: name,
        ...common(p.data),
        issue: p.data.issue,
        ...(label ? { label: label.name } : {}),
        ...(assignee ? { assignee: assignee.login } : {}),
      };
    }
    case 'pull_request_review_comment': {
      const p = ReviewCommentPayload.safeParse(payload);
      return p.success ? { kind: name, ...common(p.data), pull: p.data.pull_request, comment: p.data.comment } : null;
    }
    case 'pull_request_review': {
      const p = ReviewPayload.safeParse(payload);
      return p.success ? { kind: name, ...common(p.data), pull: p.data.pull_request, review: p.data.review } : null;
    }
    case 'pull_request': {
      const p = PullRequestPayload.safeParse(payload);
      return p.success ? { kind: name, ...common(p.data), pull: p.data.pull_request } : null;
    }
    default:
      return isAutomation(name) ? { kind: 'automation', name, ...repoAndSender(payload) } : null;
  }
}

function common(data: { action: string; repository: RepoRef; sender: Actor }): {
  action: string;
  repo: RepoRef;
  sender: Actor;
} {
  return { action: data.action, repo: data.repository, sender: data.sender };
}

function isAutomation(name: string): name is AutomationEventName {
  return AUTOMATION_EVENTS.some((n) => n === name);
}

const Envelope = z.looseObject({ repository: z.unknown(), sender: z.unknown() });

/** Whatever of the repository and sender can be read; a schedule payload carries neither. */
function repoAndSender(payload: unknown): { repo: RepoRef | null; sender: Actor | null } {
  const envelope = Envelope.safeParse(payload);
  if (!envelope.success) return { repo: null, sender: null };
  const repo = RepoSchema.safeParse(envelope.data.repository);
  const sender = ActorSchema.safeParse(envelope.data.sender);
  return { repo: repo.success ? repo.data : null, sender: sender.success ? sender.data : null };
}
