import { jest } from '@jest/globals';
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { commentPayload } from '../../test-support/action-payloads.js';
import { GH_TOKEN, makeWorld, type World } from '../../test-support/action-world.js';
import type { Script, ScriptedReply } from '../../test-support/anthropic-server.js';
import type { SimApp } from '../../test-support/github-sim.js';
import { stableInt } from '../../test-support/github-sim/state.js';

jest.setTimeout(90_000);

const MAIN = { 'math.js': 'export function add(a, b) {\n  return a - b;\n}\n' };
const tool = (name: string, input: unknown): ScriptedReply => ({ content: [{ type: 'tool_use', name, input }] });
const text = (t: string): ScriptedReply => ({ content: [{ type: 'text', text: t }] });
const FIX = [tool('Edit', { file_path: 'math.js', old_string: 'return a - b;', new_string: 'return a + b;' }), text('Fixed add().')];

const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
// GitHub hands App keys out as PKCS#1 PEM files.
const PRIVATE_KEY = keys.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
const APP: SimApp = {
  id: 424242,
  slug: 'calc-agent',
  clientId: 'Iv23liCalcAgent',
  publicKey: keys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  installed: true,
  installationId: 987654,
  permissions: { contents: 'write', issues: 'write', pull_requests: 'write' },
};

const alice = { login: 'alice', id: 501 };
let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function appWorld(app: Partial<SimApp> = {}, script: Script = FIX): Promise<World> {
  const w = await makeWorld({ main: MAIN, script, sim: { permissions: { alice: 'write' }, app: { ...APP, ...app } } });
  w.sim.issues.set(3, { number: 3, title: 'add() is broken', body: 'It subtracts.', user: { login: 'bob' }, comments: [] });
  return w;
}

const request = (w: World, inputs: Record<string, string>) =>
  w.run({ event: 'issue_comment', payload: commentPayload({ number: 3, body: '/agent fix it', by: alice, onPull: false }), inputs });

const calls = (w: World) => w.sim.requests.map((r) => `${r.method} ${r.path} [${r.as ?? 'none'}] ${r.status}`);

describe('GitHub App tokens (dist/)', () => {
  it('takes an installation token of this repository, writes and commits as the App bot, and revokes it', async () => {
    world = await appWorld();
    const r = await request(world, { 'github-app-id': String(APP.id), 'github-app-private-key': PRIVATE_KEY });
    if (process.env['AGENT_NOTE_DIR'])
      writeFileSync(`${process.env['AGENT_NOTE_DIR']}/app-token-calls.txt`, calls(world).join('\n') + '\n');
    expect(r.outputs['conclusion']).toBe('success');
    const [first, second, third] = world.sim.requests;
    expect(first).toMatchObject({ method: 'GET', path: '/repos/octo-org/calc/installation', as: 'app JWT', status: 200 });
    expect(second).toMatchObject({
      method: 'POST',
      path: `/app/installations/${APP.installationId}/access_tokens`,
      as: 'app JWT',
      status: 201,
    });
    expect(second!.body).toEqual({ repositories: ['calc'] });
    expect(third).toMatchObject({ method: 'GET', path: '/users/calc-agent%5Bbot%5D', status: 200 });
    expect(world.sim.requests.at(-1)).toMatchObject({
      method: 'DELETE',
      path: '/installation/token',
      as: 'installation token',
      status: 204,
    });
    // Every call after the exchange carried the installation token; github-token was never used.
    expect(world.sim.requests.slice(2).every((q) => q.as === 'installation token')).toBe(true);
    expect(world.sim.installationTokens).toHaveLength(1);
    expect(world.sim.installationTokens[0]).toMatchObject({ repositories: ['calc'], revoked: true });
    expect(world.sim.schemaErrors).toEqual([]);
    // The bot's commit, its comment and its pull request.
    const botId = stableInt('user:calc-agent[bot]');
    const branch = r.outputs['branch']!;
    expect(world.remoteGit(['log', '-1', '--format=%an <%ae>|%cn <%ce>', branch]).trim()).toBe(
      `calc-agent[bot] <${botId}+calc-agent[bot]@users.noreply.github.com>|calc-agent[bot] <${botId}+calc-agent[bot]@users.noreply.github.com>`,
    );
    const tracking = world.sim.issues.get(3)!.comments.find((c) => c.body.includes('<!-- agent-action -->'))!;
    expect(tracking.user.login).toBe('calc-agent[bot]');
    // The token is masked by value and shows nowhere else.
    const token = world.sim.installationTokens[0]!.token;
    expect(r.stdout).toContain(`::add-mask::${token}`);
    expect((r.stdout + r.stderr).split(token).length - 1).toBe(1);
    expect(JSON.stringify(r.outputs)).not.toContain(token);
    expect(JSON.stringify(world.model.requests)).not.toContain(token);
    expect(JSON.stringify(world.model.requests)).not.toContain(GH_TOKEN);
  });

  it('takes the client id as the App id too, and a key pasted on one line', async () => {
    world = await appWorld();
    const r = await request(world, { 'github-app-id': APP.clientId!, 'github-app-private-key': PRIVATE_KEY.trim().replace(/\n/g, '\\n') });
    expect(r.outputs['conclusion']).toBe('success');
    expect(world.sim.installationTokens[0]).toMatchObject({ revoked: true });
  });

  it('a comment that starts nothing takes no token', async () => {
    world = await appWorld();
    const payload = commentPayload({ number: 3, body: 'just a remark', by: alice, onPull: false });
    const r = await world.run({
      event: 'issue_comment',
      payload,
      inputs: { 'github-app-id': String(APP.id), 'github-app-private-key': PRIVATE_KEY },
    });
    expect(r.outputs['conclusion']).toBe('skipped');
    expect(world.sim.requests).toEqual([]);
  });

  it('with commit-signing, the commit is made by GitHub as the App bot and verified', async () => {
    world = await appWorld();
    const r = await request(world, { 'github-app-id': String(APP.id), 'github-app-private-key': PRIVATE_KEY, 'commit-signing': 'true' });
    if (process.env['AGENT_NOTE_DIR'])
      writeFileSync(`${process.env['AGENT_NOTE_DIR']}/app-token-signed-calls.txt`, calls(world).join('\n') + '\n');
    expect(r.outputs['conclusion']).toBe('success');
    expect(world.sim.schemaErrors).toEqual([]);
    const [commit] = world.sim.gitData.commits;
    expect(world.sim.gitData.commits).toHaveLength(1);
    expect(commit).toMatchObject({ verified: true, namedAuthor: false, namedCommitter: false, by: 'calc-agent[bot]' });
    const branch = r.outputs['branch']!;
    expect(world.remoteGit(['rev-parse', branch]).trim()).toBe(commit!.sha);
    const botId = stableInt('user:calc-agent[bot]');
    expect(world.remoteGit(['log', '-1', '--format=%an <%ae>', branch]).trim()).toBe(
      `calc-agent[bot] <${botId}+calc-agent[bot]@users.noreply.github.com>`,
    );
    expect(world.sim.requests.filter((q) => q.path.includes('/git/')).every((q) => q.as === 'installation token')).toBe(true);
    expect(world.sim.installationTokens[0]).toMatchObject({ revoked: true });
  });

  it('an installation token refused mid-run: the step fails naming the App inputs, and nothing reaches the branch', async () => {
    // The token works for the exchange, the 👀 and the tracking comment, then GitHub refuses it (revoked, App
    // uninstalled): from the model's second turn, after the edit, every request with it is a 401.
    let expire = () => {};
    world = await appWorld({}, (_req, index) => {
      if (index === 1) expire();
      return FIX[index] ?? text('done');
    });
    const w = world;
    expire = () => w.sim.expireToken();
    const r = await request(w, { 'github-app-id': String(APP.id), 'github-app-private-key': PRIVATE_KEY, 'commit-signing': 'true' });
    expect(r.code).not.toBe(0);
    expect(r.outputs['conclusion']).toBe('undelivered');
    expect(w.sim.limits.badCredentials).toBeGreaterThan(0);
    // Both what did not arrive name the inputs the token came from.
    const undelivered = r.outputs['undelivered']!;
    expect(undelivered).toMatch(
      /signed commit to agent\/issue-3-[^:]*: GitHub refused the App's installation token \(github-app-id, github-app-private-key\) \(401 Bad credentials\)/,
    );
    expect(undelivered).toMatch(
      /(final|tracking) comment .*GitHub refused the App's installation token \(github-app-id, github-app-private-key\) \(401/,
    );
    // Nothing was pushed: no ref written, no branch but main on the remote, no pull request.
    expect(w.sim.gitData.refUpdates).toEqual([]);
    expect(w.remoteGit(['branch', '--list']).trim()).toBe('* main');
    expect(w.sim.pullsCreated).toEqual([]);
    // The work stays committed in the workspace, and the summary has the diff.
    expect(r.summary).toContain('+  return a + b;');
  });

  describe('bad input fails the step at start, naming the input, with no model call and nothing written', () => {
    const wrongKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    it.each([
      [
        'a wrong App id',
        { 'github-app-id': '111', 'github-app-private-key': PRIVATE_KEY },
        {},
        /input github-app-id: GitHub refused the App's token \(401/,
      ],
      [
        'a key of another App',
        { 'github-app-id': String(APP.id), 'github-app-private-key': wrongKey },
        {},
        /input github-app-id: GitHub refused the App's token/,
      ],
      [
        'a malformed key',
        { 'github-app-id': String(APP.id), 'github-app-private-key': 'not a key' },
        {},
        /input github-app-private-key: not a PEM private key/,
      ],
      [
        'an App not installed',
        { 'github-app-id': String(APP.id), 'github-app-private-key': PRIVATE_KEY },
        { installed: false },
        /input github-app-id: the App 424242 is not installed on octo-org\/calc/,
      ],
      ['an id without its key', { 'github-app-id': String(APP.id) }, {}, /input github-app-private-key: is required with github-app-id/],
    ])('%s', async (_name, inputs, app, message) => {
      world = await appWorld(app);
      const r = await request(world, inputs);
      expect(r.code).not.toBe(0);
      expect(r.stdout).toMatch(new RegExp(`::error::invalid configuration: ${message.source}`));
      expect(world.model.requests).toHaveLength(0);
      expect(world.sim.requests.filter((q) => q.as !== 'app JWT')).toEqual([]);
      expect(world.sim.installationTokens).toEqual([]);
      expect(world.remoteGit(['branch', '--list']).trim()).toBe('* main');
      // The key never reaches the log.
      // The key reaches the log only in the runner's mask commands, which the runner consumes.
      const shown = (r.stdout + r.stderr).split('\n').filter((l) => !l.startsWith('::add-mask::'));
      expect(shown.join('\n')).not.toContain(PRIVATE_KEY.split('\n')[1]);
    });
  });
});
