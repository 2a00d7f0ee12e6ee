/**
 * REST economy: every GitHub call of a PR-comment fix (the model edits a file and answers; the
 * commit is pushed to the pull request's branch) and of an issue-comment fix (a new branch and a
 * pull request), against the GitHub simulator, listed in order. A path read twice is marked: it
 * repeats information unless the second read asks whether it changed.
 */
import { commentPayload } from '../test-support/action-payloads.js';
import { makeWorld, OWNER, REPO, type World } from '../test-support/action-world.js';
import type { ScriptedReply } from '../test-support/anthropic-server.js';
import type { SimRequest } from '../test-support/github-sim.js';

const MAIN = { 'math.js': 'export function add(a, b) {\n  return a - b;\n}\n', 'AGENTS.md': 'Run the tests.\n' };
const SCRIPT: ScriptedReply[] = [
  { content: [{ type: 'tool_use', name: 'Edit', input: { file_path: 'math.js', old_string: 'a - b', new_string: 'a + b' } }] },
  // An answer takes a while, as a real model's does: progress has time to be reported.
  { content: [{ type: 'text', text: 'Fixed add().' }], delayMs: 400 },
];
const alice = { login: 'alice', id: 501 };

function comment(w: World, number: number, onPull: boolean) {
  const payload = commentPayload({ number, body: '/agent fix add()', by: alice, onPull });
  const c = payload.comment;
  w.sim.issues
    .get(number)!
    .comments.push({ id: c.id, body: c.body, user: { login: 'alice' }, created_at: c.created_at, updated_at: c.updated_at });
  return payload;
}

async function pullFix(): Promise<{ calls: SimRequest[]; outputs: Record<string, string> }> {
  const w = await makeWorld({
    main: MAIN,
    branches: { 'fix-math': { 'notes.md': 'wip\n' } },
    script: SCRIPT,
    sim: { permissions: { alice: 'write' }, files: { main: { 'AGENTS.md': MAIN['AGENTS.md'] } } },
  });
  try {
    const headSha = w.remoteGit(['rev-parse', 'fix-math']).trim();
    w.sim.issues.set(7, {
      number: 7,
      title: 'Work on math',
      body: 'wip',
      user: { login: 'bob' },
      comments: [],
      pull: {
        headRef: 'fix-math',
        headSha,
        headRepoFullName: `${OWNER}/${REPO}`,
        baseRef: 'main',
        files: [{ filename: 'notes.md', status: 'added', additions: 1, deletions: 0, patch: '@@ -0,0 +1 @@\n+wip' }],
      },
    });
    const run = await w.runInProcess({ event: 'issue_comment', payload: comment(w, 7, true) });
    return { calls: [...w.sim.requests], outputs: run.outputs };
  } finally {
    await w.close();
  }
}

async function issueFix(): Promise<{ calls: SimRequest[]; outputs: Record<string, string> }> {
  const w = await makeWorld({ main: MAIN, script: SCRIPT, sim: { permissions: { alice: 'write' } } });
  try {
    w.sim.issues.set(3, { number: 3, title: 'add() is broken', body: 'It subtracts.', user: { login: 'bob' }, comments: [] });
    const run = await w.runInProcess({ event: 'issue_comment', payload: comment(w, 3, false) });
    return { calls: [...w.sim.requests], outputs: run.outputs };
  } finally {
    await w.close();
  }
}

function list(name: string, goal: number, r: { calls: SimRequest[]; outputs: Record<string, string> }): void {
  const seen = new Set<string>();
  console.log(`${name}: ${r.calls.length} REST calls (goal ${goal}, at most ${goal + 1}); conclusion ${r.outputs['conclusion'] ?? '?'}`);
  for (const [i, q] of r.calls.entries()) {
    const query = Object.entries(q.query)
      .map(([k, v]) => `${k}=${v}`)
      .join('&');
    const key = `${q.method} ${q.path}`;
    const again = q.method === 'GET' && seen.has(key) ? '  (read again)' : '';
    seen.add(key);
    console.log(`  ${String(i + 1).padStart(2)}. ${q.method.padEnd(6)} ${q.path}${query ? `?${query}` : ''} -> ${q.status}${again}`);
  }
}

list('PR-comment fix', 12, await pullFix());
list('issue-comment fix', 10, await issueFix());
