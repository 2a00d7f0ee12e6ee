/**
 * A stateful simulator of the slice of the GitHub REST API the action uses, served over HTTP on
 * 127.0.0.1 so that a real Octokit (with the retry and throttling plugins) can be pointed at it via
 * `baseUrl`. It answers with GitHub's JSON shapes, headers, pagination `Link`s and error envelopes,
 * and it can inject faults (5xx, secondary rate limits) either before or after a request's effect,
 * so end-to-end tests can check what the action does when GitHub misbehaves. Only node built-ins,
 * so the demo can load it as is.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

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
  /** Login that comments, reactions and pull requests are created as. Default `github-actions[bot]` (a Bot). */
  appLogin?: string;
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
  fail(fault: SimFault): void;
  close(): Promise<void>;
}

interface Reply {
  status: number;
  headers?: Record<string, string>;
  json?: unknown;
  text?: string;
  contentType?: string;
}

type JsonObject = Record<string, unknown>;

interface Ctx {
  method: string;
  query: Record<string, string>;
  body: unknown;
  accept: string;
  /** Path without query, as requested (for pagination links). */
  fullPath: string;
}

type Handler = (ctx: Ctx, m: RegExpMatchArray) => Reply;

interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
}

const API_DOCS = 'https://docs.github.com/rest';
// GitHub rejects comment and pull request bodies longer than this.
const MAX_BODY = 65536;
const REACTIONS = new Set(['+1', '-1', 'laugh', 'confused', 'heart', 'hooray', 'rocket', 'eyes']);
// Seeded data carries no timestamps of its own; a fixed past instant keeps fixtures deterministic.
const SEED_TIME = '2024-01-01T00:00:00Z';

const STATUS_MESSAGES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Bad credentials',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  422: 'Validation Failed',
  429: 'Too Many Requests',
  500: 'Server Error',
  502: 'Server Error',
  503: 'Service Unavailable',
  504: 'We couldn\u2019t respond to your request in time. Sorry about that. Please try resubmitting your request and contact us if the problem persists.',
};

function errorBody(status: number, message: string, documentationUrl = API_DOCS, errors?: unknown[]): JsonObject {
  // GitHub's envelope carries the status as a string.
  return { message, ...(errors ? { errors } : {}), documentation_url: documentationUrl, status: String(status) };
}

function errorReply(status: number, message?: string, documentationUrl?: string, errors?: unknown[]): Reply {
  return { status, json: errorBody(status, message ?? STATUS_MESSAGES[status] ?? 'Error', documentationUrl, errors) };
}

const notFound = (documentationUrl?: string): Reply => errorReply(404, 'Not Found', documentationUrl);

function validationFailed(resource: string, field: string, code: string, message?: string, documentationUrl?: string): Reply {
  return errorReply(422, 'Validation Failed', documentationUrl, [{ resource, code, field, ...(message ? { message } : {}) }]);
}

/** GitHub's timestamps have second precision. */
function isoNow(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function stableInt(seed: string, modulo = 90_000_000): number {
  return (parseInt(createHash('sha1').update(seed).digest('hex').slice(0, 8), 16) % modulo) + 1_000_000;
}

function fakeSha(seed: string): string {
  return createHash('sha1').update(seed).digest('hex');
}

function gitBlobSha(content: Buffer): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}

function base64Lines(content: Buffer): string {
  // The contents API wraps base64 at 60 columns, each line ending in a newline.
  const b64 = content.toString('base64');
  let out = '';
  for (let i = 0; i < b64.length; i += 60) out += `${b64.slice(i, i + 60)}\n`;
  return out;
}

function field(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as JsonObject)[name] : undefined;
}

function paginate<T>(items: T[], ctx: Ctx, baseUrl: string): { page: T[]; link?: string } {
  const perPageRaw = Number.parseInt(ctx.query.per_page ?? '', 10);
  const perPage = Number.isFinite(perPageRaw) && perPageRaw > 0 ? Math.min(perPageRaw, 100) : 30;
  const pageRaw = Number.parseInt(ctx.query.page ?? '', 10);
  const page = Number.isFinite(pageRaw) && pageRaw > 0 ? pageRaw : 1;
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const slice = items.slice((page - 1) * perPage, page * perPage);
  const linkTo = (p: number): string => {
    const params = new URLSearchParams(ctx.query);
    params.set('page', String(p));
    return `${baseUrl}${ctx.fullPath}?${params.toString()}`;
  };
  const parts: string[] = [];
  if (page > 1) parts.push(`<${linkTo(Math.min(page - 1, last))}>; rel="prev"`);
  if (page < last) parts.push(`<${linkTo(page + 1)}>; rel="next"`, `<${linkTo(last)}>; rel="last"`);
  if (page > 1) parts.push(`<${linkTo(1)}>; rel="first"`);
  return parts.length > 0 ? { page: slice, link: parts.join(', ') } : { page: slice };
}

function listReply<T>(items: T[], ctx: Ctx, baseUrl: string, render: (item: T) => unknown): Reply {
  const { page, link } = paginate(items, ctx, baseUrl);
  return { status: 200, json: page.map(render), ...(link ? { headers: { link } } : {}) };
}

function sinceFilter<T extends { updated_at: string }>(items: T[], since: string | undefined): T[] | Reply {
  if (since === undefined) return items;
  const t = Date.parse(since);
  if (Number.isNaN(t)) return validationFailed('Issue', 'since', 'invalid');
  return items.filter((c) => Date.parse(c.updated_at) >= t);
}

function isReply(value: unknown): value is Reply {
  return typeof value === 'object' && value !== null && 'status' in value && !Array.isArray(value);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startGitHubSim(opts: GitHubSimOptions): Promise<GitHubSim> {
  const owner = opts.owner;
  const repo = opts.repo;
  const fullName = `${owner}/${repo}`;
  const defaultBranch = opts.defaultBranch ?? 'main';
  const serverUrl = (opts.serverUrl ?? 'https://github.com').replace(/\/+$/, '');
  const appUser: SimUser = {
    login: opts.appLogin ?? 'github-actions[bot]',
    type: (opts.appLogin ?? 'github-actions[bot]').endsWith('[bot]') ? 'Bot' : 'User',
  };
  const repoHtml = `${serverUrl}/${fullName}`;
  const repoId = stableInt(`repo:${fullName}`);

  const issues = new Map<number, SimIssue>();
  // Fixtures are often shared between tests; the simulator mutates its own copy.
  for (const issue of structuredClone(opts.issues ?? [])) issues.set(issue.number, issue);
  const files = opts.files ?? {};
  const checkRuns = opts.checkRuns ?? [];
  const requests: SimRequest[] = [];
  const pullsCreated: SimCreatedPull[] = [];
  const reactions: SimReaction[] = [];
  const reactionMeta = new Map<SimReaction, { id: number; created_at: string }>();
  const faults: Array<SimFault & { remaining: number }> = [];

  let maxCommentId = 0;
  for (const issue of issues.values()) {
    for (const c of issue.comments) maxCommentId = Math.max(maxCommentId, c.id);
    for (const c of issue.pull?.reviewComments ?? []) maxCommentId = Math.max(maxCommentId, c.id);
  }
  // Comment ids (issue and review comments alike) are unique and increasing, as GitHub's are.
  let nextCommentId = Math.max(maxCommentId + 1, 1000);
  let nextReactionId = 5000;
  let requestCounter = 0;
  let rateRemaining = 5000;
  let url = '';

  const apiRepo = (): string => `${url}/repos/${fullName}`;

  const userJson = (u: SimUser): JsonObject => {
    const type = u.type ?? (u.login.endsWith('[bot]') ? 'Bot' : 'User');
    // github-actions[bot] has a well-known id that some clients compare against.
    const id = u.login === 'github-actions[bot]' ? 41898282 : stableInt(`user:${u.login}`);
    return {
      login: u.login,
      id,
      node_id: Buffer.from(`04:User${id}`).toString('base64'),
      avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
      url: `${url}/users/${encodeURIComponent(u.login)}`,
      html_url: type === 'Bot' ? `${serverUrl}/apps/${u.login.replace(/\[bot\]$/, '')}` : `${serverUrl}/${u.login}`,
      type,
      site_admin: false,
    };
  };

  const roleOf = (login: string): Permission => opts.permissions[login] ?? (opts.private ? 'none' : 'read');

  const association = (u: SimUser): string => {
    if (u.login.toLowerCase() === owner.toLowerCase()) return 'OWNER';
    const role = opts.permissions[u.login];
    return role && role !== 'none' && role !== 'read' ? 'COLLABORATOR' : 'NONE';
  };

  const ownerJson = (login: string): JsonObject => userJson({ login, type: 'User' });

  const repoJson = (name = fullName): JsonObject => {
    const [o = owner, r = repo] = name.split('/');
    const isFork = name.toLowerCase() !== fullName.toLowerCase();
    return {
      id: isFork ? stableInt(`repo:${name}`) : repoId,
      node_id: Buffer.from(`010:Repository${stableInt(`repo:${name}`)}`).toString('base64'),
      name: r,
      full_name: name,
      owner: ownerJson(o),
      private: opts.private ?? false,
      visibility: opts.private ? 'private' : 'public',
      fork: isFork,
      html_url: `${serverUrl}/${name}`,
      url: `${url}/repos/${name}`,
      clone_url: `${serverUrl}/${name}.git`,
      git_url: `${serverUrl.replace(/^https?:/, 'git:')}/${name}.git`,
      ssh_url: `git@${new URL(serverUrl).host}:${name}.git`,
      default_branch: defaultBranch,
      archived: false,
      disabled: false,
      created_at: SEED_TIME,
      updated_at: SEED_TIME,
      pushed_at: SEED_TIME,
    };
  };

  const issueHtml = (issue: SimIssue): string => `${repoHtml}/${issue.pull ? 'pull' : 'issues'}/${issue.number}`;

  const commentJson = (issue: SimIssue, c: SimComment): JsonObject => ({
    id: c.id,
    node_id: Buffer.from(`012:IssueComment${c.id}`).toString('base64'),
    url: `${apiRepo()}/issues/comments/${c.id}`,
    html_url: `${issueHtml(issue)}#issuecomment-${c.id}`,
    issue_url: `${apiRepo()}/issues/${issue.number}`,
    body: c.body,
    user: userJson(c.user),
    created_at: c.created_at,
    updated_at: c.updated_at,
    author_association: association(c.user),
    ...(c.minimized !== undefined ? { minimized: c.minimized } : {}),
  });

  const labelJson = (name: string): JsonObject => ({
    id: stableInt(`label:${name}`),
    node_id: Buffer.from(`010:Label${name}`).toString('base64'),
    url: `${apiRepo()}/labels/${encodeURIComponent(name)}`,
    name,
    color: fakeSha(name).slice(0, 6),
    default: false,
    description: null,
  });

  const issueJson = (issue: SimIssue): JsonObject => ({
    id: stableInt(`issue:${fullName}#${issue.number}`),
    node_id: Buffer.from(`05:Issue${issue.number}`).toString('base64'),
    url: `${apiRepo()}/issues/${issue.number}`,
    repository_url: apiRepo(),
    comments_url: `${apiRepo()}/issues/${issue.number}/comments`,
    html_url: issueHtml(issue),
    number: issue.number,
    title: issue.title,
    body: issue.body,
    user: userJson(issue.user),
    labels: (issue.labels ?? []).map(labelJson),
    state: issue.state ?? 'open',
    state_reason: null,
    locked: false,
    assignee: null,
    assignees: [],
    milestone: null,
    comments: issue.comments.length,
    created_at: SEED_TIME,
    updated_at: issue.comments.at(-1)?.updated_at ?? SEED_TIME,
    closed_at: issue.state === 'closed' ? SEED_TIME : null,
    author_association: association(issue.user),
    ...(issue.pull
      ? {
          draft: issue.pull.draft ?? false,
          pull_request: {
            url: `${apiRepo()}/pulls/${issue.number}`,
            html_url: `${repoHtml}/pull/${issue.number}`,
            diff_url: `${repoHtml}/pull/${issue.number}.diff`,
            patch_url: `${repoHtml}/pull/${issue.number}.patch`,
            merged_at: null,
          },
        }
      : {}),
  });

  const baseShaOf = (pull: SimPull): string => pull.baseSha ?? fakeSha(`base:${fullName}:${pull.baseRef}`);

  const pullJson = (issue: SimIssue, pull: SimPull): JsonObject => {
    const headOwner = pull.headRepoFullName.split('/')[0] ?? owner;
    const pullFiles = pull.files ?? [];
    return {
      url: `${apiRepo()}/pulls/${issue.number}`,
      id: stableInt(`pull:${fullName}#${issue.number}`),
      node_id: Buffer.from(`011:PullRequest${issue.number}`).toString('base64'),
      html_url: `${repoHtml}/pull/${issue.number}`,
      diff_url: `${repoHtml}/pull/${issue.number}.diff`,
      patch_url: `${repoHtml}/pull/${issue.number}.patch`,
      issue_url: `${apiRepo()}/issues/${issue.number}`,
      number: issue.number,
      state: issue.state ?? 'open',
      locked: false,
      title: issue.title,
      user: userJson(issue.user),
      body: issue.body,
      labels: (issue.labels ?? []).map(labelJson),
      created_at: SEED_TIME,
      updated_at: SEED_TIME,
      closed_at: issue.state === 'closed' ? SEED_TIME : null,
      merged_at: null,
      merge_commit_sha: null,
      draft: pull.draft ?? false,
      head: {
        label: `${headOwner}:${pull.headRef}`,
        ref: pull.headRef,
        sha: pull.headSha,
        user: ownerJson(headOwner),
        repo: repoJson(pull.headRepoFullName),
      },
      base: {
        label: `${owner}:${pull.baseRef}`,
        ref: pull.baseRef,
        sha: baseShaOf(pull),
        user: ownerJson(owner),
        repo: repoJson(),
      },
      author_association: association(issue.user),
      merged: false,
      mergeable: null,
      mergeable_state: 'unknown',
      comments: issue.comments.length,
      review_comments: (pull.reviewComments ?? []).length,
      maintainer_can_modify: false,
      commits: 1,
      additions: pullFiles.reduce((n, f) => n + f.additions, 0),
      deletions: pullFiles.reduce((n, f) => n + f.deletions, 0),
      changed_files: pullFiles.length,
    };
  };

  const fileJson = (pull: SimPull, f: SimPullFile): JsonObject => {
    const blob = fakeSha(`file:${pull.headSha}:${f.filename}`);
    const encoded = f.filename.split('/').map(encodeURIComponent).join('/');
    return {
      sha: blob,
      filename: f.filename,
      status: f.status,
      additions: f.additions,
      deletions: f.deletions,
      changes: f.additions + f.deletions,
      blob_url: `${repoHtml}/blob/${pull.headSha}/${encoded}`,
      raw_url: `${repoHtml}/raw/${pull.headSha}/${encoded}`,
      contents_url: `${apiRepo()}/contents/${encoded}?ref=${pull.headSha}`,
      ...(f.patch !== undefined ? { patch: f.patch } : {}),
    };
  };

  const reviewCommentJson = (issue: SimIssue, pull: SimPull, c: SimReviewComment): JsonObject => ({
    url: `${apiRepo()}/pulls/comments/${c.id}`,
    pull_request_review_id: stableInt(`review:${c.id}`),
    id: c.id,
    node_id: Buffer.from(`024:PullRequestReviewComment${c.id}`).toString('base64'),
    diff_hunk: c.diff_hunk,
    path: c.path,
    commit_id: pull.headSha,
    original_commit_id: pull.headSha,
    user: userJson(c.user),
    body: c.body,
    created_at: c.created_at,
    updated_at: c.updated_at,
    html_url: `${repoHtml}/pull/${issue.number}#discussion_r${c.id}`,
    pull_request_url: `${apiRepo()}/pulls/${issue.number}`,
    author_association: association(c.user),
    start_line: null,
    original_start_line: null,
    start_side: null,
    line: c.line,
    original_line: c.line,
    side: 'RIGHT',
    subject_type: 'line',
    ...(c.in_reply_to_id !== undefined ? { in_reply_to_id: c.in_reply_to_id } : {}),
  });

  const checkRunJson = (run: SimCheckRun): JsonObject => ({
    id: run.id,
    node_id: Buffer.from(`08:CheckRun${run.id}`).toString('base64'),
    head_sha: run.head_sha,
    external_id: '',
    url: `${apiRepo()}/check-runs/${run.id}`,
    html_url: `${repoHtml}/runs/${run.id}`,
    details_url: `${repoHtml}/runs/${run.id}`,
    status: run.status,
    conclusion: run.conclusion,
    started_at: SEED_TIME,
    completed_at: run.status === 'completed' ? SEED_TIME : null,
    output: { title: null, summary: null, text: null, annotations_count: 0, annotations_url: `${apiRepo()}/check-runs/${run.id}/annotations` },
    name: run.name,
    check_suite: { id: stableInt(`suite:${run.head_sha}`) },
    app: { id: 15368, slug: 'github-actions', name: 'GitHub Actions' },
    pull_requests: [],
  });

  const findComment = (id: number): { issue: SimIssue; comment: SimComment } | undefined => {
    for (const issue of issues.values()) {
      const comment = issue.comments.find((c) => c.id === id);
      if (comment) return { issue, comment };
    }
    return undefined;
  };

  const findReviewComment = (id: number): { issue: SimIssue; pull: SimPull; comment: SimReviewComment } | undefined => {
    for (const issue of issues.values()) {
      const comment = issue.pull?.reviewComments?.find((c) => c.id === id);
      if (comment && issue.pull) return { issue, pull: issue.pull, comment };
    }
    return undefined;
  };

  const bodyText = (ctx: Ctx, resource: string, docs: string, required: boolean): string | Reply => {
    const body = field(ctx.body, 'body');
    if (body === undefined && !required) return '';
    if (typeof body !== 'string') return validationFailed(resource, 'body', 'missing_field', undefined, docs);
    if (body.length > MAX_BODY) {
      return validationFailed(resource, 'body', 'custom', `body is too long (maximum is ${MAX_BODY} characters)`, docs);
    }
    return body;
  };

  const react = (target: string, ctx: Ctx, docs: string): Reply => {
    const content = field(ctx.body, 'content');
    if (typeof content !== 'string' || !REACTIONS.has(content)) {
      return validationFailed('Reaction', 'content', 'invalid', undefined, docs);
    }
    const render = (r: SimReaction): JsonObject => {
      const meta = reactionMeta.get(r) ?? { id: 0, created_at: SEED_TIME };
      return {
        id: meta.id,
        node_id: Buffer.from(`08:Reaction${meta.id}`).toString('base64'),
        user: userJson(appUser),
        content: r.content,
        created_at: meta.created_at,
      };
    };
    const existing = reactions.find((r) => r.target === target && r.content === content && r.user === appUser.login);
    // GitHub answers 200 with the existing reaction instead of creating a duplicate.
    if (existing) return { status: 200, json: render(existing) };
    const created: SimReaction = { target, content, user: appUser.login };
    reactions.push(created);
    reactionMeta.set(created, { id: nextReactionId++, created_at: isoNow() });
    return { status: 201, json: render(created) };
  };

  const num = (s: string | undefined): number => Number.parseInt(s ?? '', 10);

  const routes: Route[] = [
    {
      method: 'GET',
      pattern: /^$/,
      handler: () => ({ status: 200, json: { ...repoJson(), permissions: { admin: false, maintain: false, push: true, triage: true, pull: true } } }),
    },
    {
      method: 'GET',
      pattern: /^\/collaborators\/([^/]+)\/permission$/,
      handler: (_ctx, m) => {
        const login = decodeURIComponent(m[1] ?? '');
        const role = roleOf(login);
        // The legacy `permission` folds maintain into write and triage into read.
        const permission = role === 'maintain' ? 'write' : role === 'triage' ? 'read' : role;
        const rank = ['none', 'read', 'triage', 'write', 'maintain', 'admin'].indexOf(role);
        return {
          status: 200,
          json: {
            permission,
            role_name: role,
            user: {
              ...userJson({ login }),
              permissions: { admin: rank >= 5, maintain: rank >= 4, push: rank >= 3, triage: rank >= 2, pull: rank >= 1 },
              role_name: role,
            },
          },
        };
      },
    },
    {
      method: 'GET',
      pattern: /^\/issues\/(\d+)$/,
      handler: (_ctx, m) => {
        const issue = issues.get(num(m[1]));
        return issue ? { status: 200, json: issueJson(issue) } : notFound(`${API_DOCS}/issues/issues#get-an-issue`);
      },
    },
    {
      method: 'GET',
      pattern: /^\/issues\/(\d+)\/comments$/,
      handler: (ctx, m) => {
        const issue = issues.get(num(m[1]));
        if (!issue) return notFound(`${API_DOCS}/issues/comments#list-issue-comments`);
        const filtered = sinceFilter([...issue.comments].sort((a, b) => a.id - b.id), ctx.query.since);
        if (isReply(filtered)) return filtered;
        return listReply(filtered, ctx, url, (c) => commentJson(issue, c));
      },
    },
    {
      method: 'POST',
      pattern: /^\/issues\/(\d+)\/comments$/,
      handler: (ctx, m) => {
        const docs = `${API_DOCS}/issues/comments#create-an-issue-comment`;
        const issue = issues.get(num(m[1]));
        if (!issue) return notFound(docs);
        const body = bodyText(ctx, 'IssueComment', docs, true);
        if (typeof body !== 'string') return body;
        const now = isoNow();
        const comment: SimComment = { id: nextCommentId++, body, user: { ...appUser }, created_at: now, updated_at: now };
        issue.comments.push(comment);
        return {
          status: 201,
          headers: { location: `${apiRepo()}/issues/comments/${comment.id}` },
          json: commentJson(issue, comment),
        };
      },
    },
    {
      method: 'GET',
      pattern: /^\/issues\/comments\/(\d+)$/,
      handler: (_ctx, m) => {
        const found = findComment(num(m[1]));
        return found ? { status: 200, json: commentJson(found.issue, found.comment) } : notFound(`${API_DOCS}/issues/comments#get-an-issue-comment`);
      },
    },
    {
      method: 'PATCH',
      pattern: /^\/issues\/comments\/(\d+)$/,
      handler: (ctx, m) => {
        const docs = `${API_DOCS}/issues/comments#update-an-issue-comment`;
        const found = findComment(num(m[1]));
        if (!found) return notFound(docs);
        const body = bodyText(ctx, 'IssueComment', docs, true);
        if (typeof body !== 'string') return body;
        found.comment.body = body;
        found.comment.updated_at = isoNow();
        return { status: 200, json: commentJson(found.issue, found.comment) };
      },
    },
    {
      method: 'POST',
      pattern: /^\/issues\/(\d+)\/reactions$/,
      handler: (ctx, m) => {
        const docs = `${API_DOCS}/reactions/reactions#create-reaction-for-an-issue`;
        const n = num(m[1]);
        return issues.has(n) ? react(`issue:${n}`, ctx, docs) : notFound(docs);
      },
    },
    {
      method: 'POST',
      pattern: /^\/issues\/comments\/(\d+)\/reactions$/,
      handler: (ctx, m) => {
        const docs = `${API_DOCS}/reactions/reactions#create-reaction-for-an-issue-comment`;
        const id = num(m[1]);
        return findComment(id) ? react(`comment:${id}`, ctx, docs) : notFound(docs);
      },
    },
    {
      method: 'POST',
      pattern: /^\/pulls\/comments\/(\d+)\/reactions$/,
      handler: (ctx, m) => {
        const docs = `${API_DOCS}/reactions/reactions#create-reaction-for-a-pull-request-review-comment`;
        const id = num(m[1]);
        return findReviewComment(id) ? react(`review-comment:${id}`, ctx, docs) : notFound(docs);
      },
    },
    {
      method: 'GET',
      pattern: /^\/pulls$/,
      handler: (ctx) => {
        const state = ctx.query.state ?? 'open';
        if (!['open', 'closed', 'all'].includes(state)) return validationFailed('PullRequest', 'state', 'invalid');
        const head = ctx.query.head;
        const matches = [...issues.values()]
          .filter((issue): issue is SimIssue & { pull: SimPull } => issue.pull !== undefined)
          .filter((issue) => state === 'all' || (issue.state ?? 'open') === state)
          .filter((issue) => ctx.query.base === undefined || issue.pull.baseRef === ctx.query.base)
          .filter((issue) => {
            if (head === undefined) return true;
            // `head` is `user:ref` (or just `user`), the user being the head repository's owner.
            const [headUser = '', headRef] = head.includes(':') ? [head.slice(0, head.indexOf(':')), head.slice(head.indexOf(':') + 1)] : [head, undefined];
            const pullOwner = issue.pull.headRepoFullName.split('/')[0] ?? '';
            return pullOwner.toLowerCase() === headUser.toLowerCase() && (headRef === undefined || issue.pull.headRef === headRef);
          })
          .sort((a, b) => b.number - a.number);
        return listReply(matches, ctx, url, (issue) => pullJson(issue, issue.pull));
      },
    },
    {
      method: 'POST',
      pattern: /^\/pulls$/,
      handler: (ctx) => {
        const docs = `${API_DOCS}/pulls/pulls#create-a-pull-request`;
        const title = field(ctx.body, 'title');
        const head = field(ctx.body, 'head');
        const base = field(ctx.body, 'base');
        const draft = field(ctx.body, 'draft');
        if (typeof title !== 'string' || title.trim() === '') return validationFailed('PullRequest', 'title', 'missing_field', undefined, docs);
        if (typeof head !== 'string' || head === '') return validationFailed('PullRequest', 'head', 'missing_field', undefined, docs);
        if (typeof base !== 'string' || base === '') return validationFailed('PullRequest', 'base', 'missing_field', undefined, docs);
        const body = bodyText(ctx, 'PullRequest', docs, false);
        if (typeof body !== 'string') return body;
        const colon = head.indexOf(':');
        const headOwner = colon >= 0 ? head.slice(0, colon) : owner;
        const headRef = colon >= 0 ? head.slice(colon + 1) : head;
        const headRepoFullName = headOwner.toLowerCase() === owner.toLowerCase() ? fullName : `${headOwner}/${repo}`;
        const duplicate = [...issues.values()].some(
          (i) =>
            i.pull !== undefined &&
            (i.state ?? 'open') === 'open' &&
            i.pull.headRef === headRef &&
            i.pull.baseRef === base &&
            i.pull.headRepoFullName.toLowerCase() === headRepoFullName.toLowerCase(),
        );
        if (duplicate) {
          return errorReply(422, 'Validation Failed', docs, [
            { resource: 'PullRequest', code: 'custom', message: `A pull request already exists for ${headOwner}:${headRef}.` },
          ]);
        }
        const number = Math.max(0, ...issues.keys()) + 1;
        const pull: SimPull = {
          headRef,
          headSha: fakeSha(`head:${headRepoFullName}:${headRef}`),
          headRepoFullName,
          baseRef: base,
          draft: draft === true,
          files: [],
          reviewComments: [],
        };
        const issue: SimIssue = { number, title, body: body === '' ? null : body, user: { ...appUser }, state: 'open', labels: [], comments: [], pull };
        issues.set(number, issue);
        const created: SimCreatedPull = { number, title, body, head, base, draft: draft === true, html_url: `${repoHtml}/pull/${number}` };
        pullsCreated.push(created);
        return { status: 201, headers: { location: `${apiRepo()}/pulls/${number}` }, json: pullJson(issue, pull) };
      },
    },
    {
      method: 'GET',
      pattern: /^\/pulls\/(\d+)$/,
      handler: (ctx, m) => {
        const issue = issues.get(num(m[1]));
        if (!issue?.pull) return notFound(`${API_DOCS}/pulls/pulls#get-a-pull-request`);
        if (/application\/vnd\.github(\.v3)?\.diff/.test(ctx.accept)) {
          const pull = issue.pull;
          const diff =
            pull.diff ??
            (pull.files ?? [])
              .map((f) => `diff --git a/${f.filename} b/${f.filename}\n--- a/${f.filename}\n+++ b/${f.filename}\n${f.patch ?? ''}\n`)
              .join('');
          return { status: 200, text: diff, contentType: 'application/vnd.github.diff; charset=utf-8' };
        }
        return { status: 200, json: pullJson(issue, issue.pull) };
      },
    },
    {
      method: 'GET',
      pattern: /^\/pulls\/(\d+)\/files$/,
      handler: (ctx, m) => {
        const issue = issues.get(num(m[1]));
        const pull = issue?.pull;
        if (!pull) return notFound(`${API_DOCS}/pulls/pulls#list-pull-requests-files`);
        return listReply(pull.files ?? [], ctx, url, (f) => fileJson(pull, f));
      },
    },
    {
      method: 'GET',
      pattern: /^\/pulls\/(\d+)\/comments$/,
      handler: (ctx, m) => {
        const issue = issues.get(num(m[1]));
        const pull = issue?.pull;
        if (!issue || !pull) return notFound(`${API_DOCS}/pulls/comments#list-review-comments-on-a-pull-request`);
        const filtered = sinceFilter([...(pull.reviewComments ?? [])].sort((a, b) => a.id - b.id), ctx.query.since);
        if (isReply(filtered)) return filtered;
        return listReply(filtered, ctx, url, (c) => reviewCommentJson(issue, pull, c));
      },
    },
    {
      method: 'POST',
      pattern: /^\/pulls\/(\d+)\/comments\/(\d+)\/replies$/,
      handler: (ctx, m) => {
        const docs = `${API_DOCS}/pulls/comments#create-a-reply-for-a-review-comment`;
        const issue = issues.get(num(m[1]));
        const pull = issue?.pull;
        const parent = pull?.reviewComments?.find((c) => c.id === num(m[2]));
        if (!issue || !pull || !parent) return notFound(docs);
        const body = bodyText(ctx, 'PullRequestReviewComment', docs, true);
        if (typeof body !== 'string') return body;
        const now = isoNow();
        const reply: SimReviewComment = {
          id: nextCommentId++,
          body,
          user: { ...appUser },
          path: parent.path,
          line: parent.line,
          diff_hunk: parent.diff_hunk,
          // Threads are flat on GitHub: every reply points at the thread's first comment.
          in_reply_to_id: parent.in_reply_to_id ?? parent.id,
          created_at: now,
          updated_at: now,
        };
        pull.reviewComments = [...(pull.reviewComments ?? []), reply];
        return { status: 201, headers: { location: `${apiRepo()}/pulls/comments/${reply.id}` }, json: reviewCommentJson(issue, pull, reply) };
      },
    },
    {
      method: 'PATCH',
      pattern: /^\/pulls\/comments\/(\d+)$/,
      handler: (ctx, m) => {
        const docs = `${API_DOCS}/pulls/comments#update-a-review-comment-for-a-pull-request`;
        const id = num(m[1]);
        for (const issue of issues.values()) {
          const comment = issue.pull?.reviewComments?.find((c) => c.id === id);
          if (!issue.pull || !comment) continue;
          const body = bodyText(ctx, 'PullRequestReviewComment', docs, true);
          if (typeof body !== 'string') return body;
          comment.body = body;
          comment.updated_at = isoNow();
          return { status: 200, json: reviewCommentJson(issue, issue.pull, comment) };
        }
        return notFound(docs);
      },
    },
    {
      method: 'GET',
      pattern: /^\/contents(?:\/(.*))?$/,
      handler: (ctx, m) => {
        const docs = `${API_DOCS}/repos/contents#get-repository-content`;
        const path = decodeURIComponent(m[1] ?? '').replace(/^\/+|\/+$/g, '');
        const ref = ctx.query.ref ?? defaultBranch;
        const tree = files[ref];
        if (!tree) return errorReply(404, `No commit found for the ref ${ref}`, docs);
        const encodedPath = path.split('/').map(encodeURIComponent).join('/');
        const text = tree[path];
        if (text !== undefined) {
          const content = Buffer.from(text, 'utf8');
          if (/application\/vnd\.github(\.v3)?\.raw/.test(ctx.accept)) {
            return { status: 200, text, contentType: 'application/vnd.github.raw; charset=utf-8' };
          }
          const sha = gitBlobSha(content);
          const self = `${apiRepo()}/contents/${encodedPath}?ref=${encodeURIComponent(ref)}`;
          const html = `${repoHtml}/blob/${encodeURIComponent(ref)}/${encodedPath}`;
          const git = `${apiRepo()}/git/blobs/${sha}`;
          return {
            status: 200,
            json: {
              type: 'file',
              encoding: 'base64',
              size: content.length,
              name: path.split('/').at(-1) ?? path,
              path,
              content: base64Lines(content),
              sha,
              url: self,
              git_url: git,
              html_url: html,
              download_url: `https://raw.githubusercontent.com/${fullName}/${encodeURIComponent(ref)}/${encodedPath}`,
              _links: { self, git, html },
            },
          };
        }
        // A directory exists implicitly when some file lives below it.
        const prefix = path === '' ? '' : `${path}/`;
        const entries = new Map<string, 'file' | 'dir'>();
        for (const p of Object.keys(tree)) {
          if (!p.startsWith(prefix)) continue;
          const rest = p.slice(prefix.length);
          const slash = rest.indexOf('/');
          entries.set(slash >= 0 ? rest.slice(0, slash) : rest, slash >= 0 ? 'dir' : 'file');
        }
        if (entries.size === 0) return notFound(docs);
        const listing = [...entries]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([name, type]) => {
            const childPath = `${prefix}${name}`;
            const childText = tree[childPath];
            return {
              type,
              name,
              path: childPath,
              size: childText !== undefined ? Buffer.byteLength(childText) : 0,
              sha: childText !== undefined ? gitBlobSha(Buffer.from(childText)) : fakeSha(`tree:${ref}:${childPath}`),
              url: `${apiRepo()}/contents/${childPath.split('/').map(encodeURIComponent).join('/')}?ref=${encodeURIComponent(ref)}`,
              html_url: `${repoHtml}/${type === 'dir' ? 'tree' : 'blob'}/${encodeURIComponent(ref)}/${childPath}`,
            };
          });
        return { status: 200, json: listing };
      },
    },
    {
      method: 'GET',
      pattern: /^\/commits\/(.+)\/check-runs$/,
      handler: (ctx, m) => {
        const ref = decodeURIComponent(m[1] ?? '');
        // A branch name resolves to its tip; only pull request heads are known to the simulator.
        const headOfBranch = [...issues.values()].find((i) => i.pull?.headRef === ref)?.pull?.headSha;
        const sha = headOfBranch ?? ref;
        const matches = checkRuns
          .filter((r) => r.head_sha === sha)
          .filter((r) => ctx.query.check_name === undefined || r.name === ctx.query.check_name)
          .filter((r) => ctx.query.status === undefined || r.status === ctx.query.status);
        const { page, link } = paginate(matches, ctx, url);
        return {
          status: 200,
          json: { total_count: matches.length, check_runs: page.map(checkRunJson) },
          ...(link ? { headers: { link } } : {}),
        };
      },
    },
    {
      method: 'GET',
      pattern: /^\/actions\/jobs\/(\d+)\/logs$/,
      handler: (_ctx, m) => {
        const id = num(m[1]);
        const run = checkRuns.find((r) => r.id === id);
        if (!run || run.log === undefined) return notFound(`${API_DOCS}/actions/workflow-jobs#download-job-logs-for-a-workflow-run`);
        // GitHub redirects to a short-lived, pre-signed download URL that needs no Authorization.
        return { status: 302, headers: { location: `${url}/_logs/${id}` } };
      },
    },
  ];

  const route = (ctx: Ctx, pathname: string): Reply => {
    if (!/^\/repos\//.test(pathname)) return notFound();
    const m = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(pathname);
    if (!m) return notFound();
    // GitHub treats owner and repository names case-insensitively.
    if (decodeURIComponent(m[1] ?? '').toLowerCase() !== owner.toLowerCase() || decodeURIComponent(m[2] ?? '').toLowerCase() !== repo.toLowerCase()) {
      return notFound();
    }
    const sub = m[3] ?? '';
    for (const r of routes) {
      if (r.method !== ctx.method) continue;
      const match = r.pattern.exec(sub);
      if (match) return r.handler(ctx, match);
    }
    return notFound();
  };

  const authorized = (header: string | undefined): boolean => {
    const m = /^(?:token|bearer)\s+(\S+)\s*$/i.exec(header ?? '');
    return m !== null && m[1] === opts.token;
  };

  const send = (res: ServerResponse, reply: Reply): void => {
    requestCounter += 1;
    rateRemaining = Math.max(1, rateRemaining - 1);
    const headers: Record<string, string> = {
      'x-github-request-id': `C0DE:${(0x1000 + requestCounter).toString(16).toUpperCase()}:${(0xa0000 + requestCounter).toString(16).toUpperCase()}:${repoId.toString(16).toUpperCase()}`,
      'x-github-media-type': 'github.v3; format=json',
      'x-github-api-version-selected': '2022-11-28',
      'x-ratelimit-limit': '5000',
      'x-ratelimit-remaining': String(rateRemaining),
      'x-ratelimit-used': String(5000 - rateRemaining),
      'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
      'x-ratelimit-resource': 'core',
    };
    let payload = '';
    if (reply.json !== undefined) {
      headers['content-type'] = 'application/json; charset=utf-8';
      payload = JSON.stringify(reply.json);
    } else if (reply.text !== undefined) {
      headers['content-type'] = reply.contentType ?? 'text/plain; charset=utf-8';
      payload = reply.text;
    }
    for (const [k, v] of Object.entries(reply.headers ?? {})) headers[k.toLowerCase()] = v;
    headers['content-length'] = String(Buffer.byteLength(payload));
    res.writeHead(reply.status, headers);
    res.end(payload);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await readBody(req);
    const at = performance.now();
    const method = (req.method ?? 'GET').toUpperCase();
    const parsed = new URL(req.url ?? '/', 'http://sim.invalid');
    const pathname = parsed.pathname;
    const query: Record<string, string> = {};
    for (const [k, v] of parsed.searchParams) query[k] = v;
    let body: unknown;
    let badJson = false;
    if (raw !== '') {
      try {
        body = JSON.parse(raw) as unknown;
      } catch {
        body = raw;
        badJson = true;
      }
    }
    const record = (status: number): void => {
      requests.push({ method, path: pathname, query, body, status, at });
    };

    const fault = faults.find((f) => f.remaining > 0 && (f.method === undefined || f.method.toUpperCase() === method) && f.path.test(pathname));
    const real = (): Reply => {
      // The log download stands in for GitHub's pre-signed blob URL, so it takes no token.
      const logMatch = /^\/_logs\/(\d+)$/.exec(pathname);
      if (logMatch && method === 'GET') {
        const run = checkRuns.find((r) => r.id === Number(logMatch[1]));
        return run?.log !== undefined ? { status: 200, text: run.log, contentType: 'text/plain; charset=utf-8' } : { status: 404, text: 'BlobNotFound' };
      }
      if (!authorized(req.headers.authorization)) return errorReply(401, 'Bad credentials');
      if (badJson) return errorReply(400, 'Problems parsing JSON');
      const accept = req.headers.accept ?? '';
      return route({ method, query, body, accept, fullPath: pathname }, pathname);
    };

    let reply: Reply;
    if (fault) {
      fault.remaining -= 1;
      if (fault.afterEffect) real();
      reply = { status: fault.status, json: errorBody(fault.status, fault.message ?? STATUS_MESSAGES[fault.status] ?? 'Error'), ...(fault.headers ? { headers: fault.headers } : {}) };
    } else {
      reply = real();
    }
    record(reply.status);
    send(res, reply);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(errorBody(500, `simulator error: ${err instanceof Error ? err.message : String(err)}`)));
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    requests,
    issues,
    pullsCreated,
    reactions,
    fail(fault: SimFault): void {
      faults.push({ ...fault, remaining: fault.times ?? 1 });
    },
    close(): Promise<void> {
      return new Promise((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // Octokit's fetch keeps connections alive; without this close() would wait for them to time out.
        server.closeAllConnections();
      });
    },
  };
}
