/** Pull requests: listing, creation, the diff, changed files and review comment threads. */
import { fileJson, pullJson, reviewCommentJson } from '../render.js';
import {
  API_DOCS,
  bodyText,
  errorReply,
  field,
  isReply,
  listReply,
  notFound,
  num,
  sinceFilter,
  validationFailed,
  type Ctx,
  type Reply,
  type Route,
} from '../reply.js';
import { fakeSha, isoNow, type SimState } from '../state.js';
import type { SimCreatedPull, SimIssue, SimPull, SimReviewComment } from '../types.js';

/** `head` is `user:ref` (or just `user`), the user being the head repository's owner. */
function matchesHead(pull: SimPull, head: string | undefined): boolean {
  if (head === undefined) return true;
  const colon = head.indexOf(':');
  const [headUser = '', headRef] = head.includes(':') ? [head.slice(0, colon), head.slice(colon + 1)] : [head, undefined];
  const pullOwner = pull.headRepoFullName.split('/')[0] ?? '';
  return pullOwner.toLowerCase() === headUser.toLowerCase() && (headRef === undefined || pull.headRef === headRef);
}

function listPulls(s: SimState, ctx: Ctx): Reply {
  const state = ctx.query.state ?? 'open';
  if (!['open', 'closed', 'all'].includes(state)) return validationFailed('PullRequest', 'state', 'invalid');
  const matches = [...s.issues.values()]
    .filter((issue): issue is SimIssue & { pull: SimPull } => issue.pull !== undefined)
    .filter((issue) => state === 'all' || (issue.state ?? 'open') === state)
    .filter((issue) => ctx.query.base === undefined || issue.pull.baseRef === ctx.query.base)
    .filter((issue) => matchesHead(issue.pull, ctx.query.head))
    .sort((a, b) => b.number - a.number);
  return listReply(matches, ctx, s.url, (issue) => pullJson(s, issue, issue.pull));
}

interface CreateFields {
  title: string;
  head: string;
  base: string;
  draft: unknown;
  body: string;
}

function createFields(ctx: Ctx, docs: string): CreateFields | Reply {
  const title = field(ctx.body, 'title');
  const head = field(ctx.body, 'head');
  const base = field(ctx.body, 'base');
  const draft = field(ctx.body, 'draft');
  const missing = (name: string): Reply => validationFailed('PullRequest', name, 'missing_field', undefined, docs);
  if (typeof title !== 'string' || title.trim() === '') return missing('title');
  if (typeof head !== 'string' || head === '') return missing('head');
  if (typeof base !== 'string' || base === '') return missing('base');
  const body = bodyText(ctx, 'PullRequest', docs, false);
  if (typeof body !== 'string') return body;
  return { title, head, base, draft, body };
}

function createPull(s: SimState, ctx: Ctx): Reply {
  const docs = `${API_DOCS}/pulls/pulls#create-a-pull-request`;
  const fields = createFields(ctx, docs);
  if (isReply(fields)) return fields;
  const { title, head, base, draft, body } = fields;
  const colon = head.indexOf(':');
  const headOwner = colon >= 0 ? head.slice(0, colon) : s.owner;
  const headRef = colon >= 0 ? head.slice(colon + 1) : head;
  const headRepoFullName = headOwner.toLowerCase() === s.owner.toLowerCase() ? s.fullName : `${headOwner}/${s.repo}`;
  const duplicate = [...s.issues.values()].some(
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
  const number = Math.max(0, ...s.issues.keys()) + 1;
  const headSha = fakeSha(`head:${headRepoFullName}:${headRef}`);
  const pull: SimPull = { headRef, headSha, headRepoFullName, baseRef: base, draft: draft === true, files: [], reviewComments: [] };
  const user = { ...ctx.user };
  const issue: SimIssue = { number, title, body: body === '' ? null : body, user, state: 'open', labels: [], comments: [], pull };
  s.issues.set(number, issue);
  const created: SimCreatedPull = { number, title, body, head, base, draft: draft === true, html_url: `${s.repoHtml}/pull/${number}` };
  s.pullsCreated.push(created);
  return { status: 201, headers: { location: `${s.apiRepo()}/pulls/${number}` }, json: pullJson(s, issue, pull) };
}

/** GitHub serves the diff media type for at most 300 files; past that it answers 406 and points at the file list. */
const MAX_DIFF_FILES = 300;
/** The file list stops at 3,000 files, however many the pull request changes. */
const MAX_LISTED_FILES = 3000;

function diffTooLarge(): Reply {
  return {
    status: 406,
    json: {
      message: `Sorry, the diff exceeded the maximum number of files (${MAX_DIFF_FILES}). Consider using 'List pull requests files' API or locally cloning the repository instead.`,
      errors: [{ resource: 'PullRequest', field: 'diff', code: 'too_large' }],
      documentation_url: `${API_DOCS}/pulls/pulls#list-pull-requests-files`,
      status: '406',
    },
  };
}

function getPull(s: SimState, ctx: Ctx, number: number): Reply {
  const issue = s.issues.get(number);
  if (!issue?.pull) return notFound(`${API_DOCS}/pulls/pulls#get-a-pull-request`);
  if (/application\/vnd\.github(\.v3)?\.diff/.test(ctx.accept)) {
    const pull = issue.pull;
    if ((pull.files ?? []).length > MAX_DIFF_FILES) return diffTooLarge();
    const diff =
      pull.diff ??
      (pull.files ?? [])
        .map((f) => `diff --git a/${f.filename} b/${f.filename}\n--- a/${f.filename}\n+++ b/${f.filename}\n${f.patch ?? ''}\n`)
        .join('');
    return { status: 200, text: diff, contentType: 'application/vnd.github.diff; charset=utf-8' };
  }
  return { status: 200, json: pullJson(s, issue, issue.pull) };
}

function replyToReviewComment(s: SimState, ctx: Ctx, number: number, parentId: number): Reply {
  const docs = `${API_DOCS}/pulls/comments#create-a-reply-for-a-review-comment`;
  const issue = s.issues.get(number);
  const pull = issue?.pull;
  const parent = pull?.reviewComments?.find((c) => c.id === parentId);
  if (!issue || !pull || !parent) return notFound(docs);
  const body = bodyText(ctx, 'PullRequestReviewComment', docs, true);
  if (typeof body !== 'string') return body;
  const now = isoNow();
  const reply: SimReviewComment = {
    id: s.nextCommentId++,
    body,
    user: { ...ctx.user },
    path: parent.path,
    line: parent.line,
    diff_hunk: parent.diff_hunk,
    // Threads are flat on GitHub: every reply points at the thread's first comment.
    in_reply_to_id: parent.in_reply_to_id ?? parent.id,
    created_at: now,
    updated_at: now,
  };
  pull.reviewComments = [...(pull.reviewComments ?? []), reply];
  const location = `${s.apiRepo()}/pulls/comments/${reply.id}`;
  return { status: 201, headers: { location }, json: reviewCommentJson(s, issue, pull, reply) };
}

export const pullRoutes: Route[] = [
  { method: 'GET', pattern: /^\/pulls$/, handler: (s, ctx) => listPulls(s, ctx) },
  { method: 'POST', pattern: /^\/pulls$/, handler: (s, ctx) => createPull(s, ctx) },
  { method: 'GET', pattern: /^\/pulls\/(\d+)$/, handler: (s, ctx, m) => getPull(s, ctx, num(m[1])) },
  {
    method: 'GET',
    pattern: /^\/pulls\/(\d+)\/files$/,
    handler: (s, ctx, m) => {
      const issue = s.issues.get(num(m[1]));
      const pull = issue?.pull;
      if (!pull) return notFound(`${API_DOCS}/pulls/pulls#list-pull-requests-files`);
      return listReply((pull.files ?? []).slice(0, MAX_LISTED_FILES), ctx, s.url, (f) => fileJson(s, pull, f));
    },
  },
  {
    method: 'GET',
    pattern: /^\/pulls\/(\d+)\/comments$/,
    handler: (s, ctx, m) => {
      const issue = s.issues.get(num(m[1]));
      const pull = issue?.pull;
      if (!issue || !pull) return notFound(`${API_DOCS}/pulls/comments#list-review-comments-on-a-pull-request`);
      const filtered = sinceFilter(
        [...(pull.reviewComments ?? [])].sort((a, b) => a.id - b.id),
        ctx.query.since,
      );
      if (isReply(filtered)) return filtered;
      return listReply(filtered, ctx, s.url, (c) => reviewCommentJson(s, issue, pull, c));
    },
  },
  {
    method: 'POST',
    pattern: /^\/pulls\/(\d+)\/comments\/(\d+)\/replies$/,
    handler: (s, ctx, m) => replyToReviewComment(s, ctx, num(m[1]), num(m[2])),
  },
  {
    method: 'PATCH',
    pattern: /^\/pulls\/comments\/(\d+)$/,
    handler: (s, ctx, m) => {
      const docs = `${API_DOCS}/pulls/comments#update-a-review-comment-for-a-pull-request`;
      const id = num(m[1]);
      for (const issue of s.issues.values()) {
        const comment = issue.pull?.reviewComments?.find((c) => c.id === id);
        if (!issue.pull || !comment) continue;
        const body = bodyText(ctx, 'PullRequestReviewComment', docs, true);
        if (typeof body !== 'string') return body;
        comment.body = body;
        comment.updated_at = isoNow();
        return { status: 200, json: reviewCommentJson(s, issue, issue.pull, comment) };
      }
      return notFound(docs);
    },
  },
];
