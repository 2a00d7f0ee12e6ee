import { jest } from '@jest/globals';
import { commentPayload, schedulePayload } from '../../test-support/action-payloads.js';
import { makeWorld, type World } from '../../test-support/action-world.js';
import type { ScriptedReply } from '../../test-support/anthropic-server.js';

jest.setTimeout(90_000);

const MAIN = { 'math.js': 'export function add(a, b) {\n  return a - b;\n}\n' };
const tool = (name: string, input: unknown): ScriptedReply => ({ content: [{ type: 'tool_use', name, input }] });
const text = (t: string): ScriptedReply => ({ content: [{ type: 'text', text: t }] });
const alice = { login: 'alice', id: 501 };

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('base-branch (dist/)', () => {
  it('starts the work from the base branch, and the pull request targets it', async () => {
    const script = [tool('Edit', { file_path: 'release.txt', old_string: 'v2', new_string: 'v2.1' }), text('Bumped.')];
    world = await makeWorld({ main: MAIN, branches: { 'release/2.x': { 'release.txt': 'v2\n' } }, script });
    const r = await world.run({
      event: 'schedule',
      payload: schedulePayload(),
      inputs: { prompt: 'Bump the release.', 'base-branch': 'release/2.x' },
      runId: '55',
    });
    expect(r.outputs['conclusion']).toBe('success');
    expect(world.sim.pullsCreated[0]).toMatchObject({ head: 'agent/run-55', base: 'release/2.x' });
    // The new branch grows on the base branch's head.
    const base = world.remoteGit(['rev-parse', 'release/2.x']).trim();
    expect(world.remoteGit(['rev-parse', 'agent/run-55~1']).trim()).toBe(base);
    expect(world.remoteGit(['show', 'agent/run-55:release.txt'])).toBe('v2.1\n');
  });

  it('fails naming the input when the base branch does not exist, with nothing pushed', async () => {
    world = await makeWorld({ main: MAIN, script: [text('unused'), text('unused')] });
    const r = await world.run({ event: 'schedule', payload: schedulePayload(), inputs: { prompt: 'Do it.', 'base-branch': 'nope' } });
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch(/::error::input base-branch: cannot check out nope from origin/);
    expect(world.remoteGit(['branch', '--list']).trim()).toBe('* main');
    expect(world.sim.pullsCreated).toEqual([]);
  });
});

describe('sticky-comment (dist/)', () => {
  it('edits one tracking comment across runs, the newest of the action own, never another author one', async () => {
    world = await makeWorld({
      main: MAIN,
      script: [text('First answer.'), text('Second answer.')],
      sim: { permissions: { alice: 'write' } },
    });
    const forged = {
      id: 90,
      body: 'copied <!-- agent-action -->',
      user: { login: 'mallory' },
      created_at: '2024-01-02T00:00:00Z',
      updated_at: '2024-01-02T00:00:00Z',
    };
    world.sim.issues.set(3, { number: 3, title: 'A question', body: 'x', user: { login: 'bob' }, comments: [] });
    const ask = (id: number, runId: string) =>
      world!.run({
        event: 'issue_comment',
        payload: commentPayload({ number: 3, body: '/agent answer', by: alice, onPull: false, commentId: id }),
        inputs: { 'sticky-comment': 'true' },
        runId,
      });
    const first = await ask(100, '1');
    expect(first.outputs['conclusion']).toBe('success');
    world.sim.issues.get(3)!.comments.push(forged);
    const second = await ask(200, '2');
    expect(second.outputs['conclusion']).toBe('success');
    const own = world.sim.issues.get(3)!.comments.filter((c) => c.user.login === 'github-actions[bot]');
    expect(own).toHaveLength(1);
    expect(own[0]!.body).toContain('Second answer.');
    expect(second.outputs['comment-url']).toBe(first.outputs['comment-url']);
    expect(world.sim.issues.get(3)!.comments.find((c) => c.id === 90)!.body).toBe(forged.body);
  });

  it('without it each run has its own comment', async () => {
    world = await makeWorld({ main: MAIN, script: [text('First.'), text('Second.')], sim: { permissions: { alice: 'write' } } });
    world.sim.issues.set(3, { number: 3, title: 'A question', body: 'x', user: { login: 'bob' }, comments: [] });
    for (const [id, run] of [
      [100, '1'],
      [200, '2'],
    ] as const) {
      await world.run({
        event: 'issue_comment',
        payload: commentPayload({ number: 3, body: '/agent answer', by: alice, onPull: false, commentId: id }),
        runId: run,
      });
    }
    expect(world.sim.issues.get(3)!.comments.filter((c) => c.user.login === 'github-actions[bot]')).toHaveLength(2);
  });
});
