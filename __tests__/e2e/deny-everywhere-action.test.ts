import { jest } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { commentPayload } from '../../test-support/action-payloads.js';
import { makeWorld, type World } from '../../test-support/action-world.js';
import type { ScriptedReply } from '../../test-support/anthropic-server.js';

jest.setTimeout(90_000);

const SECRET = 'SECRET-action-deny-0b7d2';
let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const calls = (list: [string, unknown][]): ScriptedReply => ({ content: list.map(([name, input]) => ({ type: 'tool_use', name, input })) });
const text = (t: string): ScriptedReply => ({ content: [{ type: 'text', text: t }] });

describe('deny rules in the action (dist/index.js)', () => {
  it('keeps a Read-denied file out of Grep, Glob and Bash, and an Edit-denied workflow unchanged, whatever the sandbox', async () => {
    world = await makeWorld({
      main: {
        'config/.env': `TOKEN=${SECRET}\n`,
        'src/app.js': 'export const token = process.env.TOKEN;\n',
        '.github/workflows/ci.yml': 'on: push\n',
      },
      script: [
        calls([
          ['Grep', { pattern: 'TOKEN', output_mode: 'content' }],
          ['Glob', { pattern: '**/.env' }],
          ['Bash', { command: 'cat config/.env 2>&1; cp config/.env leak.txt 2>&1; cat leak.txt 2>&1; echo end' }],
          ['Bash', { command: "sed -i 's/push/pull_request_target/' .github/workflows/ci.yml 2>&1; echo end" }],
        ]),
        text('done'),
      ],
      sim: { permissions: { alice: 'write' } },
    });
    const payload = commentPayload({ number: 3, body: '/agent find the token', by: { login: 'alice', id: 501 }, onPull: false });
    world.sim.issues.set(3, { number: 3, title: 'Token', body: '', user: { login: 'bob' }, comments: [] });
    const r = await world.run({
      event: 'issue_comment',
      payload,
      inputs: { 'disallowed-tools': 'Read(.env),Edit(.github/**)', sandbox: 'auto' },
    });
    expect(r.outputs['conclusion']).toBe('success');
    expect(JSON.stringify(world.model.requests.map((q) => q.body))).not.toContain(SECRET);
    expect(readFileSync(join(world.work, '.github/workflows/ci.yml'), 'utf8')).toBe('on: push\n');
    const results = JSON.stringify(world.model.requests[1]!.body.messages.at(-1));
    expect(results).toContain('src/app.js');
    expect(results).toMatch(/1 file hidden by the deny rules/);
  });
});
