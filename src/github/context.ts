import type { GitHubEvent, RepoRef } from './event.js';
import type { GitHub } from './client.js';
import { statusOf } from './status.js';
import { listIssueComments, type IssueComment } from './comments.js';
import { TRACKING_MARKER } from '../core/markers.js';
import { sameLogin, type WriterIdentity } from './identity.js';
import { isFork, listPullFiles, presentAtRoot } from './repo.js';
import { diffFromPatches, type ListedFile } from './pull-diff.js';
import type { Trigger } from './trigger.js';
import { INSTRUCTIONS_CHARS, readInstructions, type ReadInstructions } from '../extensions/imports.js';

export interface ThreadComment {
  author: string;
  body: string;
  createdAt: string;
}

export interface PullContext {
  number: number;
  title: string;
  body: string;
  author: string;
  baseRef: string;
  headRef: string;
  headSha: string;
  headRepoFullName: string;
  isFork: boolean;
  /** As GET /pulls/{n}/files lists them, patches included (3,000 at most). */
  files: ListedFile[];
  /** How many files the pull request changes: more than `files` holds past GitHub's 3,000. */
  changedFiles: number;
  diff: string;
  diffCut: number;
}

export interface FailingCheck {
  name: string;
  conclusion: string;
  url: string;
  /** The end of its log, when the token may read it. */
  logTail: string | null;
}

/** Everything the model is told about where the request came from. */
export interface TaskContext {
  repo: RepoRef;
  trigger: Trigger;
  issue?: { number: number; title: string; body: string; author: string; isPullRequest: boolean };
  comments: ThreadComment[];
  pull?: PullContext;
  reviewComment?: { path: string; line: number | null; diffHunk: string; body: string; author: string };
  failingChecks: FailingCheck[];
  /** CLAUDE.md with its imports, .claude/CLAUDE.md and AGENTS.md, from the base branch for a pull request. */
  instructions?: { path: string; content: string };
}

export interface ContextLimits {
  diffChars: number;
  logTailChars: number;
  maxChecks: number;
  instructionsChars: number;
}

export const DEFAULT_CONTEXT_LIMITS: ContextLimits = {
  diffChars: 60_000,
  logTailChars: 6_000,
  maxChecks: 3,
  instructionsChars: INSTRUCTIONS_CHARS,
};

type Gh = GitHub;
interface Where {
  owner: string;
  repo: string;
}

/**
 * Comments of the thread up to the trigger. Comments created or edited after it are left out:
 * text added while the run starts could steer it, and nobody who asked has seen it. So are the
 * action's own comments (its progress reports): those with its marker that its identity wrote.
 * A person's comment carrying a copied marker stays: it is part of the conversation the requester
 * saw, and a marker must not let anyone take a comment out of the context unseen.
 */
async function threadComments(listed: Promise<IssueComment[]>, trigger: Trigger, identity?: WriterIdentity): Promise<ThreadComment[]> {
  const [all, login] = await Promise.all([listed, identity?.login() ?? null]);
  const cutoff = trigger.triggerTime ? Date.parse(trigger.triggerTime) : Infinity;
  return all
    .filter((c) => c.id !== trigger.commentId)
    .filter((c) => Date.parse(c.created_at) <= cutoff && Date.parse(c.updated_at) <= cutoff)
    .filter((c) => !((c.body ?? '').includes(TRACKING_MARKER) && sameLogin(c.user?.login, login)))
    .map((c) => ({ author: c.user?.login ?? 'ghost', body: c.body ?? '', createdAt: c.created_at }));
}

type PullData = Awaited<ReturnType<Gh['rest']['pulls']['get']>>['data'];

async function pullContext(gh: Gh, where: Where, number: number, head: Promise<PullData>, limits: ContextLimits): Promise<PullContext> {
  // One listing gives the files and their patches: the diff media type is refused past 300 files.
  const [pr, files] = await Promise.all([head, listPullFiles(gh, where, number)]);
  const listed = files.map(listedFile);
  const { diff, cut } = diffFromPatches(listed, limits.diffChars);
  const headRepo = pr.head.repo?.full_name ?? '';
  return {
    number,
    title: pr.title,
    body: pr.body ?? '',
    author: pr.user?.login ?? 'ghost',
    baseRef: pr.base.ref,
    headRef: pr.head.ref,
    headSha: pr.head.sha,
    headRepoFullName: headRepo,
    isFork: isFork(headRepo, `${where.owner}/${where.repo}`),
    files: listed,
    changedFiles: pr.changed_files,
    diff,
    diffCut: cut,
  };
}

type RestFile = Awaited<ReturnType<typeof listPullFiles>>[number];

function listedFile(f: RestFile): ListedFile {
  const file: ListedFile = { filename: f.filename, status: f.status, additions: f.additions, deletions: f.deletions };
  if (f.previous_filename !== undefined) file.previous_filename = f.previous_filename;
  if (f.patch !== undefined) file.patch = f.patch;
  return file;
}

async function logTail(gh: Gh, where: Where, jobId: number, chars: number): Promise<string | null> {
  try {
    const response = await gh.rest.actions.downloadJobLogsForWorkflowRun({ ...where, job_id: jobId });
    const data: unknown = response.data;
    const text = typeof data === 'string' ? data : data instanceof ArrayBuffer ? Buffer.from(data).toString('utf8') : '';
    return text.slice(-chars);
  } catch {
    // The default token of a workflow without `actions: read` may not read logs: names still help.
    return null;
  }
}

async function failingChecks(gh: Gh, where: Where, sha: string, limits: ContextLimits): Promise<FailingCheck[]> {
  try {
    const { data } = await gh.rest.checks.listForRef({ ...where, ref: sha, per_page: 100 });
    const failed = data.check_runs.filter((c) => c.conclusion === 'failure' || c.conclusion === 'timed_out').slice(0, limits.maxChecks);
    return Promise.all(
      failed.map(async (c) => ({
        name: c.name,
        conclusion: c.conclusion ?? 'failure',
        url: c.html_url ?? '',
        logTail: await logTail(gh, where, c.id, limits.logTailChars),
      })),
    );
  } catch (error) {
    if (statusOf(error) === 403 || statusOf(error) === 404) return [];
    throw error;
  }
}

/** A file's text at `ref`, undefined when there is none (404, or a folder). */
const fileAt =
  (gh: Gh, where: Where, ref: string): ReadInstructions =>
  async (path) => {
    if ((await presentAtRoot(gh, where, path, ref)) === false) return undefined;
    try {
      const { data } = await gh.rest.repos.getContent({ ...where, path, ref });
      if (!Array.isArray(data) && data.type === 'file' && 'content' in data) return Buffer.from(data.content, 'base64').toString('utf8');
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
    }
    return undefined;
  };

/** CLAUDE.md with its imports, .claude/CLAUDE.md, AGENTS.md: the roots asked for at once, imports as they are found. */
function instructions(gh: Gh, where: Where, ref: string, limit: number): Promise<TaskContext['instructions']> {
  return readInstructions(fileAt(gh, where, ref), limit);
}

function targetNumber(trigger: Trigger): number | null {
  return trigger.target.type === 'repo' ? null : trigger.target.number;
}

/** Gathers the context with independent REST calls made concurrently. */
export interface GatherOptions {
  limits?: ContextLimits;
  /** Called as soon as the pull request is known, so its checkout can start before the rest arrives. */
  onPull?: (pull: PullContext) => void;
  /** The thread's comments, when the caller lists them already. */
  comments?: Promise<IssueComment[]>;
  /** Who the action writes as, to leave its own comments out; without it every comment stays. */
  identity?: WriterIdentity;
}

export async function gatherContext(
  gh: Gh,
  event: GitHubEvent,
  repo: RepoRef,
  trigger: Trigger,
  options: GatherOptions = {},
): Promise<TaskContext> {
  const { limits = DEFAULT_CONTEXT_LIMITS, onPull } = options;
  const where = { owner: repo.owner, repo: repo.name };
  const number = targetNumber(trigger);
  const context: TaskContext = { repo, trigger, comments: [], failingChecks: [] };
  if (number === null) {
    context.instructions = await instructions(gh, where, repo.defaultBranch, limits.instructionsChars);
    return context;
  }
  const isPull = trigger.target.type === 'pull';
  // First: the checks and the base branch's instructions need the pull request itself (not its files or diff).
  const head = isPull ? gh.rest.pulls.get({ ...where, pull_number: number }).then((r) => r.data) : undefined;
  // Most pull requests target the default branch: its instructions are fetched at once, and again
  // from the real base only when it differs.
  const onDefault = instructions(gh, where, repo.defaultBranch, limits.instructionsChars);
  onDefault.catch(() => {});
  const later = head?.then((pr) =>
    Promise.all([
      failingChecks(gh, where, pr.head.sha, limits),
      pr.base.ref !== repo.defaultBranch ? instructions(gh, where, pr.base.ref, limits.instructionsChars) : onDefault,
    ]),
  );
  later?.catch(() => {});
  const [issue, comments, pull] = await Promise.all([
    // A pull request's title, body and author come with the pull request itself.
    head
      ? head.then((pr) => ({ title: pr.title, body: pr.body, user: pr.user, pull_request: {} }))
      : gh.rest.issues.get({ ...where, issue_number: number }).then((r) => r.data),
    threadComments(options.comments ?? listIssueComments(gh, repo.owner, repo.name, number), trigger, options.identity),
    head
      ? pullContext(gh, where, number, head, limits).then((p) => {
          onPull?.(p);
          return p;
        })
      : Promise.resolve(undefined),
  ]);
  context.issue = {
    number,
    title: issue.title,
    body: issue.body ?? '',
    author: issue.user?.login ?? 'ghost',
    isPullRequest: Boolean(issue.pull_request),
  };
  context.comments = comments;
  const [checks, found] = await (later ?? Promise.all([Promise.resolve([]), onDefault]));
  if (pull) context.pull = pull;
  context.failingChecks = checks;
  if (found) context.instructions = found;
  if (event.kind === 'pull_request_review_comment') {
    const c = event.comment;
    context.reviewComment = { path: c.path, line: c.line, diffHunk: c.diffHunk, body: c.body, author: c.user.login };
  }
  return context;
}
