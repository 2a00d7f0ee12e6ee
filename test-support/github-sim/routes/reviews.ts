/**
 * Pull request reviews: creating one with its inline comments, placed on the diff and refused as
 * GitHub refuses them (the whole review, nothing stored, one 422 that does not say which comment
 * was wrong), and listing and reading them.
 */
import { reviewCommentJson, reviewJson } from '../render.js';
import { API_DOCS, bodyText, errorReply, field, isReply, listReply, notFound, num, type Ctx, type Reply, type Route } from '../reply.js';
import { isoNow, type SimState } from '../state.js';
import type { SimIssue, SimPull, SimReview, SimReviewComment } from '../types.js';

// The wording of GitHub's 422 bodies as recorded from the live API (2022-2026); newer answers say
// "could not be resolved" where older ones said "must be part of the diff".
export const REVIEW_ERRORS = {
  line: 'Line could not be resolved',
  path: 'Path could not be resolved',
  sameHunk: 'Pull request review thread start line must be part of the same hunk as the line.',
  precede: 'Pull request review thread start line must precede the end line.',
  side: 'Side is not included in the list',
  commit: 'commit_id is not part of the pull request',
  requestChangesBody: 'You need to leave a comment indicating the requested changes.',
  // Only the REQUEST_CHANGES wording has been seen; this one follows it.
  commentBody: 'You need to leave a comment.',
  ownApprove: 'Review Can not approve your own pull request',
  ownRequestChanges: 'Review Can not request changes on your own pull request',
  pending: 'User can only have one pending review per pull request',
  event: 'Event is not included in the list',
} as const;

const DOCS = `${API_DOCS}/pulls/reviews`;
type Side = 'LEFT' | 'RIGHT';

interface DiffLine {
  old: number | null;
  new: number | null;
  /** The legacy `position`: lines below the file's first `@@` header, later headers included. */
  position: number;
  /** Index into the hunk's text, header at 0. */
  at: number;
}

interface Hunk {
  text: string[];
  lines: DiffLine[];
}

/** The hunks of one file's `patch`: which old (LEFT) and new (RIGHT) line numbers a comment can name. */
export function parseHunks(patch: string): Hunk[] {
  const hunks: Hunk[] = [];
  let current: Hunk | undefined;
  let oldNo = 0;
  let newNo = 0;
  let position = 0;
  for (const text of patch.split('\n')) {
    const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
    if (header) {
      if (current) position += 1;
      current = { text: [text], lines: [] };
      hunks.push(current);
      oldNo = Number(header[1]);
      newNo = Number(header[2]);
      continue;
    }
    if (!current || text === '') continue;
    position += 1;
    current.text.push(text);
    const at = current.text.length - 1;
    if (text.startsWith('+')) current.lines.push({ old: null, new: newNo++, position, at });
    else if (text.startsWith('-')) current.lines.push({ old: oldNo++, new: null, position, at });
    else if (text.startsWith(' ')) current.lines.push({ old: oldNo++, new: newNo++, position, at });
    // `\ No newline at end of file` takes a position but is no line of either side.
  }
  return hunks;
}

interface Spot {
  hunk: number;
  index: number;
  line: DiffLine;
}

function locate(hunks: Hunk[], side: Side, line: number): Spot | null {
  for (const [hunk, h] of hunks.entries()) {
    const index = h.lines.findIndex((l) => (side === 'LEFT' ? l.old : l.new) === line);
    const found = h.lines[index];
    if (found) return { hunk, index, line: found };
  }
  return null;
}

interface Placed {
  path: string;
  line: number;
  side: Side;
  startLine: number | null;
  startSide: Side | null;
  diffHunk: string;
  body: string;
}

const isSide = (v: unknown): v is Side => v === 'LEFT' || v === 'RIGHT';
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/** Where a `comments[]` entry goes on the diff (`line`/`side`, or the legacy `position`), or GitHub's reason not to place it. */
function place(pull: SimPull, raw: unknown): Placed | string {
  const path = field(raw, 'path');
  const file = (pull.files ?? []).find((f) => f.filename === path);
  if (typeof path !== 'string' || !file) return REVIEW_ERRORS.path;
  // A file without a patch (binary, too large) has no line a comment could be put on.
  const hunks = parseHunks(file.patch ?? '');
  const rawLine = field(raw, 'line');
  const position = field(raw, 'position');
  let side: unknown = field(raw, 'side') ?? 'RIGHT';
  let line = rawLine;
  if (rawLine === undefined && isInt(position)) {
    const at = hunks.flatMap((h) => h.lines).find((l) => l.position === position);
    side = at?.new === null ? 'LEFT' : 'RIGHT';
    line = at ? (at.new ?? at.old) : undefined;
  }
  if (!isSide(side)) return REVIEW_ERRORS.side;
  const end = isInt(line) ? locate(hunks, side, line) : null;
  if (!isInt(line) || !end) return REVIEW_ERRORS.line;
  const rawStart = field(raw, 'start_line');
  const startSide = field(raw, 'start_side') ?? side;
  if (!isSide(startSide)) return REVIEW_ERRORS.side;
  const hunkText = (hunks[end.hunk]?.text ?? []).slice(0, end.line.at + 1).join('\n');
  const body = field(raw, 'body');
  const placed = { path, line, side, startLine: null, startSide: null, diffHunk: hunkText, body: typeof body === 'string' ? body : '' };
  if (rawStart === undefined || rawStart === null) return placed;
  if (!isInt(rawStart)) return REVIEW_ERRORS.line;
  if (startSide === side && rawStart >= line) return REVIEW_ERRORS.precede;
  const start = locate(hunks, startSide, rawStart);
  if (!start || start.hunk !== end.hunk) return REVIEW_ERRORS.sameHunk;
  if (start.index >= end.index) return REVIEW_ERRORS.precede;
  return { ...placed, startLine: rawStart, startSide };
}

/** Rails' `to_sentence`, which is how GitHub joins several reasons into its one error string. */
function sentence(parts: string[]): string {
  if (parts.length <= 2) return parts.join(' and ');
  return `${parts.slice(0, -1).join(', ')}, and ${parts.at(-1) ?? ''}`;
}

const unprocessable = (reasons: string[]): Reply =>
  errorReply(422, 'Unprocessable Entity', `${DOCS}#create-a-review-for-a-pull-request`, [sentence([...new Set(reasons)])]);

const STATES: Record<string, SimReview['state']> = { APPROVE: 'APPROVED', REQUEST_CHANGES: 'CHANGES_REQUESTED', COMMENT: 'COMMENTED' };

interface NewReview {
  state: SimReview['state'];
  body: string;
  commitId: string;
  comments: Placed[];
}

/** Refusals that concern the review as a whole, before any of its comments is looked at. */
function reviewRefusal(ctx: Ctx, issue: SimIssue, pull: SimPull, event: unknown, commitId: unknown): string | null {
  if (event !== undefined && (typeof event !== 'string' || !(event in STATES))) return REVIEW_ERRORS.event;
  const own = issue.user.login === ctx.user.login;
  if (own && event === 'APPROVE') return REVIEW_ERRORS.ownApprove;
  if (own && event === 'REQUEST_CHANGES') return REVIEW_ERRORS.ownRequestChanges;
  const pendingAlready = (pull.reviews ?? []).some((r) => r.state === 'PENDING' && r.user.login === ctx.user.login);
  if (event === undefined && pendingAlready) return REVIEW_ERRORS.pending;
  if (commitId !== undefined && commitId !== pull.headSha) return REVIEW_ERRORS.commit;
  return null;
}

function newReview(s: SimState, ctx: Ctx, issue: SimIssue, pull: SimPull): NewReview | Reply {
  const event = field(ctx.body, 'event');
  const commitId = field(ctx.body, 'commit_id');
  const refusal = reviewRefusal(ctx, issue, pull, event, commitId);
  if (refusal) return unprocessable([refusal]);
  const body = bodyText(ctx, 'PullRequestReview', `${DOCS}#create-a-review-for-a-pull-request`, false);
  if (typeof body !== 'string') return body;
  const rawComments = field(ctx.body, 'comments') ?? [];
  const entries: unknown[] = Array.isArray(rawComments) ? rawComments : [rawComments];
  const placed = entries.map((raw) => place(pull, raw));
  const reasons = placed.filter((p): p is string => typeof p === 'string');
  if (reasons.length > 0) return unprocessable(reasons);
  const comments = placed.filter((p): p is Placed => typeof p !== 'string');
  if (body.trim() === '' && comments.length === 0) {
    if (event === 'REQUEST_CHANGES') return unprocessable([REVIEW_ERRORS.requestChangesBody]);
    if (event === 'COMMENT') return unprocessable([REVIEW_ERRORS.commentBody]);
  }
  const state = typeof event === 'string' ? (STATES[event] ?? 'PENDING') : 'PENDING';
  return { state, body, commitId: pull.headSha, comments };
}

function storedComment(s: SimState, review: SimReview, p: Placed, now: string): SimReviewComment {
  return {
    id: s.nextCommentId++,
    body: p.body,
    user: { ...review.user },
    path: p.path,
    line: p.line,
    diff_hunk: p.diffHunk,
    created_at: now,
    updated_at: now,
    side: p.side,
    start_line: p.startLine,
    start_side: p.startSide,
    original_line: p.line,
    commit_id: review.commit_id,
    pull_request_review_id: review.id,
  };
}

/** Pending reviews keep their comments to themselves: on GitHub nobody sees them until the review is submitted. */
const pendingComments = new WeakMap<SimReview, SimReviewComment[]>();

function createReview(s: SimState, ctx: Ctx, number: number): Reply {
  const issue = s.issues.get(number);
  const pull = issue?.pull;
  if (!issue || !pull) return notFound(`${DOCS}#create-a-review-for-a-pull-request`);
  const fields = newReview(s, ctx, issue, pull);
  if (isReply(fields)) return fields;
  const now = isoNow();
  const review: SimReview = {
    id: s.nextReviewId++,
    user: { ...ctx.user },
    body: fields.body,
    state: fields.state,
    commit_id: fields.commitId,
    ...(fields.state === 'PENDING' ? {} : { submitted_at: now }),
  };
  const comments = fields.comments.map((p) => storedComment(s, review, p, now));
  pull.reviews = [...(pull.reviews ?? []), review];
  if (review.state === 'PENDING') pendingComments.set(review, comments);
  else pull.reviewComments = [...(pull.reviewComments ?? []), ...comments];
  // GitHub answers this create with 200, not 201.
  return { status: 200, json: reviewJson(s, issue, review) };
}

function findReview(s: SimState, number: number, id: number): { issue: SimIssue; pull: SimPull; review: SimReview } | null {
  const issue = s.issues.get(number);
  const review = issue?.pull?.reviews?.find((r) => r.id === id);
  return issue?.pull && review ? { issue, pull: issue.pull, review } : null;
}

export const reviewRoutes: Route[] = [
  { method: 'POST', pattern: /^\/pulls\/(\d+)\/reviews$/, handler: (s, ctx, m) => createReview(s, ctx, num(m[1])) },
  {
    method: 'GET',
    pattern: /^\/pulls\/(\d+)\/reviews$/,
    handler: (s, ctx, m) => {
      const issue = s.issues.get(num(m[1]));
      if (!issue?.pull) return notFound(`${DOCS}#list-reviews-for-a-pull-request`);
      const reviews = [...(issue.pull.reviews ?? [])].sort((a, b) => a.id - b.id);
      return listReply(reviews, ctx, s.url, (r) => reviewJson(s, issue, r));
    },
  },
  {
    method: 'GET',
    pattern: /^\/pulls\/(\d+)\/reviews\/(\d+)$/,
    handler: (s, _ctx, m) => {
      const found = findReview(s, num(m[1]), num(m[2]));
      return found ? { status: 200, json: reviewJson(s, found.issue, found.review) } : notFound(`${DOCS}#get-a-review-for-a-pull-request`);
    },
  },
  {
    method: 'GET',
    pattern: /^\/pulls\/(\d+)\/reviews\/(\d+)\/comments$/,
    handler: (s, ctx, m) => {
      const found = findReview(s, num(m[1]), num(m[2]));
      if (!found) return notFound(`${DOCS}#list-comments-for-a-pull-request-review`);
      const { issue, pull, review } = found;
      const mine = pendingComments.get(review) ?? (pull.reviewComments ?? []).filter((c) => c.pull_request_review_id === review.id);
      return listReply(mine, ctx, s.url, (c) => reviewCommentJson(s, issue, pull, c));
    },
  },
];
