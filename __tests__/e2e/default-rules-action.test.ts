import { jest } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { commentPayload } from '../../test-support/action-payloads.js';
import { makeWorld, type World } from '../../test-support/action-world.js';
import type { ScriptedReply } from '../../test-support/anthropic-server.js';

jest.setTimeout(90_000);

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const tool = (name: string, input: unknown): ScriptedReply => ({ content: [{ type: 'tool_use', name, input }] });
const text = (t: string): ScriptedReply => ({ content: [{ type: 'text', text: t }] });

function lastResults(w: World, index: number): string {
  const messages = w.model.requests[index]!.body.messages;
  return JSON.stringify(messages[messages.length - 1]!.content);
}

/** What a runner passes for an input left out of `with:`: action.yml's default text. */
const DEFAULT_ALLOWED = (parse(readFileSync('action.yml', 'utf8')) as { inputs: Record<string, { default: string }> }).inputs[
  'allowed-tools'
]!.default;

const SETTINGS = JSON.stringify({ permissions: { allow: ['Bash(npm test:*)', 'Edit(src/**)'] } });
const MAIN = {
  'README.md': 'x\n',
  x: 'keep me\n',
  a: 'keep me too\n',
  'src/a.js': 'export const a = 1;\n',
  'package.json': '{ "name": "calc", "scripts": { "test": "echo the tests ran > ran.txt" } }\n',
  '.claude/settings.json': SETTINGS,
};

describe('the default allowed-tools never widens the repository settings (dist/index.js)', () => {
  it('settings allowing Bash(npm test:*) and Edit(src/**): rm and a redirect are refused, npm test runs, only the edit under src/ lands', async () => {
    world = await makeWorld({
      main: MAIN,
      script: [
        tool('Bash', { command: 'rm -rf x' }),
        tool('Bash', { command: 'echo > a' }),
        tool('Bash', { command: 'npm test' }),
        tool('Edit', { file_path: 'README.md', old_string: 'x', new_string: 'y' }),
        tool('Write', { file_path: 'NEW.md', content: 'new\n' }),
        tool('Edit', { file_path: 'src/a.js', old_string: '1', new_string: '2' }),
        text('Done.'),
      ],
      sim: { permissions: { alice: 'write' }, files: { main: { '.claude/settings.json': SETTINGS } } },
    });
    const w = world;
    w.sim.issues.set(3, { number: 3, title: 'Bump a', body: '', user: { login: 'bob' }, comments: [] });
    const payload = commentPayload({ number: 3, body: '/agent bump a', by: { login: 'alice', id: 501 }, onPull: false });
    const r = await w.run({ event: 'issue_comment', payload, inputs: { 'allowed-tools': DEFAULT_ALLOWED, sandbox: 'off' } });
    expect(r.outputs['conclusion']).toBe('success');
    expect(lastResults(w, 1)).toMatch(/Permission denied:.*Bash\(npm test:\*\)/);
    expect(lastResults(w, 2)).toMatch(/Permission denied:/);
    expect(existsSync(join(w.work, 'x'))).toBe(true);
    expect(readFileSync(join(w.work, 'a'), 'utf8')).toBe('keep me too\n');
    expect(lastResults(w, 3)).not.toMatch(/Permission denied/);
    expect(existsSync(join(w.work, 'ran.txt'))).toBe(true);
    expect(lastResults(w, 4)).toMatch(/Permission denied:.*Edit\(src\/\*\*\)/);
    expect(lastResults(w, 5)).toMatch(/Permission denied:.*Edit\(src\/\*\*\)/);
    expect(lastResults(w, 6)).not.toMatch(/Permission denied/);
    expect(readFileSync(join(w.work, 'README.md'), 'utf8')).toBe('x\n');
    expect(existsSync(join(w.work, 'NEW.md'))).toBe(false);
    expect(readFileSync(join(w.work, 'src/a.js'), 'utf8')).toBe('export const a = 2;\n');
    // What was pushed: the edit under src/, nothing else the rules refused.
    const branch = w.remoteGit(['for-each-ref', '--format=%(refname:short)', 'refs/heads/agent/']).trim();
    expect(w.remoteGit(['show', `${branch}:src/a.js`])).toBe('export const a = 2;\n');
    expect(w.remoteGit(['show', `${branch}:README.md`])).toBe('x\n');
    expect(w.remoteGit(['show', `${branch}:x`])).toBe('keep me\n');
  });
});
