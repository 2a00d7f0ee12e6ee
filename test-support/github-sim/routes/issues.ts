/** Issues and their comments (pull requests included: on GitHub every pull request is an issue too). */
import { commentJson, issueJson } from '../render.js';
import { API_DOCS, bodyText, isReply, listReply, notFound, num, sinceFilter, type Route } from '../reply.js';
import { isoNow } from '../state.js';
import type { SimComment } from '../types.js';

export const issueRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/issues\/(\d+)$/,
    handler: (s, _ctx, m) => {
      const issue = s.issues.get(num(m[1]));
      return issue ? { status: 200, json: issueJson(s, issue) } : notFound(`${API_DOCS}/issues/issues#get-an-issue`);
    },
  },
  {
    method: 'GET',
    pattern: /^\/issues\/(\d+)\/comments$/,
    handler: (s, ctx, m) => {
      const issue = s.issues.get(num(m[1]));
      if (!issue) return notFound(`${API_DOCS}/issues/comments#list-issue-comments`);
      const filtered = sinceFilter(
        [...issue.comments].sort((a, b) => a.id - b.id),
        ctx.query.since,
      );
      if (isReply(filtered)) return filtered;
      return listReply(filtered, ctx, s.url, (c) => commentJson(s, issue, c));
    },
  },
  {
    method: 'POST',
    pattern: /^\/issues\/(\d+)\/comments$/,
    handler: (s, ctx, m) => {
      const docs = `${API_DOCS}/issues/comments#create-an-issue-comment`;
      const issue = s.issues.get(num(m[1]));
      if (!issue) return notFound(docs);
      const body = bodyText(ctx, 'IssueComment', docs, true);
      if (typeof body !== 'string') return body;
      const now = isoNow();
      const comment: SimComment = { id: s.nextCommentId++, body, user: { ...ctx.user }, created_at: now, updated_at: now };
      issue.comments.push(comment);
      return {
        status: 201,
        headers: { location: `${s.apiRepo()}/issues/comments/${comment.id}` },
        json: commentJson(s, issue, comment),
      };
    },
  },
  {
    method: 'GET',
    pattern: /^\/issues\/comments\/(\d+)$/,
    handler: (s, _ctx, m) => {
      const found = s.findComment(num(m[1]));
      if (!found) return notFound(`${API_DOCS}/issues/comments#get-an-issue-comment`);
      return { status: 200, json: commentJson(s, found.issue, found.comment) };
    },
  },
  {
    method: 'PATCH',
    pattern: /^\/issues\/comments\/(\d+)$/,
    handler: (s, ctx, m) => {
      const docs = `${API_DOCS}/issues/comments#update-an-issue-comment`;
      const found = s.findComment(num(m[1]));
      if (!found) return notFound(docs);
      const body = bodyText(ctx, 'IssueComment', docs, true);
      if (typeof body !== 'string') return body;
      found.comment.body = body;
      found.comment.updated_at = isoNow();
      return { status: 200, json: commentJson(s, found.issue, found.comment) };
    },
  },
];
