import { jest } from '@jest/globals';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { commentPayload } from '../../test-support/action-payloads.js';
import { makeWorld, type World } from '../../test-support/action-world.js';
import type { ScriptedReply } from '../../test-support/anthropic-server.js';
import { SA_PRIVATE_KEY_ID, SUBJECT_TOKEN, serviceAccountKey, wifFileSourced } from '../../test-support/credential-fixtures.js';

jest.setTimeout(60_000);

const MAIN = {
  'package.json': '{ "name": "calc", "type": "module" }\n',
  'math.js': 'export function add(a, b) {\n  return a - b;\n}\n',
};
/** One line of the service-account key's PEM block: any trace of the key has it. */
const KEY_LINE = 'canaryKEYline2abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMN';
const SECRETS = [KEY_LINE, SA_PRIVATE_KEY_ID, SUBJECT_TOKEN];
const CREDENTIAL_FILES = ['gha-creds-abc123.json', 'wif-creds.json', 'oidc-token.txt'];

const tool = (name: string, input: unknown): ScriptedReply => ({ content: [{ type: 'tool_use', name, input }] });
const text = (t: string): ScriptedReply => ({ content: [{ type: 'text', text: t }] });
const alice = { login: 'alice', id: 501 };

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

function issueWorld(script: ScriptedReply[]): Promise<World> {
  return makeWorld({ main: MAIN, script, sim: { permissions: { alice: 'admin' } } }).then((w) => {
    w.sim.issues.set(3, { number: 3, title: 'add() is broken', body: 'It subtracts.', user: { login: 'bob' }, comments: [] });
    return w;
  });
}

/** Everything the simulator holds (comments, pull requests) and the run's summary and outputs. */
function posted(w: World, r: { summary: string; outputs: Record<string, string> }): string {
  return JSON.stringify([...w.sim.issues.values()]) + JSON.stringify(w.sim.pullsCreated) + r.summary + JSON.stringify(r.outputs);
}

function finalComment(w: World): string {
  return (w.sim.issues.get(3)?.comments ?? []).filter((c) => c.body.includes('<!-- agent-action -->')).at(-1)?.body ?? '';
}

describe('credentials files in the workspace (dist/index.js)', () => {
  it('an issue fix next to a service-account key and a WIF file: the fix is delivered, no file or value of theirs leaves', async () => {
    world = await issueWorld([
      tool('Read', { file_path: 'gha-creds-abc123.json' }),
      tool('Read', { file_path: 'oidc-token.txt' }),
      tool('Bash', { command: 'cat gha-creds-abc123.json wif-creds.json oidc-token.txt; git status --short' }),
      tool('Edit', { file_path: 'math.js', old_string: 'return a - b;', new_string: 'return a + b;' }),
      text('Fixed `add()`: it subtracted.'),
    ]);
    // What google-github-actions/auth leaves: the key file in the workspace, named by the variables it exports.
    const key = join(world.work, 'gha-creds-abc123.json');
    await writeFile(key, serviceAccountKey());
    await writeFile(join(world.work, 'oidc-token.txt'), `${SUBJECT_TOKEN}\n`);
    await writeFile(join(world.work, 'wif-creds.json'), wifFileSourced('oidc-token.txt'));
    const r = await world.run({
      event: 'issue_comment',
      payload: commentPayload({ number: 3, body: '/agent fix it', by: alice, onPull: false }),
      env: {
        GOOGLE_APPLICATION_CREDENTIALS: key,
        GOOGLE_GHA_CREDS_PATH: key,
        CLOUDSDK_AUTH_CREDENTIAL_FILE_OVERRIDE: join(world.work, 'wif-creds.json'),
      },
    });
    expect(r.outputs['conclusion']).toBe('success');
    const branch = 'agent/issue-3-add-is-broken';
    // The fix itself is delivered.
    expect(world.remoteGit(['show', `${branch}:math.js`])).toMatch(/return a \+ b;/);
    expect(world.sim.pullsCreated).toHaveLength(1);
    // No credentials file in any pushed commit, and no value of theirs anywhere in what was pushed.
    const pushedFiles = world.remoteGit(['log', '--all', '--name-only', '--format=']);
    for (const file of CREDENTIAL_FILES) expect(pushedFiles).not.toContain(file);
    const pushed = world.remoteGit(['log', '--all', '-p', '--format=%B']);
    for (const secret of SECRETS) expect(pushed).not.toContain(secret);
    // Nor in the comments, the pull request, the summary or the outputs; the comment names what was left out.
    const out = posted(world, r);
    for (const secret of SECRETS) expect(out).not.toContain(secret);
    const comment = finalComment(world);
    for (const file of CREDENTIAL_FILES) expect(comment).toContain(`\`${file}\``);
    expect(comment).toMatch(/Left out of the commit and the diff because they hold credentials/);
    // Nor in any request to the model: Read refused the files, and what Bash printed was masked.
    const requests = JSON.stringify(world.model.requests.map((q) => q.body));
    for (const secret of SECRETS) expect(requests).not.toContain(secret);
    expect(requests).toMatch(/gha-creds-abc123\.json is protected \(a credentials file named by GOOGLE_APPLICATION_CREDENTIALS\)/);
    expect(requests).toMatch(/oidc-token\.txt is protected \(a credentials file the subject-token file of wif-creds\.json\)/);
    // The Bash call ran: the public fields of the key file reached the model, its secrets did not.
    expect(requests).toContain('agent@calc-project.iam.gserviceaccount.com');
  });

  it('a file the model writes with a private key in it stays out of the commit, the rest is pushed', async () => {
    const pem = '-----BEGIN RSA PRIVATE KEY-----\\nMIIEpAIBAAKCAQEAmodelWrittenKey0123456789\\n-----END RSA PRIVATE KEY-----\\n';
    world = await issueWorld([
      tool('Write', { file_path: 'test/fixture-key.js', content: `export const key = "${pem}";\n` }),
      tool('Edit', { file_path: 'math.js', old_string: 'return a - b;', new_string: 'return a + b;' }),
      text('Fixed `add()`.'),
    ]);
    const r = await world.run({
      event: 'issue_comment',
      payload: commentPayload({ number: 3, body: '/agent fix it', by: alice, onPull: false }),
    });
    expect(r.outputs['conclusion']).toBe('success');
    expect(world.remoteGit(['show', 'agent/issue-3-add-is-broken:math.js'])).toMatch(/a \+ b/);
    expect(world.remoteGit(['log', '--all', '--name-only', '--format='])).not.toContain('fixture-key.js');
    expect(world.remoteGit(['log', '--all', '-p'])).not.toContain('modelWrittenKey');
    expect(posted(world, r)).not.toContain('modelWrittenKey');
    expect(finalComment(world)).toMatch(/`test\/fixture-key\.js` \(it holds a private key\)/);
  });
});

describe("the action's environment is an allowlist (dist/index.js)", () => {
  it('with sandbox off, a Bash command reading /proc/$PPID/environ or walking /proc/*/environ finds no unnamed secret', async () => {
    const walk =
      'tr "\\0" "\\n" < /proc/$PPID/environ | grep -E "^(GITHUB_EVENT_PATH|DATABASE_URL)="; ' +
      'for f in /proc/[0-9]*/environ; do tr "\\0" "\\n" < "$f"; done 2>/dev/null | grep "hunt[e]r2" || echo walked-all';
    world = await issueWorld([tool('Bash', { command: walk }), text('Nothing to fix.')]);
    const r = await world.run({
      event: 'issue_comment',
      payload: commentPayload({ number: 3, body: '/agent look around', by: alice, onPull: false }),
      inputs: { sandbox: 'off' },
      env: { DATABASE_URL: 'postgres://u:hunter2@db/x', SENTRY_DSN: 'https://hunter2sentry@o1.ingest.sentry.io/1' },
    });
    expect(r.outputs['conclusion']).toBe('success');
    const results = JSON.stringify(world.model.requests.map((q) => q.body.messages));
    // The command did read the action's environment block (the tools' own has no GITHUB_EVENT_PATH): the kept variables are there.
    expect(results).toMatch(/GITHUB_EVENT_PATH=\/[^\\]*event-1\.json/);
    expect(results).not.toContain('hunter2');
    expect(results).toContain('walked-all');
  });
});
