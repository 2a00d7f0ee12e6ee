import type { GitHub } from './client.js';
import { sameLogin, type WriterIdentity } from './identity.js';
import { statusOf } from './status.js';
import type { GitHubEvent } from './event.js';
import type { Trigger } from './trigger.js';

export type CommentPlace =
  | { kind: 'issue'; number: number }
  /** A reply in the thread of a pull request review comment. */
  | { kind: 'review-thread'; pullNumber: number; replyTo: number };

/** Where a run's tracking comment goes; a run on the whole repository has no thread to answer in. */
export function commentPlace(event: GitHubEvent, trigger: Trigger): CommentPlace | null {
  if (trigger.target.type === 'repo') return null;
  if (trigger.source === 'review-comment' && event.kind === 'pull_request_review_comment') {
    // Replies go to the thread's first comment: GitHub does not take replies to replies.
    return { kind: 'review-thread', pullNumber: trigger.target.number, replyTo: event.comment.inReplyToId ?? event.comment.id };
  }
  return { kind: 'issue', number: trigger.target.number };
}

export type IssueComment = Awaited<ReturnType<GitHub['rest']['issues']['listComments']>>['data'][number];

/** Every comment of an issue or pull request thread, oldest first. */
export function listIssueComments(gh: GitHub, owner: string, repo: string, number: number): Promise<IssueComment[]> {
  return gh.paginate(gh.rest.issues.listComments, { owner, repo, issue_number: number, per_page: 100 });
}

export interface CommentDeps {
  gh: GitHub;
  owner: string;
  repo: string;
  /** Who the action writes as: only that author's comments are its own, to find again and edit. */
  identity: WriterIdentity;
  /** The thread's comments when they are being read already (for the context): one listing serves both. */
  comments?: Promise<IssueComment[]>;
  /** Applied to every body before it leaves the process. */
  redact: (text: string) => string;
  clock?: () => number;
  log?: (message: string) => void;
}

/** Hidden marker naming the workflow run, so a re-run finds and updates its own comment. */
export function runMarker(runId: string): string {
  return `<!-- agent-action:run ${runId} -->`;
}

interface Found {
  id: number;
  url: string;
}

type Written = { body?: string | null; user?: { login: string } | null; id: number; html_url: string };

/**
 * The newest comment carrying the marker that the action's identity wrote: anyone can type a
 * marker. A run's own marker is on one comment; the sticky one (every tracking comment's) on one per run before.
 */
async function ownByMarker(d: CommentDeps, all: readonly Written[], marker: string): Promise<Found | null> {
  const login = await d.identity.login();
  const hit = all.findLast((c) => (c.body ?? '').includes(marker) && sameLogin(c.user?.login, login));
  return hit ? { id: hit.id, url: hit.html_url } : null;
}

async function findByMarker(d: CommentDeps, place: CommentPlace, marker: string, listed?: Promise<IssueComment[]>): Promise<Found | null> {
  const where = { owner: d.owner, repo: d.repo, per_page: 100 };
  if (place.kind === 'issue') return ownByMarker(d, await (listed ?? listIssueComments(d.gh, d.owner, d.repo, place.number)), marker);
  return ownByMarker(d, await d.gh.paginate(d.gh.rest.pulls.listReviewComments, { ...where, pull_number: place.pullNumber }), marker);
}

async function create(d: CommentDeps, place: CommentPlace, body: string): Promise<Found> {
  // No automatic retry: a 5xx can come after the comment was made, and a retry would post it twice.
  const request = { retries: 0 };
  if (place.kind === 'issue') {
    const { data } = await d.gh.rest.issues.createComment({ owner: d.owner, repo: d.repo, issue_number: place.number, body, request });
    return { id: data.id, url: data.html_url };
  }
  const { data } = await d.gh.rest.pulls.createReplyForReviewComment({
    owner: d.owner,
    repo: d.repo,
    pull_number: place.pullNumber,
    comment_id: place.replyTo,
    body,
    request,
  });
  return { id: data.id, url: data.html_url };
}

function transient(error: unknown): boolean {
  const status = statusOf(error);
  return status === undefined || status >= 500;
}

/**
 * The one comment a run keeps up to date: created at once (or found again on a re-run of the
 * same workflow run), then edited with progress no more often than every few seconds, and
 * finally with the result.
 */
export class TrackingComment {
  private pending: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastWrite = 0;
  private chain: Promise<void> = Promise.resolve();

  private constructor(
    private readonly d: CommentDeps,
    private readonly place: CommentPlace,
    readonly id: number,
    readonly url: string,
    private readonly intervalMs: number,
  ) {}

  static async start(d: CommentDeps, place: CommentPlace, marker: string, body: string, intervalMs = 3000): Promise<TrackingComment> {
    const text = d.redact(body);
    const existing = await findByMarker(d, place, marker, d.comments);
    let found = existing;
    if (!found) {
      try {
        found = await create(d, place, text);
      } catch (error) {
        if (!transient(error)) throw error;
        d.log?.(`creating the tracking comment failed (${String(statusOf(error) ?? error)}); checking whether it was made`);
        found = (await findByMarker(d, place, marker)) ?? (await create(d, place, text));
      }
    }
    const comment = new TrackingComment(d, place, found.id, found.url, intervalMs);
    // Creating it was a write: the first progress waits its interval, as after any other.
    if (existing) await comment.write(text);
    else comment.lastWrite = (d.clock ?? Date.now)();
    return comment;
  }

  /** Progress: written now if the last write is old enough, else once the interval has passed. */
  update(body: string): void {
    this.pending = body;
    if (this.timer) return;
    const now = (this.d.clock ?? Date.now)();
    const wait = Math.max(0, this.lastWrite + this.intervalMs - now);
    this.timer = setTimeout(() => {
      this.timer = null;
      const next = this.pending;
      this.pending = null;
      if (next !== null) this.enqueue(next);
    }, wait);
  }

  /** The final text: replaces any pending progress and is written before this resolves; rejects when it could not be. */
  async finish(body: string): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending = null;
    const last = this.chain.then(() => this.write(body));
    this.chain = last.catch(() => undefined);
    await last;
  }

  private enqueue(body: string): void {
    this.chain = this.chain.then(() =>
      this.write(body).catch((error: unknown) => {
        // Progress that fails to post must not end the run; the final write is retried by Octokit.
        this.d.log?.(`updating the tracking comment failed: ${error instanceof Error ? error.message : String(error)}`);
      }),
    );
  }

  private async write(body: string): Promise<void> {
    this.lastWrite = (this.d.clock ?? Date.now)();
    const text = this.d.redact(body);
    if (this.place.kind === 'issue') {
      await this.d.gh.rest.issues.updateComment({ owner: this.d.owner, repo: this.d.repo, comment_id: this.id, body: text });
    } else {
      await this.d.gh.rest.pulls.updateReviewComment({ owner: this.d.owner, repo: this.d.repo, comment_id: this.id, body: text });
    }
  }
}
