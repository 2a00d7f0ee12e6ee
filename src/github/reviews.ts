import type { GitHub } from './client.js';
import { sameLogin, type WriterIdentity } from './identity.js';
import { statusOf } from './status.js';

/** One inline comment the review wants to make; `startLine` opens a multi-line range on the same side. */
export type ReviewFinding = { path: string; line: number; startLine?: number; side: 'LEFT' | 'RIGHT'; body: string };

export interface ReviewPlace {
  owner: string;
  repo: string;
  pullNumber: number;
}

export interface ReviewSpec {
  /** The head the review was made against; it also names the review in its hidden marker. */
  commitId: string;
  body: string;
  /** Never `APPROVE`: an automated reviewer does not approve. */
  event: 'COMMENT' | 'REQUEST_CHANGES';
  findings: ReviewFinding[];
}

export interface PostedReview {
  id: number;
  url: string;
  /** The findings that became inline comments. */
  posted: ReviewFinding[];
  /** The findings GitHub would not place on the diff, listed in the review body instead. */
  folded: ReviewFinding[];
}

export interface ReviewOptions {
  /** Applied to every body (the review's and each comment's) before it leaves the process. */
  redact: (text: string) => string;
  log: (message: string) => void;
  /** Who the action writes as: after a 5xx only that author's review with the marker is taken as made. */
  identity: WriterIdentity;
}

export interface EarlierReviews {
  /** The action's own reviews, oldest first. */
  reviews: { id: number; head: string; url: string; submittedAt: string | null }[];
  /** Their inline comments. */
  comments: { path: string; line: number; body: string }[];
}

/** Hidden marker naming the head a review was made for: a retry or a re-run finds the review again by it. */
export function reviewMarker(headSha: string): string {
  return `<!-- agent-action:review head=${headSha} -->`;
}

/** The head sha of the action's review marker in `body`, or null when there is none. */
export function parseReviewMarker(body: string): string | null {
  return /<!-- agent-action:review head=([0-9a-f]{7,64}) -->/i.exec(body)?.[1] ?? null;
}

/** GitHub refuses longer review bodies. */
const MAX_BODY = 65536;
/** POSTs of one payload before a transient failure is given up on (each after checking the review was not made). */
const MAX_TRIES = 3;

interface Payload {
  inline: ReviewFinding[];
  folded: ReviewFinding[];
}

interface Ctx {
  gh: GitHub;
  where: ReviewPlace;
  review: ReviewSpec;
  o: ReviewOptions;
  marker: string;
}

function transient(error: unknown): boolean {
  const status = statusOf(error);
  return status === undefined || status >= 500;
}

function range(f: ReviewFinding): string {
  return f.startLine !== undefined && f.startLine !== f.line ? `${f.startLine}-${f.line}` : String(f.line);
}

function foldedItem(f: ReviewFinding, redact: (t: string) => string): string {
  const where = `\`${f.path}:${range(f)}\`${f.side === 'LEFT' ? ' (old side)' : ''}`;
  // Continuation lines indented so that code blocks and paragraphs stay inside the list item.
  return `- ${where}: ${redact(f.body).trim().replace(/\n/g, '\n  ')}`;
}

/** The review body with the marker, and the folded findings as a list when there are any, within GitHub's size limit. */
function bodyOf(c: Ctx, folded: ReviewFinding[]): string {
  const tail = `\n\n${c.marker}`;
  const text = c.o.redact(c.review.body).slice(0, MAX_BODY - tail.length - 2000);
  if (folded.length === 0) return `${text}${tail}`;
  const count = folded.length === 1 ? '1 finding' : `${folded.length} findings`;
  const intro = `**${count} could not be placed on the diff** (GitHub refused them as inline comments), so they are listed here:`;
  let out = `${text}\n\n---\n\n${intro}\n`;
  for (const [index, f] of folded.entries()) {
    const item = `\n${foldedItem(f, c.o.redact)}`;
    const more = `\n- … and ${folded.length - index} more, cut to keep the review within GitHub's size limit`;
    if (out.length + item.length + more.length + tail.length > MAX_BODY) return `${out}${more}${tail}`;
    out += item;
  }
  return `${out}${tail}`;
}

function inlineComment(f: ReviewFinding, redact: (t: string) => string) {
  const range = f.startLine !== undefined && f.startLine !== f.line ? { start_line: f.startLine, start_side: f.side } : {};
  return { path: f.path, line: f.line, side: f.side, ...range, body: redact(f.body) };
}

async function findByMarker(c: Ctx): Promise<{ id: number; url: string } | null> {
  const { owner, repo, pullNumber } = c.where;
  const [all, login] = await Promise.all([
    c.gh.paginate(c.gh.rest.pulls.listReviews, { owner, repo, pull_number: pullNumber, per_page: 100 }),
    c.o.identity.login(),
  ]);
  const hit = all.findLast((r) => (r.body ?? '').includes(c.marker) && sameLogin(r.user?.login, login));
  return hit ? { id: hit.id, url: hit.html_url } : null;
}

/**
 * One payload posted once. GitHub can answer 5xx after it made the review, so before each repeat
 * the review is looked for by its marker: one head never gets two reviews.
 */
async function deliver(c: Ctx, p: Payload): Promise<PostedReview> {
  const { owner, repo, pullNumber } = c.where;
  const comments = p.inline.map((f) => inlineComment(f, c.o.redact));
  const body = bodyOf(c, p.folded);
  for (let attempt = 1; ; attempt++) {
    try {
      // No automatic retry: the plugin would repeat a POST whose review may already exist.
      const request = { retries: 0 };
      const args = { owner, repo, pull_number: pullNumber, commit_id: c.review.commitId, event: c.review.event, body, comments, request };
      const { data } = await c.gh.rest.pulls.createReview(args);
      return { id: data.id, url: data.html_url, posted: p.inline, folded: p.folded };
    } catch (error) {
      if (!transient(error)) throw error;
      c.o.log(`posting the review failed (${String(statusOf(error) ?? error)}); checking whether it was made`);
      const found = await findByMarker(c);
      if (found) return { ...found, posted: p.inline, folded: p.folded };
      if (attempt >= MAX_TRIES) throw error;
    }
  }
}

function errorText(error: unknown): string {
  const response = typeof error === 'object' && error !== null && 'response' in error ? error.response : undefined;
  const data = typeof response === 'object' && response !== null && 'data' in response ? response.data : undefined;
  return `${error instanceof Error ? error.message : String(error)} ${data === undefined ? '' : JSON.stringify(data)}`;
}

/**
 * The comments a 422 names, when it names some by index (`comments[2]`, `comments/2`). GitHub's
 * usual answer ("Line could not be resolved") does not, and then every comment is suspect.
 */
function rejectedBy(error: unknown, findings: ReviewFinding[]): Set<ReviewFinding> | null {
  const named = new Set<ReviewFinding>();
  for (const m of errorText(error).matchAll(/comments(?:\[|\/|\.)(\d+)/g)) {
    const f = findings[Number(m[1])];
    if (f) named.add(f);
  }
  return named.size > 0 && named.size < findings.length ? named : null;
}

/**
 * Posts the review once: every finding inline if GitHub takes them all; when it refuses some (a
 * line not in the diff), those the error names or else all of them go into the body as a list, so
 * a review is always posted. Throws only when even the review without inline comments is refused.
 */
export async function postReview(gh: GitHub, where: ReviewPlace, review: ReviewSpec, o: ReviewOptions): Promise<PostedReview> {
  const event: string = review.event;
  if (event !== 'COMMENT' && event !== 'REQUEST_CHANGES') throw new Error(`refusing to post a review with event ${event}`);
  const c: Ctx = { gh, where, review, o, marker: reviewMarker(review.commitId) };
  const all = review.findings;
  try {
    return await deliver(c, { inline: all, folded: [] });
  } catch (error) {
    if (statusOf(error) !== 422 || all.length === 0) throw error;
    const why = error instanceof Error ? error.message : String(error);
    o.log(`GitHub refused the review's inline comments (${why}); folding them into the review body`);
    const named = rejectedBy(error, all);
    if (named) {
      try {
        return await deliver(c, { inline: all.filter((f) => !named.has(f)), folded: all.filter((f) => named.has(f)) });
      } catch (again) {
        if (statusOf(again) !== 422) throw again;
      }
    }
  }
  return deliver(c, { inline: [], folded: all });
}

/**
 * The action's earlier reviews on the pull request (those carrying its marker that its identity
 * wrote: a review anyone else posts with a marker is not the action's, and must not make a
 * re-review skip what it claims was reviewed) and their inline comments, so a re-review can look
 * at what is new and not repeat itself.
 */
export async function earlierReviews(gh: GitHub, where: ReviewPlace, identity: WriterIdentity): Promise<EarlierReviews> {
  const params = { owner: where.owner, repo: where.repo, pull_number: where.pullNumber, per_page: 100 };
  const [listed, login] = await Promise.all([gh.paginate(gh.rest.pulls.listReviews, params), identity.login()]);
  const reviews: EarlierReviews['reviews'] = [];
  for (const r of listed) {
    const head = parseReviewMarker(r.body ?? '');
    if (head === null || !sameLogin(r.user?.login, login)) continue;
    reviews.push({ id: r.id, head, url: r.html_url, submittedAt: r.submitted_at ?? null });
  }
  if (reviews.length === 0) return { reviews, comments: [] };
  const ids = new Set(reviews.map((r) => r.id));
  const all = await gh.paginate(gh.rest.pulls.listReviewComments, params);
  const comments: EarlierReviews['comments'] = [];
  for (const rc of all) {
    // An outdated comment has lost its line on the current diff; where it was written still identifies it.
    const line = rc.line ?? rc.original_line;
    const own = sameLogin(rc.user?.login, login);
    if (own && rc.pull_request_review_id !== null && ids.has(rc.pull_request_review_id) && line !== undefined) {
      comments.push({ path: rc.path, line, body: rc.body });
    }
  }
  return { reviews, comments };
}
