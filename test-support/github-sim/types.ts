/** The simulator's public shapes: the options it starts from and the live state tests inspect. */
import type { LimitStats, PrimaryLimit, SecondaryLimit, SimHang } from './limits.js';

export type Permission = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none';

export interface SimUser {
  login: string;
  type?: 'User' | 'Bot';
}

export interface SimComment {
  id: number;
  body: string;
  user: SimUser;
  created_at: string;
  updated_at: string;
  /**
   * GitHub's REST API does not expose whether a comment is minimized (only GraphQL's `isMinimized`
   * does), so when set this is served as the non-GitHub extra field `minimized`; clients that must
   * also work against the real API cannot rely on it.
   */
  minimized?: boolean;
}

export interface SimReviewComment {
  id: number;
  body: string;
  user: SimUser;
  path: string;
  line: number | null;
  diff_hunk: string;
  in_reply_to_id?: number;
  created_at: string;
  updated_at: string;
  /** The fields below are set for comments made through a review; seeded comments may leave them out. Default `RIGHT`. */
  side?: 'LEFT' | 'RIGHT';
  start_line?: number | null;
  start_side?: 'LEFT' | 'RIGHT' | null;
  /** Default: `line`. */
  original_line?: number | null;
  /** Default: the pull request's head. */
  commit_id?: string;
  /** Default: a stable fake id derived from the comment's id. */
  pull_request_review_id?: number;
}

export interface SimReview {
  id: number;
  user: SimUser;
  body: string;
  state: 'PENDING' | 'COMMENTED' | 'CHANGES_REQUESTED' | 'APPROVED';
  commit_id: string;
  /** Absent while the review is pending, as on GitHub. */
  submitted_at?: string;
}

export interface SimPullFile {
  filename: string;
  status: string;
  additions: number;
  deletions: number;
  patch?: string;
}

export interface SimPull {
  headRef: string;
  headSha: string;
  /** `owner/repo` of the head branch; differs from the base repository for a fork. */
  headRepoFullName: string;
  baseRef: string;
  /** Default: a stable fake sha derived from `baseRef`. */
  baseSha?: string;
  draft?: boolean;
  files?: SimPullFile[];
  /** Default: assembled from the files' patches. */
  diff?: string;
  reviewComments?: SimReviewComment[];
  /** Reviews in the order they were made; their inline comments are in `reviewComments`. */
  reviews?: SimReview[];
}

export interface SimIssue {
  number: number;
  title: string;
  body: string | null;
  user: SimUser;
  state?: 'open' | 'closed';
  labels?: string[];
  comments: SimComment[];
  /** Present when the issue is a pull request. */
  pull?: SimPull;
}

export interface SimCheckRun {
  id: number;
  name: string;
  head_sha: string;
  status: 'completed' | 'in_progress' | 'queued';
  conclusion: string | null;
  /** Served by `GET /actions/jobs/{id}/logs` (via its redirect) for job id = `id`. */
  log?: string;
}

export interface SimFault {
  /** Any method when absent; compared case-insensitively. */
  method?: string;
  /** Tested against the request path without the query string. */
  path: RegExp;
  status: number;
  headers?: Record<string, string>;
  /** Default: a generic message for the status. */
  message?: string;
  /** Apply the request's real effect first, then answer with the fault (a 5xx after a write that went through). */
  afterEffect?: boolean;
  /** How many matching requests this fault answers. Default 1. */
  times?: number;
}

export interface GitHubSimOptions {
  /** GitHub's secondary rate limit on writes (limits.ts); none by default. */
  secondaryWriteLimit?: SecondaryLimit;
  /** GitHub's primary rate limit (limits.ts); none by default. */
  primaryLimit?: PrimaryLimit;
  owner: string;
  repo: string;
  /** Default `main`. */
  defaultBranch?: string;
  private?: boolean;
  /** Required as `Authorization: token X` or `Bearer X`; anything else is a 401. */
  token: string;
  /** Base of every `html_url`. Default `https://github.com`. */
  serverUrl?: string;
  /**
   * Collaborators and their role. Users absent from the map are answered as GitHub answers
   * non-collaborators: `read` on a public repository, `none` on a private one.
   */
  permissions: Record<string, Permission>;
  issues?: SimIssue[];
  /** Contents API data: ref (branch, tag or sha) -> path -> text. */
  files?: Record<string, Record<string, string>>;
  checkRuns?: SimCheckRun[];
  /**
   * Login that `token` authenticates as: comments, reviews, reactions and pull requests made with
   * it are that user's. Default `github-actions[bot]` (a Bot). A login ending in `[bot]` makes
   * `token` an installation token (`GET /user` answers 403, as GitHub does for `GITHUB_TOKEN`);
   * any other login makes it a personal token (`GET /user` answers that user).
   */
  appLogin?: string;
  /** More tokens and whom each authenticates as (a pull request author's, say), by token. */
  tokens?: Record<string, SimUser>;
  /** A GitHub App, installed on the repository or not: its JWT and installation tokens work as GitHub's do. */
  app?: SimApp;
  /**
   * The bare git repository that stands for the repository on GitHub: the Git Data routes
   * (blobs, trees, commits, refs) read and write real objects and refs there. Without it they answer 500.
   */
  gitRemote?: string;
}

/** A commit made through `POST /git/commits`. */
export interface SimGitCommit {
  sha: string;
  /** Signed by GitHub: the request named no author or committer, and the token is a bot's or an App's. */
  verified: boolean;
  namedAuthor: boolean;
  namedCommitter: boolean;
  /** The login of the token that made it. */
  by: string;
  createdAt: string;
}

/** A ref written through `POST /git/refs` or `PATCH /git/refs/{ref}`. */
export interface SimRefUpdate {
  ref: string;
  sha: string;
  by: string;
  created: boolean;
  forced?: boolean;
}

/** Another push to `branch` (a commit of `files` on its head), landing just before the next ref update of it. */
export interface SimBranchMove {
  branch: string;
  files: Record<string, string>;
  message?: string;
  /** How many ref updates of the branch are preceded by such a push. Default 1. */
  times?: number;
}

/** What the Git Data routes did. */
export interface SimGitData {
  blobs: number;
  trees: number;
  commits: SimGitCommit[];
  refUpdates: SimRefUpdate[];
  /** Pending pushes of others; `pushed` holds the commits they made. */
  moves: (SimBranchMove & { remaining: number; pushed: string[] })[];
}

export interface SimApp {
  id: number;
  /** The bot is `<slug>[bot]`. */
  slug: string;
  /** Also accepted as the JWT's `iss`. */
  clientId?: string;
  /** PEM of the App's public key: JWTs must verify against it. */
  publicKey: string;
  installed: boolean;
  installationId: number;
  permissions: Record<string, string>;
}

export interface SimInstallationToken {
  token: string;
  repositories: string[];
  revoked: boolean;
  createdAt: string;
}

export interface SimRequest {
  method: string;
  /** Without the query string, percent-decoding not applied. */
  path: string;
  query: Record<string, string>;
  /** Parsed JSON body; the raw text if it was not JSON; undefined when empty. */
  body: unknown;
  /** The status actually sent (the fault's status for a faulted request). */
  status: number;
  /** `performance.now()` when the request body had arrived. */
  at: number;
  /** Whose credential it carried: `app JWT`, `installation token`, or the token's login. */
  as?: string;
}

export interface SimCreatedPull {
  number: number;
  title: string;
  body: string;
  head: string;
  base: string;
  draft: boolean;
  html_url: string;
}

export interface SimReaction {
  /** `issue:5`, `comment:10` (issue comment) or `review-comment:7`. */
  target: string;
  content: string;
  user: string;
}

export interface GitHubSim {
  /** Base URL for Octokit's `baseUrl`, e.g. `http://127.0.0.1:41234`. */
  url: string;
  requests: SimRequest[];
  /** Live state, keyed by issue number; pull requests are issues with `pull` set. */
  issues: Map<number, SimIssue>;
  pullsCreated: SimCreatedPull[];
  reactions: SimReaction[];
  /**
   * Every way a request body broke GitHub's OpenAPI description of its operation, one line each
   * (`POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews: /comments/0/line must be integer`).
   * Recorded only: the request is answered as usual, so tests assert this stays empty.
   */
  schemaErrors: string[];
  /** Installation tokens the App routes issued, in order, and whether each was revoked. */
  installationTokens: SimInstallationToken[];
  fail(fault: SimFault): void;
  /** Throttled, refused and hung requests so far (see limits.ts). */
  limits: LimitStats;
  /** Leaves matching requests unanswered. */
  hang(h: SimHang): void;
  /** From now on every request is a 401 Bad credentials, as for an installation token that expired. */
  expireToken(): void;
  /** The Git Data routes' record (see SimGitData). */
  gitData: SimGitData;
  /** Another push lands on the branch just before the action's next ref update of it (a branch moved mid-run); returns what it pushed, once it has. */
  moveBranch(move: SimBranchMove): { pushed: string[] };
  close(): Promise<void>;
}

export type { LimitStats, PrimaryLimit, SecondaryLimit, SimHang } from './limits.js';
