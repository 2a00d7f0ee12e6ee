/** The simulator's state rendered as GitHub's REST JSON objects, key order included. */
import type { JsonObject } from './reply.js';
import { fakeSha, SEED_TIME, stableInt, type SimState } from './state.js';
import type {
  SimCheckRun,
  SimComment,
  SimIssue,
  SimPull,
  SimPullFile,
  SimReaction,
  SimReview,
  SimReviewComment,
  SimUser,
} from './types.js';

export function userJson(s: SimState, u: SimUser): JsonObject {
  const type = u.type ?? (u.login.endsWith('[bot]') ? 'Bot' : 'User');
  // github-actions[bot] has a well-known id that some clients compare against.
  const id = u.login === 'github-actions[bot]' ? 41898282 : stableInt(`user:${u.login}`);
  return {
    login: u.login,
    id,
    node_id: Buffer.from(`04:User${id}`).toString('base64'),
    avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
    url: `${s.url}/users/${encodeURIComponent(u.login)}`,
    html_url: type === 'Bot' ? `${s.serverUrl}/apps/${u.login.replace(/\[bot\]$/, '')}` : `${s.serverUrl}/${u.login}`,
    type,
    site_admin: false,
  };
}

const ownerJson = (s: SimState, login: string): JsonObject => userJson(s, { login, type: 'User' });

export function repoJson(s: SimState, name = s.fullName): JsonObject {
  const [o = s.owner, r = s.repo] = name.split('/');
  const isFork = name.toLowerCase() !== s.fullName.toLowerCase();
  return {
    id: isFork ? stableInt(`repo:${name}`) : s.repoId,
    node_id: Buffer.from(`010:Repository${stableInt(`repo:${name}`)}`).toString('base64'),
    name: r,
    full_name: name,
    owner: ownerJson(s, o),
    private: s.opts.private ?? false,
    visibility: s.opts.private ? 'private' : 'public',
    fork: isFork,
    html_url: `${s.serverUrl}/${name}`,
    url: `${s.url}/repos/${name}`,
    clone_url: `${s.serverUrl}/${name}.git`,
    git_url: `${s.serverUrl.replace(/^https?:/, 'git:')}/${name}.git`,
    ssh_url: `git@${new URL(s.serverUrl).host}:${name}.git`,
    default_branch: s.defaultBranch,
    archived: false,
    disabled: false,
    created_at: SEED_TIME,
    updated_at: SEED_TIME,
    pushed_at: SEED_TIME,
  };
}

const issueHtml = (s: SimState, issue: SimIssue): string => `${s.repoHtml}/${issue.pull ? 'pull' : 'issues'}/${issue.number}`;

export function commentJson(s: SimState, issue: SimIssue, c: SimComment): JsonObject {
  return {
    id: c.id,
    node_id: Buffer.from(`012:IssueComment${c.id}`).toString('base64'),
    url: `${s.apiRepo()}/issues/comments/${c.id}`,
    html_url: `${issueHtml(s, issue)}#issuecomment-${c.id}`,
    issue_url: `${s.apiRepo()}/issues/${issue.number}`,
    body: c.body,
    user: userJson(s, c.user),
    created_at: c.created_at,
    updated_at: c.updated_at,
    author_association: s.association(c.user),
    ...(c.minimized !== undefined ? { minimized: c.minimized } : {}),
  };
}

function labelJson(s: SimState, name: string): JsonObject {
  return {
    id: stableInt(`label:${name}`),
    node_id: Buffer.from(`010:Label${name}`).toString('base64'),
    url: `${s.apiRepo()}/labels/${encodeURIComponent(name)}`,
    name,
    color: fakeSha(name).slice(0, 6),
    default: false,
    description: null,
  };
}

export function issueJson(s: SimState, issue: SimIssue): JsonObject {
  return {
    id: stableInt(`issue:${s.fullName}#${issue.number}`),
    node_id: Buffer.from(`05:Issue${issue.number}`).toString('base64'),
    url: `${s.apiRepo()}/issues/${issue.number}`,
    repository_url: s.apiRepo(),
    comments_url: `${s.apiRepo()}/issues/${issue.number}/comments`,
    html_url: issueHtml(s, issue),
    number: issue.number,
    title: issue.title,
    body: issue.body,
    user: userJson(s, issue.user),
    labels: (issue.labels ?? []).map((name) => labelJson(s, name)),
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
    author_association: s.association(issue.user),
    ...(issue.pull
      ? {
          draft: issue.pull.draft ?? false,
          pull_request: {
            url: `${s.apiRepo()}/pulls/${issue.number}`,
            html_url: `${s.repoHtml}/pull/${issue.number}`,
            diff_url: `${s.repoHtml}/pull/${issue.number}.diff`,
            patch_url: `${s.repoHtml}/pull/${issue.number}.patch`,
            merged_at: null,
          },
        }
      : {}),
  };
}

const baseShaOf = (s: SimState, pull: SimPull): string => pull.baseSha ?? fakeSha(`base:${s.fullName}:${pull.baseRef}`);

function pullRefsJson(s: SimState, pull: SimPull): JsonObject {
  const headOwner = pull.headRepoFullName.split('/')[0] ?? s.owner;
  return {
    head: {
      label: `${headOwner}:${pull.headRef}`,
      ref: pull.headRef,
      sha: pull.headSha,
      user: ownerJson(s, headOwner),
      repo: repoJson(s, pull.headRepoFullName),
    },
    base: {
      label: `${s.owner}:${pull.baseRef}`,
      ref: pull.baseRef,
      sha: baseShaOf(s, pull),
      user: ownerJson(s, s.owner),
      repo: repoJson(s),
    },
  };
}

export function pullJson(s: SimState, issue: SimIssue, pull: SimPull): JsonObject {
  const pullFiles = pull.files ?? [];
  return {
    url: `${s.apiRepo()}/pulls/${issue.number}`,
    id: stableInt(`pull:${s.fullName}#${issue.number}`),
    node_id: Buffer.from(`011:PullRequest${issue.number}`).toString('base64'),
    html_url: `${s.repoHtml}/pull/${issue.number}`,
    diff_url: `${s.repoHtml}/pull/${issue.number}.diff`,
    patch_url: `${s.repoHtml}/pull/${issue.number}.patch`,
    issue_url: `${s.apiRepo()}/issues/${issue.number}`,
    number: issue.number,
    state: issue.state ?? 'open',
    locked: false,
    title: issue.title,
    user: userJson(s, issue.user),
    body: issue.body,
    labels: (issue.labels ?? []).map((name) => labelJson(s, name)),
    created_at: SEED_TIME,
    updated_at: SEED_TIME,
    closed_at: issue.state === 'closed' ? SEED_TIME : null,
    merged_at: null,
    merge_commit_sha: null,
    draft: pull.draft ?? false,
    ...pullRefsJson(s, pull),
    author_association: s.association(issue.user),
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
}

export function fileJson(s: SimState, pull: SimPull, f: SimPullFile): JsonObject {
  const blob = fakeSha(`file:${pull.headSha}:${f.filename}`);
  const encoded = f.filename.split('/').map(encodeURIComponent).join('/');
  return {
    sha: blob,
    filename: f.filename,
    status: f.status,
    additions: f.additions,
    deletions: f.deletions,
    changes: f.additions + f.deletions,
    blob_url: `${s.repoHtml}/blob/${pull.headSha}/${encoded}`,
    raw_url: `${s.repoHtml}/raw/${pull.headSha}/${encoded}`,
    contents_url: `${s.apiRepo()}/contents/${encoded}?ref=${pull.headSha}`,
    ...(f.patch !== undefined ? { patch: f.patch } : {}),
  };
}

export function reviewCommentJson(s: SimState, issue: SimIssue, pull: SimPull, c: SimReviewComment): JsonObject {
  const commit = c.commit_id ?? pull.headSha;
  return {
    url: `${s.apiRepo()}/pulls/comments/${c.id}`,
    pull_request_review_id: c.pull_request_review_id ?? stableInt(`review:${c.id}`),
    id: c.id,
    node_id: Buffer.from(`024:PullRequestReviewComment${c.id}`).toString('base64'),
    diff_hunk: c.diff_hunk,
    path: c.path,
    commit_id: commit,
    original_commit_id: commit,
    user: userJson(s, c.user),
    body: c.body,
    created_at: c.created_at,
    updated_at: c.updated_at,
    html_url: `${s.repoHtml}/pull/${issue.number}#discussion_r${c.id}`,
    pull_request_url: `${s.apiRepo()}/pulls/${issue.number}`,
    author_association: s.association(c.user),
    start_line: c.start_line ?? null,
    original_start_line: c.start_line ?? null,
    start_side: c.start_side ?? null,
    line: c.line,
    original_line: c.original_line ?? c.line,
    side: c.side ?? 'RIGHT',
    subject_type: 'line',
    ...(c.in_reply_to_id !== undefined ? { in_reply_to_id: c.in_reply_to_id } : {}),
  };
}

export function reviewJson(s: SimState, issue: SimIssue, r: SimReview): JsonObject {
  const html = `${s.repoHtml}/pull/${issue.number}#pullrequestreview-${r.id}`;
  const pullUrl = `${s.apiRepo()}/pulls/${issue.number}`;
  return {
    id: r.id,
    node_id: Buffer.from(`017:PullRequestReview${r.id}`).toString('base64'),
    user: userJson(s, r.user),
    body: r.body,
    state: r.state,
    html_url: html,
    pull_request_url: pullUrl,
    author_association: s.association(r.user),
    _links: { html: { href: html }, pull_request: { href: pullUrl } },
    // A pending review has not been submitted, and GitHub leaves the field out rather than sending null.
    ...(r.submitted_at !== undefined ? { submitted_at: r.submitted_at } : {}),
    commit_id: r.commit_id,
  };
}

export function checkRunJson(s: SimState, run: SimCheckRun): JsonObject {
  const annotationsUrl = `${s.apiRepo()}/check-runs/${run.id}/annotations`;
  return {
    id: run.id,
    node_id: Buffer.from(`08:CheckRun${run.id}`).toString('base64'),
    head_sha: run.head_sha,
    external_id: '',
    url: `${s.apiRepo()}/check-runs/${run.id}`,
    html_url: `${s.repoHtml}/runs/${run.id}`,
    details_url: `${s.repoHtml}/runs/${run.id}`,
    status: run.status,
    conclusion: run.conclusion,
    started_at: SEED_TIME,
    completed_at: run.status === 'completed' ? SEED_TIME : null,
    output: { title: null, summary: null, text: null, annotations_count: 0, annotations_url: annotationsUrl },
    name: run.name,
    check_suite: { id: stableInt(`suite:${run.head_sha}`) },
    app: { id: 15368, slug: 'github-actions', name: 'GitHub Actions' },
    pull_requests: [],
  };
}

export function reactionJson(s: SimState, r: SimReaction): JsonObject {
  const meta = s.reactionMeta.get(r) ?? { id: 0, created_at: SEED_TIME };
  return {
    id: meta.id,
    node_id: Buffer.from(`08:Reaction${meta.id}`).toString('base64'),
    user: userJson(s, { login: r.user }),
    content: r.content,
    created_at: meta.created_at,
  };
}
