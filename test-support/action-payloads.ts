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
