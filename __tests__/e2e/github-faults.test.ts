import { jest } from '@jest/globals';
import { commentPayload } from '../../test-support/action-payloads.js';
import { makeWorld, OWNER, REPO, type World } from '../../test-support/action-world.js';
import type { RecordedRequest, ScriptedReply } from '../../test-support/anthropic-server.js';
import type { GitHubSimOptions, SimIssue } from '../../test-support/github-sim.js';
import { runGit } from '../../test-support/git-remote.js';

jest.setTimeout(120_000);

const MAIN = {
  'package.json': '{ "name": "calc", "type": "module" }\n',
  'math.js': 'export function add(a, b) {\n  return a - b;\n}\n',
};
const alice = { login: 'alice', id: 501 };
const tool = (name: string, input: unknown): ScriptedReply => ({ content: [{ type: 'tool_use', name, input }] });
const text = (t: string): ScriptedReply => ({ content: [{ type: 'text', text: t }] });
const FIX: ScriptedReply[] = [
  tool('Bash', { command: 'cat math.js' }),
  tool('Edit', { file_path: 'math.js', old_string: 'return a - b;', new_string: 'return a + b;' }),
  text('Fixed `add()`: it subtracted.'),
];

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

function pull(number: number, branch: string, headSha: string): SimIssue {
  const files = [{ filename: 'notes.md', status: 'added' as const, additions: 1, deletions: 0 }];
  const at = { headRef: branch, headSha, headRepoFullName: `${OWNER}/${REPO}`, baseRef: 'main', files, diff: '' };
  return { number, title: `Work on ${branch}`, body: '', user: { login: 'bob' }, comments: [], pull: at };
}

/** A world with one pull request per number, each on its own branch. */
async function pullsWorld(numbers: number[], script: WorldScript, sim: Partial<GitHubSimOptions> = {}): Promise<World> {
  const branches = Object.fromEntries(numbers.map((n) => [`pr-${n}`, { 'notes.md': `wip ${n}\n` }]));
  const w = await makeWorld({ main: MAIN, branches, script, sim: { permissions: { alice: 'write' }, ...sim } });
  for (const n of numbers) w.sim.issues.set(n, pull(n, `pr-${n}`, w.remoteGit(['rev-parse', `pr-${n}`]).trim()));
  return w;
}
type WorldScript = Parameters<typeof makeWorld>[0]['script'];

/** The trigger comment exists on GitHub as well as in the event. */
function asked(w: World, number: number, body: string, commentId: number) {
  const payload = commentPayload({ number, body, by: alice, onPull: true, commentId });
  const c = payload.comment;
  w.sim.issues.get(number)!.comments.push({ id: c.id, body, user: { login: 'alice' }, created_at: c.created_at, updated_at: c.updated_at });
  return payload;
}

function tracking(w: World, number: number) {
  return (w.sim.issues.get(number)?.comments ?? []).filter((c) => c.body.includes('<!-- agent-action'));
}

/** Each run's model conversation: a Bash call, then an answer naming the pull request it was asked about. */
function perPullScript(req: RecordedRequest): ScriptedReply {
  const messages = JSON.stringify(req.body.messages);
  const n = /about PR-(\d+)/.exec(messages)?.[1] ?? '?';
  return messages.includes('tool_result') ? text(`Answer for PR-${n}: all good.`) : tool('Bash', { command: `echo looking at ${n}` });
}

const isWrite = (method: string) => method !== 'GET' && method !== 'HEAD';

describe('the action (dist/index.js) when GitHub is under load or failing', () => {
  it('8 runs at once under a secondary write limit of 2 a second: every tracking comment ends with its own answer', async () => {
    const numbers = [11, 12, 13, 14, 15, 16, 17, 18];
    world = await pullsWorld(numbers, perPullScript, { secondaryWriteLimit: { perSecond: 2, retryAfterS: 1 } });
    const w = world;
    const t0 = performance.now();
    const runs = await Promise.all(
      numbers.map((n, i) =>
        w.run({
          event: 'issue_comment',
          payload: asked(w, n, `/agent tell me about PR-${n}`, 910_000 + n),
          runId: String(7000 + i),
          workspace: w.checkout(),
        }),
      ),
    );
    const totalMs = performance.now() - t0;
    for (const [i, n] of numbers.entries()) {
      const r = runs[i]!;
      const comments = tracking(w, n);
      expect(comments).toHaveLength(1);
      expect(comments[0]!.body).toContain(`Answer for PR-${n}: all good.`);
      expect(comments[0]!.body).not.toMatch(/Working/);
      expect({ n, code: r.code, conclusion: r.outputs['conclusion'], undelivered: r.outputs['undelivered'] }).toEqual({
        n,
        code: 0,
        conclusion: 'success',
        undelivered: '',
      });
      expect(r.outputs['comment-url']).toMatch(new RegExp(`#issuecomment-${comments[0]!.id}$`));
    }
    const writes = w.sim.requests.filter((q) => isWrite(q.method)).length;
    expect(w.sim.limits.secondary).toBeGreaterThan(0);
    expect(w.sim.schemaErrors).toEqual([]);
    console.log(
      `burst: ${numbers.length} runs, ${w.sim.requests.length} requests, ${writes} writes, ` +
        `${w.sim.limits.secondary} answered with a secondary rate limit, ${Math.round(totalMs)} ms in all`,
    );
  });

  it('a token that expires mid-run: the step fails naming the token, the commit is in the workspace, the summary holds the diff', async () => {
    world = await pullsWorld([7], FIX);
    const w = world;
    const workspace = w.checkout();
    // The token expires once the loop is under way: the tracking comment exists, the final text cannot go out.
    const expire = setInterval(() => {
      if (w.model.requests.length >= 2) w.sim.expireToken();
    }, 10);
    const r = await w.run({ event: 'issue_comment', payload: asked(w, 7, '/agent fix add()', 920_001), workspace });
    clearInterval(expire);
    expect(r.code).not.toBe(0);
    expect(r.outputs['conclusion']).toBe('undelivered');
    expect(r.outputs['undelivered']).toMatch(/github-token.*401 Bad credentials/);
    expect(w.sim.limits.badCredentials).toBeGreaterThan(0);
    // The work is committed in the workspace, and the summary carries the same diff and the final text.
    const committed = runGit(workspace, ['show', 'HEAD:math.js'], { PATH: process.env['PATH'] ?? '', HOME: w.home });
    expect(committed).toMatch(/return a \+ b;/);
    expect(r.summary).toContain('+  return a + b;');
    expect(r.summary).toContain('Fixed `add()`: it subtracted.');
    expect(r.summary).toMatch(/Not delivered: .*github-token/);
    // GitHub never got the final text.
    expect(
      tracking(w, 7)
        .map((c) => c.body)
        .join('\n'),
    ).not.toContain('Fixed `add()`');
  });

  it('a pull request GitHub refuses: the branch is pushed, the step fails, pr-url stays empty', async () => {
    world = await makeWorld({ main: MAIN, script: FIX, sim: { permissions: { alice: 'admin' } } });
    const w = world;
    w.sim.issues.set(3, { number: 3, title: 'add() is broken', body: '', user: { login: 'bob' }, comments: [] });
    w.sim.fail({ method: 'POST', path: /\/pulls$/, status: 403, message: 'Resource not accessible by integration', times: 5 });
    const r = await w.run({
      event: 'issue_comment',
      payload: commentPayload({ number: 3, body: '/agent fix it please', by: alice, onPull: false }),
      workspace: w.checkout(),
    });
    expect(w.sim.pullsCreated).toHaveLength(0);
    expect(w.remoteGit(['show', 'agent/issue-3-add-is-broken:math.js'])).toMatch(/a \+ b/);
    expect(r.code).not.toBe(0);
    expect(r.outputs['conclusion']).toBe('undelivered');
    expect(r.outputs['pr-url']).toBe('');
    expect(r.outputs['branch']).toBe('agent/issue-3-add-is-broken');
    expect(r.outputs['undelivered']).toMatch(/the pull request for `agent\/issue-3-add-is-broken`: Resource not accessible/);
    // The tracking comment tells the reader, too.
    expect(tracking(w, 3)[0]!.body).toMatch(/undelivered/);
  });

  it('a comment update that never answers: the run ends by its deadline with its outputs and summary written', async () => {
    world = await pullsWorld([7], [tool('Bash', { command: 'echo hi' }), text('The answer is 42.')]);
    const w = world;
    w.sim.hang({ method: 'PATCH', path: /\/issues\/comments\/\d+$/ });
    // 6 s for the loop, then the 20 s the report has to reach GitHub.
    const r = await w.run({
      event: 'issue_comment',
      payload: asked(w, 7, '/agent what is the answer?', 920_002),
      workspace: w.checkout(),
      inputs: { 'timeout-minutes': '0.1' },
    });
    expect(r.ms).toBeLessThan(6_000 + 20_000 + 5_000);
    console.log(`hung comment update: the run ended after ${Math.round(r.ms)} ms (deadline 26 s)`);
    expect(w.sim.limits.hung).toBeGreaterThan(0);
    expect(r.code).not.toBe(0);
    expect(r.outputs['conclusion']).toBe('undelivered');
    expect(r.outputs['result']).toBe('The answer is 42.');
    expect(r.outputs['undelivered']).toMatch(/final comment/);
    expect(r.summary).toContain('The answer is 42.');
  });

  it('SIGTERM while a comment update hangs: the process ends within seconds, outputs say cancelled', async () => {
    world = await pullsWorld([7], [tool('Bash', { command: 'sleep 30' }), text('never reached')]);
    const w = world;
    w.sim.hang({ method: 'PATCH', path: /\/issues\/comments\/\d+$/ });
    const r = await w.run({
      event: 'issue_comment',
      payload: asked(w, 7, '/agent wait a while', 920_003),
      workspace: w.checkout(),
      signalWhen: () => w.sim.requests.some((q) => q.method === 'PATCH' && q.status === 0),
    });
    expect(r.exitAfterSignalMs).toBeDefined();
    expect(r.exitAfterSignalMs!).toBeLessThan(8_000);
    console.log(`SIGTERM during a hung comment update: exited ${Math.round(r.exitAfterSignalMs!)} ms after the signal`);
    expect(r.outputs['conclusion']).toBe('cancelled');
    expect(r.summary).toMatch(/cancelled/);
  });
});
