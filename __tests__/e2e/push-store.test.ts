import { jest } from '@jest/globals';
import { commentPayload } from '../../test-support/action-payloads.js';
import { makeWorld, OWNER, REPO, type World } from '../../test-support/action-world.js';
import type { RecordedRequest, Script, ScriptedReply } from '../../test-support/anthropic-server.js';
import { injectPushFaults, type PushFaults } from '../../test-support/git-remote.js';

jest.setTimeout(150_000);

const REF = 'refs/agent-action/threads/7';
const ALICE = { login: 'alice', id: 501 };
const tool = (name: string, input: unknown): ScriptedReply => ({ content: [{ type: 'tool_use', name, input }] });
const text = (t: string): ScriptedReply => ({ content: [{ type: 'text', text: t }] });
const sent = (r: RecordedRequest) => JSON.stringify(r.body.messages);

/** Pull request #7 on branch `fix`; the remote answers pushes to branches as `faults` says. */
async function prWorld(script: Script, faults: PushFaults): Promise<World> {
  const w = await makeWorld({
    main: { 'math.js': 'export const add = (a, b) => a + b;\n' },
    branches: { fix: { 'notes.md': 'notes\n' } },
    script,
    sim: { permissions: { alice: 'write' } },
  });
  const headSha = w.remoteGit(['rev-parse', 'fix']).trim();
  const pull = { headRef: 'fix', headSha, headRepoFullName: `${OWNER}/${REPO}`, baseRef: 'main', files: [], diff: '' };
  w.sim.issues.set(7, { number: 7, title: 'Notes', body: '', user: { login: 'bob' }, comments: [], pull });
  await injectPushFaults(w.bare, faults);
  return w;
}

/** `/agent run <name>` in a comment of its own on #7, with its own workflow run and checkout. */
function request(w: World, n: number, name: string) {
  const payload = commentPayload({ number: 7, body: `/agent run ${name}`, by: ALICE, onPull: true, commentId: 9000 + n });
  return w.run({ event: 'issue_comment', payload, inputs: { sandbox: 'off' }, runId: String(4241 + n), workspace: w.checkout() });
}

const onRemote = (w: World, sha: string) => {
  try {
    w.remoteGit(['merge-base', '--is-ancestor', sha, 'fix']);
    return true;
  } catch {
    return false;
  }
};

const comments = (w: World) =>
  w.sim.issues
    .get(7)!
    .comments.map((c) => c.body)
    .join('\n');

/** Each run writes `<name>.txt`, then answers only once every run has written: their deliveries overlap. */
function overlapping(names: string[]): Script {
  const wrote = new Set<string>();
  let all!: () => void;
  const allWrote = new Promise<void>((resolve) => (all = resolve));
  return (req) => {
    const name = names.find((n) => sent(req).includes(`run ${n}`))!;
    const done = req.body.messages.some((m) => JSON.stringify(m.content).includes('tool_result'));
    if (!done) {
      wrote.add(name);
      if (wrote.size === names.length) all();
      return tool('Write', { file_path: `${name}.txt`, content: `${name}\n` });
    }
    return { ...text(`${name} done.`), waitFor: allWrote };
  };
}

describe('pushes that race or fail (dist/)', () => {
  it('three runs racing on one pull request: every commit ends on the branch and every run’s turns in the store', async () => {
    const names = ['A', 'B', 'C'];
    // The three pushes also race on the server: each passes the client's check, two lose the ref update.
    const w = await prWorld(overlapping(names), { race: 3 });
    try {
      const runs = await Promise.all(names.map((name, i) => request(w, i + 1, name)));
      expect(runs.map((r) => r.outputs['conclusion'])).toEqual(['success', 'success', 'success']);
      const tree = w.remoteGit(['ls-tree', '--name-only', 'fix']).split('\n');
      expect(tree).toEqual(expect.arrayContaining(['A.txt', 'B.txt', 'C.txt', 'notes.md']));
      const subjects = w.remoteGit(['log', '--format=%s', 'fix']).trim().split('\n');
      expect([...subjects].sort()).toEqual(['agent: run A', 'agent: run B', 'agent: run C', 'initial', 'work on fix']);
      for (const r of runs) expect(onRemote(w, r.outputs['commit-sha']!)).toBe(true);
      const logs = runs.map((r) => r.stdout).join('\n');
      expect(logs).toContain('(failed to update ref)');
      // All three loaded an empty store: two writes lost the compare-and-swap and were merged.
      expect(logs.split('reading it again and retrying').length - 1).toBeGreaterThanOrEqual(2);

      const stored = JSON.parse(w.remoteGit(['cat-file', 'blob', `${REF}:conversation.json`])) as {
        runs: { url: string }[];
        messages: unknown[];
      };
      expect(stored.runs.map((r) => r.url).sort()).toEqual(
        ['4242', '4243', '4244'].map((id) => `https://github.com/${OWNER}/${REPO}/actions/runs/${id}`),
      );
      const turns = JSON.stringify(stored.messages);
      for (const name of names) {
        expect(turns.split(`run ${name}`).length - 1).toBe(1);
        expect(turns).toContain(`${name} done.`);
      }
    } finally {
      await w.close();
    }
  });

  it('pushes again after an Internal Server Error: the commit-sha is on the remote', async () => {
    const w = await prWorld([tool('Write', { file_path: 'A.txt', content: 'A\n' }), text('A done.')], { internalErrors: 1 });
    try {
      const r = await request(w, 1, 'A');
      expect(r.outputs['conclusion']).toBe('success');
      expect(r.stdout).toContain('(Internal Server Error)');
      const sha = r.outputs['commit-sha']!;
      expect(w.remoteGit(['rev-parse', 'fix']).trim()).toBe(sha);
      expect(comments(w)).toContain(sha.slice(0, 7));
    } finally {
      await w.close();
    }
  });

  it('a push that keeps failing: no commit-sha, the diff and git’s answer in the comment, nothing on the remote', async () => {
    const w = await prWorld([tool('Write', { file_path: 'A.txt', content: 'from run A\n' }), text('A done.')], { internalErrors: 100 });
    const before = w.remoteGit(['rev-parse', 'fix']).trim();
    try {
      const r = await request(w, 1, 'A');
      expect(r.outputs['commit-sha'] ?? '').toBe('');
      expect(r.outputs['branch'] ?? '').toBe('');
      expect(w.remoteGit(['rev-parse', 'fix']).trim()).toBe(before);
      const body = comments(w);
      expect(body).toContain(
        'The commit could not be pushed to `fix` (! [remote rejected] HEAD -> fix (Internal Server Error), after 4 attempts)',
      );
      expect(body).toContain('+from run A');
      expect(r.summary).toContain('+from run A');
    } finally {
      await w.close();
    }
  });
});
