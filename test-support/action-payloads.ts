import { OWNER, REPO } from './action-world.js';
import { issueCommentOnPull, loadExample } from './webhooks.js';

/** Points a real example payload at the simulated repository. */
function retarget<T extends { repository?: unknown }>(payload: T): T {
  const repo = payload.repository as {
    name: string;
    full_name: string;
    owner: { login: string };
    default_branch: string;
    private: boolean;
    html_url: string;
  };
  repo.name = REPO;
  repo.full_name = `${OWNER}/${REPO}`;
  repo.owner.login = OWNER;
  repo.default_branch = 'main';
  repo.private = false;
  repo.html_url = `https://github.com/${OWNER}/${REPO}`;
  return payload;
}

export interface Person {
  login: string;
  type?: 'User' | 'Bot';
  id?: number;
}

function user<T extends { login: string; type: string; id: number }>(target: T, who: Person): void {
  target.login = who.login;
  target.type = who.type ?? 'User';
  target.id = who.id ?? 1000 + who.login.length;
}

const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

export function commentPayload(o: { number: number; body: string; by: Person; onPull: boolean; commentId?: number }) {
  const p = retarget(o.onPull ? issueCommentOnPull() : loadExample('issue_comment', (x) => x.action === 'created'));
  p.action = 'created';
  p.issue.number = o.number;
  p.issue.html_url = `https://github.com/${OWNER}/${REPO}/${o.onPull ? 'pull' : 'issues'}/${o.number}`;
  p.comment.id = o.commentId ?? 900_001;
  p.comment.body = o.body;
  p.comment.created_at = now();
  p.comment.updated_at = now();
  p.comment.html_url = `${p.issue.html_url}#issuecomment-${p.comment.id}`;
  user(p.comment.user, o.by);
  user(p.sender, o.by);
  return p;
}

export function labeledPayload(o: { number: number; label: string; by: Person; title: string; body: string }) {
  const p = retarget(loadExample('issues', (x) => x.action === 'labeled'));
  p.issue.number = o.number;
  p.issue.title = o.title;
  p.issue.body = o.body;
  p.issue.html_url = `https://github.com/${OWNER}/${REPO}/issues/${o.number}`;
  if ('label' in p && p.label) p.label.name = o.label;
  user(p.sender, o.by);
  return p;
}

export function reviewCommentPayload(o: {
  number: number;
  body: string;
  by: Person;
  path: string;
  line: number;
  diffHunk: string;
  headRef: string;
  headSha: string;
  commentId: number;
}) {
  const p = retarget(loadExample('pull_request_review_comment', (x) => x.action === 'created'));
  p.pull_request.number = o.number;
  p.pull_request.head.ref = o.headRef;
  p.pull_request.head.sha = o.headSha;
  if (p.pull_request.head.repo) p.pull_request.head.repo.full_name = `${OWNER}/${REPO}`;
  p.pull_request.base.ref = 'main';
  p.pull_request.base.repo.full_name = `${OWNER}/${REPO}`;
  p.comment.id = o.commentId;
  p.comment.body = o.body;
  p.comment.path = o.path;
  p.comment.line = o.line;
  p.comment.diff_hunk = o.diffHunk;
  p.comment.created_at = now();
  p.comment.updated_at = now();
  user(p.comment.user, o.by);
  user(p.sender, o.by);
  return p;
}

/** Scheduled runs carry almost nothing. */
export function schedulePayload() {
  return { schedule: '0 3 * * *' };
}

/** A pull_request payload (also what pull_request_target carries) for a pull request of the simulated repository. */
export function pullRequestPayload(o: {
  action: 'opened' | 'synchronize' | 'reopened' | 'ready_for_review';
  number: number;
  by: Person;
  headRef: string;
  headSha: string;
  /** `owner/repo` of the head; another owner makes it a fork. */
  headRepo?: string;
  draft?: boolean;
  title?: string;
  body?: string;
}) {
  const p = retarget(loadExample('pull_request', (x) => x.action === o.action));
  const pull = p.pull_request;
  pull.number = o.number;
  pull.title = o.title ?? 'Change the math';
  pull.body = o.body ?? 'Please review.';
  pull.draft = o.draft ?? false;
  pull.head.ref = o.headRef;
  pull.head.sha = o.headSha;
  if (pull.head.repo) pull.head.repo.full_name = o.headRepo ?? `${OWNER}/${REPO}`;
  pull.base.ref = 'main';
  pull.base.repo.full_name = `${OWNER}/${REPO}`;
  pull.html_url = `https://github.com/${OWNER}/${REPO}/pull/${o.number}`;
  pull.updated_at = now();
  user(pull.user, o.by);
  user(p.sender, o.by);
  return p;
}
