import { jest } from '@jest/globals';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { commentPayload } from '../../test-support/action-payloads.js';
import { GH_TOKEN, makeWorld, OWNER, REPO, type World } from '../../test-support/action-world.js';
import type { ScriptedReply } from '../../test-support/anthropic-server.js';
import { runGit } from '../../test-support/git-remote.js';
import { markersIn, plantScript } from '../../test-support/git-plants.js';

jest.setTimeout(90_000);

const MAIN = {
  'package.json': '{ "name": "calc", "type": "module" }\n',
  'math.js': 'export function add(a, b) {\n  return a - b;\n}\n',
};
const alice = { login: 'alice', id: 501 };
const ON_DISK = 'PLANTED-ON-DISK';
/** Printed by the plant command when its .git plants took (they cannot in the sandbox: .git is read-only there). */
const CHECK = `test -f .git/commondir && test -f .git/info/attributes && grep -q fsmonitor .git/config && echo ${ON_DISK}`;

const tool = (name: string, input: unknown): ScriptedReply => ({ content: [{ type: 'tool_use', name, input }] });
const text = (t: string): ScriptedReply => ({ content: [{ type: 'text', text: t }] });
const FIX = tool('Edit', { file_path: 'math.js', old_string: 'return a - b;', new_string: 'return a + b;' });

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

interface Plants {
  world: World;
  markers: string;
}

/** A world whose model plants every form with Bash (after `before`, if any), fixes add() and stops. */
async function plantingWorld(
  before: (root: string) => string[] = () => [],
  branches?: Record<string, Record<string, string>>,
): Promise<Plants> {
  let markers = '';
  let work = '';
  let root = '';
  const w = await makeWorld({
    main: MAIN,
    ...(branches ? { branches } : {}),
    script: (_req, index) =>
      [
        ...before(root).map((command) => tool('Bash', { command })),
        tool('Bash', { command: `${plantScript(work, markers)}\n${CHECK}` }),
        FIX,
        text('Fixed add().'),
      ][index]!,
    sim: { permissions: { alice: 'write' } },
  });
  markers = join(w.root, 'markers');
  work = w.work;
  root = w.root;
  await mkdir(markers);
  return { world: w, markers };
}

type Result = { type: string; content?: unknown; is_error?: boolean };

/** Every tool result the model server received, in order. */
function toolResults(w: World): Result[] {
  const last = w.model.requests.at(-1)?.body.messages ?? [];
  return last.flatMap((m) => (Array.isArray(m.content) ? (m.content as Result[]) : [])).filter((b) => b.type === 'tool_result');
}

const resultText = (r: Result) => JSON.stringify(r.content);

function issueWorld(w: World, number: number): void {
  w.sim.issues.set(number, { number, title: 'add() is broken', body: 'The test fails.', user: { login: 'bob' }, comments: [] });
}

async function runOnIssue(w: World, inputs: Record<string, string>) {
  issueWorld(w, 3);
  return w.run({ event: 'issue_comment', payload: commentPayload({ number: 3, body: '/agent fix it', by: alice, onPull: false }), inputs });
}

/** A comment on pull request 7, whose branch `fix-math` the world has. */
async function runOnPull(w: World, inputs: Record<string, string>) {
  const headSha = w.remoteGit(['rev-parse', 'fix-math']).trim();
  w.sim.issues.set(7, {
    number: 7,
    title: 'Work on math',
    body: '',
    user: { login: 'bob' },
    comments: [],
    pull: { headRef: 'fix-math', headSha, headRepoFullName: `${OWNER}/${REPO}`, baseRef: 'main', files: [], diff: '' },
  });
  return w.run({ event: 'issue_comment', payload: commentPayload({ number: 7, body: '/agent fix it', by: alice, onPull: true }), inputs });
}

/** The delivered fix: the branch on the bare remote holds it. */
function expectDelivered(w: World, branch: string): void {
  expect(w.remoteGit(['show', `${branch}:math.js`])).toMatch(/return a \+ b;/);
}

describe('git files planted during the run steer none of the action’s own git (dist/index.js)', () => {
  it('sandbox off, an issue: every plant is on disk, no planted program runs, the fix is pushed and the pull request opened', async () => {
    const p = await plantingWorld();
    world = p.world;
    const r = await runOnIssue(world, { sandbox: 'off' });
    expect(resultText(toolResults(world)[0]!)).toContain(ON_DISK);
    expect(r.outputs['conclusion']).toBe('success');
    expect(await markersIn(p.markers)).toEqual([]);
    expect(r.outputs['branch']).toBe('agent/issue-3-add-is-broken');
    expectDelivered(world, 'agent/issue-3-add-is-broken');
    expect(world.sim.pullsCreated).toHaveLength(1);
    // Nothing of the credential was left where the plants pointed.
    expect(JSON.stringify(world.remoteGit(['log', '--all', '--format=%B']))).not.toContain(GH_TOKEN);
  });

  it('sandbox off, a pull request that moved on meanwhile: the action fetches, rebases and pushes, and no planted program runs', async () => {
    const other = { dir: '' };
    const p = await plantingWorld((root) => [`cd ${join(root, 'other')} && git push -q origin HEAD:fix-math`], {
      'fix-math': { 'notes.md': 'wip\n' },
    });
    world = p.world;
    other.dir = join(world.root, 'other');
    const env = { PATH: process.env['PATH'] ?? '', HOME: world.home, GIT_CONFIG_NOSYSTEM: '1' };
    const id = { GIT_AUTHOR_NAME: 'Bob', GIT_AUTHOR_EMAIL: 'b@e', GIT_COMMITTER_NAME: 'Bob', GIT_COMMITTER_EMAIL: 'b@e' };
    runGit(world.root, ['clone', '-q', '--branch', 'fix-math', `file://${world.bare}`, other.dir], env);
    runGit(other.dir, ['-c', 'core.hooksPath=/dev/null', 'commit', '-q', '--allow-empty', '-m', 'theirs'], { ...env, ...id });
    const r = await runOnPull(world, { sandbox: 'off' });
    expect(resultText(toolResults(world)[1]!)).toContain(ON_DISK);
    expect(r.outputs['conclusion']).toBe('success');
    expect(await markersIn(p.markers)).toEqual([]);
    expectDelivered(world, 'fix-math');
    expect(world.remoteGit(['log', '--format=%s', 'fix-math'])).toMatch(/theirs/);
    expect(world.sim.issues.get(7)!.comments.at(-1)!.body).toMatch(/rebased onto it/);
  });

  it('in the sandbox, an issue: the .git plants fail on the read-only git dir, no planted program runs, the fix is pushed', async () => {
    const p = await plantingWorld();
    world = p.world;
    const r = await runOnIssue(world, { sandbox: 'strict' });
    const planted = resultText(toolResults(world)[0]!);
    expect(planted).not.toContain(ON_DISK);
    expect(planted).toMatch(/Read-only file system/);
    expect(r.outputs['conclusion']).toBe('success');
    expect(await markersIn(p.markers)).toEqual([]);
    expectDelivered(world, 'agent/issue-3-add-is-broken');
  });

  it('in the sandbox, a pull request comment: no planted program runs, the fix is pushed to its branch', async () => {
    const p = await plantingWorld(undefined, { 'fix-math': { 'notes.md': 'wip\n' } });
    world = p.world;
    const r = await runOnPull(world, { sandbox: 'strict' });
    expect(resultText(toolResults(world)[0]!)).toMatch(/Read-only file system/);
    expect(r.outputs['conclusion']).toBe('success');
    expect(await markersIn(p.markers)).toEqual([]);
    expectDelivered(world, 'fix-math');
  });

  it('Write only: each write into a .git is refused with a message that the action commits, the fix still lands', async () => {
    const ws = () => world!.work;
    const evil = (m: string) => `[filter "evil"]\n\tclean = sh -c 'env > ${m}/ran.$$ && cat'\n`;
    let markers = '';
    const refusedPaths = ['.git/commondir', '.git/config', '.git/info/attributes', '.git/objects/info/alternates', 'sub/.git'];
    world = await makeWorld({
      main: MAIN,
      script: (_req, index) =>
        [
          tool('Write', { file_path: 'evil/common/config', content: evil(markers) }),
          tool('Write', { file_path: '.gitattributes', content: '* filter=evil\n' }),
          ...refusedPaths.map((file_path) =>
            tool('Write', { file_path, content: file_path.endsWith('commondir') ? `${ws()}/evil/common\n` : evil(markers) }),
          ),
          FIX,
          text('Fixed add().'),
        ][index]!,
      sim: { permissions: { alice: 'write' } },
    });
    markers = join(world.root, 'markers');
    await mkdir(markers);
    const r = await runOnIssue(world, { 'allowed-tools': 'Read,Write,Edit' });
    const results = toolResults(world);
    expect(results.slice(0, 2).map((x) => x.is_error ?? false)).toEqual([false, false]);
    for (const refused of results.slice(2, 2 + refusedPaths.length)) {
      expect(refused.is_error).toBe(true);
      expect(resultText(refused)).toMatch(/is in git's own files \(\.git\)\. The action stages, commits and pushes your changes itself/);
    }
    expect(r.outputs['conclusion']).toBe('success');
    expect(await markersIn(markers)).toEqual([]);
    expectDelivered(world, 'agent/issue-3-add-is-broken');
    // The model was told beforehand that the action commits and pushes for it.
    expect(JSON.stringify(world.model.requests[0]!.body.system)).toMatch(
      /commits and pushes your changes for you[^"]*do not run git commit, git push/,
    );
  });
});
