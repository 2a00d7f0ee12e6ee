import * as z from '../core/schema.js';
import type { Actor, CommentRef, IssueRef, PullRef, RepoRef, ReviewCommentRef, ReviewRef } from './event-types.js';
import { isFork } from './repo.js';

/**
 * Zod schemas that read the parts of a webhook payload into event-types.ts. They are loose
 * (unknown fields pass) and transform as they check, so one parse both validates and converts.
 */

// GitHub sends null for an empty body or a missing line; the action treats both as "nothing".
const text = z.pipe(
  z.nullish(z.string()),
  z.transform((v) => v ?? ''),
);
const nullableNumber = z.pipe(
  z.nullish(z.number()),
  z.transform((v) => v ?? null),
);

export const ActorSchema = z.pipe(
  z.looseObject({ login: z.string(), type: z.nullish(z.string()), id: z.nullish(z.number()) }),
  z.transform((a): Actor => ({
    login: a.login,
    // Without a type, the `[bot]` suffix GitHub gives every app account is the tell.
    type: a.type ?? (a.login.endsWith('[bot]') ? 'Bot' : 'User'),
    ...(typeof a.id === 'number' ? { id: a.id } : {}),
  })),
);

export const RepoSchema = z.pipe(
  z.looseObject({
    name: z.string(),
    full_name: z.string(),
    // Push payloads of old give the owner a `name` as well as (or instead of) a `login`.
    owner: z.nullish(z.looseObject({ login: z.nullish(z.string()), name: z.nullish(z.string()) })),
    default_branch: z.nullish(z.string()),
    master_branch: z.nullish(z.string()),
    private: z.nullish(z.boolean()),
  }),
  z.transform((r): RepoRef => ({
    owner: r.owner?.login ?? r.owner?.name ?? r.full_name.split('/')[0] ?? '',
    name: r.name,
    fullName: r.full_name,
    defaultBranch: r.default_branch ?? r.master_branch ?? '',
    private: r.private ?? false,
  })),
);

const IssueSchema = z.pipe(
  z.looseObject({
    number: z.number(),
    title: text,
    body: text,
    user: ActorSchema,
    labels: z.nullish(z.array(z.looseObject({ name: z.string() }))),
    pull_request: z.nullish(z.looseObject({})),
    html_url: text,
    updated_at: text,
  }),
  z.transform((i): IssueRef => ({
    number: i.number,
    title: i.title,
    body: i.body,
    user: i.user,
    labels: (i.labels ?? []).map((l) => l.name),
    isPullRequest: i.pull_request != null,
    htmlUrl: i.html_url,
    updatedAt: i.updated_at,
  })),
);

const BranchSchema = z.looseObject({
  ref: z.string(),
  sha: z.string(),
  repo: z.nullish(z.looseObject({ full_name: z.string() })),
});

const PullSchema = z.pipe(
  z.looseObject({
    number: z.number(),
    title: text,
    body: text,
    user: ActorSchema,
    head: BranchSchema,
    base: BranchSchema,
    draft: z.nullish(z.boolean()),
    html_url: text,
    updated_at: text,
  }),
  z.transform((p): PullRef => {
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
      isFork: isFork(headRepo, baseRepo),
      draft: p.draft ?? false,
      htmlUrl: p.html_url,
      updatedAt: p.updated_at,
    };
  }),
);

const commentFields = {
  id: z.number(),
  body: text,
  user: ActorSchema,
  created_at: text,
  updated_at: text,
  html_url: text,
};

function toCommentRef(c: z.infer<z.ZodMiniObject<typeof commentFields>>): CommentRef {
  return {
    id: c.id,
    body: c.body,
    user: c.user,
    createdAt: c.created_at,
    updatedAt: c.updated_at,
    htmlUrl: c.html_url,
  };
}

const CommentSchema = z.pipe(z.looseObject(commentFields), z.transform(toCommentRef));

const ReviewCommentSchema = z.pipe(
  z.looseObject({
    ...commentFields,
    path: z.string(),
    line: nullableNumber,
    start_line: nullableNumber,
    diff_hunk: text,
    in_reply_to_id: nullableNumber,
  }),
  z.transform((c): ReviewCommentRef => ({
    ...toCommentRef(c),
    path: c.path,
    line: c.line,
    startLine: c.start_line,
    diffHunk: c.diff_hunk,
    inReplyToId: c.in_reply_to_id,
  })),
);

const ReviewSchema = z.pipe(
  z.looseObject({ id: z.number(), body: text, user: ActorSchema, state: z.string(), submitted_at: text, html_url: text }),
  z.transform((r): ReviewRef => ({
    id: r.id,
    body: r.body,
    user: r.user,
    state: r.state,
    submittedAt: r.submitted_at,
    htmlUrl: r.html_url,
  })),
);

const base = { action: z.string(), repository: RepoSchema, sender: ActorSchema };

export const IssueCommentPayload = z.looseObject({ ...base, issue: IssueSchema, comment: CommentSchema });
export const IssuesPayload = z.looseObject({
  ...base,
  issue: IssueSchema,
  label: z.nullish(z.looseObject({ name: z.string() })),
  assignee: z.nullish(z.looseObject({ login: z.string() })),
});
export const ReviewCommentPayload = z.looseObject({ ...base, pull_request: PullSchema, comment: ReviewCommentSchema });
export const ReviewPayload = z.looseObject({ ...base, pull_request: PullSchema, review: ReviewSchema });
export const PullRequestPayload = z.looseObject({ ...base, pull_request: PullSchema });
