/** Reactions on issues, issue comments and review comments, each created as the token's user. */
import { reactionJson } from '../render.js';
import { API_DOCS, field, notFound, num, validationFailed, type Ctx, type Reply, type Route } from '../reply.js';
import { isoNow, type SimState } from '../state.js';
import type { SimReaction } from '../types.js';

const REACTIONS = new Set(['+1', '-1', 'laugh', 'confused', 'heart', 'hooray', 'rocket', 'eyes']);

function react(s: SimState, target: string, ctx: Ctx, docs: string): Reply {
  const content = field(ctx.body, 'content');
  if (typeof content !== 'string' || !REACTIONS.has(content)) {
    return validationFailed('Reaction', 'content', 'invalid', undefined, docs);
  }
  const existing = s.reactions.find((r) => r.target === target && r.content === content && r.user === ctx.user.login);
  // GitHub answers 200 with the existing reaction instead of creating a duplicate.
  if (existing) return { status: 200, json: reactionJson(s, existing) };
  const created: SimReaction = { target, content, user: ctx.user.login };
  s.reactions.push(created);
  s.reactionMeta.set(created, { id: s.nextReactionId++, created_at: isoNow() });
  return { status: 201, json: reactionJson(s, created) };
}

export const reactionRoutes: Route[] = [
  {
    method: 'POST',
    pattern: /^\/issues\/(\d+)\/reactions$/,
    handler: (s, ctx, m) => {
      const docs = `${API_DOCS}/reactions/reactions#create-reaction-for-an-issue`;
      const n = num(m[1]);
      return s.issues.has(n) ? react(s, `issue:${n}`, ctx, docs) : notFound(docs);
    },
  },
  {
    method: 'POST',
    pattern: /^\/issues\/comments\/(\d+)\/reactions$/,
    handler: (s, ctx, m) => {
      const docs = `${API_DOCS}/reactions/reactions#create-reaction-for-an-issue-comment`;
      const id = num(m[1]);
      return s.findComment(id) ? react(s, `comment:${id}`, ctx, docs) : notFound(docs);
    },
  },
  {
    method: 'POST',
    pattern: /^\/pulls\/comments\/(\d+)\/reactions$/,
    handler: (s, ctx, m) => {
      const docs = `${API_DOCS}/reactions/reactions#create-reaction-for-a-pull-request-review-comment`;
      const id = num(m[1]);
      return s.findReviewComment(id) ? react(s, `review-comment:${id}`, ctx, docs) : notFound(docs);
    },
  },
];
