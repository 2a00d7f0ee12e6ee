import { jest } from '@jest/globals';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startAnthropicServer, type AnthropicServer, type ScriptedReply } from '../../test-support/anthropic-server.js';
import { childEnv, cleanHome, makeRepo, runCli } from '../../test-support/cli-process.js';

jest.setTimeout(60_000);

const KEY = 'sk-ant-canary-continue-77';
const text = (t: string): ScriptedReply => ({ content: [{ type: 'text', text: t }] });
let server: AnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('--continue (dist/)', () => {
  it("carries on the workspace's last run, with its messages before the new prompt", async () => {
    server = await startAnthropicServer({ requireApiKey: KEY, script: [text('Noted: zebra.'), text('The word was zebra.')] });
    const home = await cleanHome();
    const repo = await makeRepo({ 'README.md': 'hi\n' }, home);
    const env = childEnv(home, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url });
    const first = await runCli(['--cwd', repo, '--json', 'remember the word zebra'], env);
    expect(first.code).toBe(0);
    const second = await runCli(['--cwd', repo, '--json', '--continue', 'which word was it?'], env);
    expect(second.code).toBe(0);
    const messages = server.requests[1]!.body.messages;
    expect(JSON.stringify(messages)).toMatch(/remember the word zebra[\s\S]*Noted: zebra\.[\s\S]*which word was it\?/);
    expect(messages).toHaveLength(3);
    // Both runs wrote to the one transcript, kept under the home's state folder.
    const out = JSON.parse(second.stdout) as { transcript: string };
    expect(out.transcript).toBe((JSON.parse(first.stdout) as { transcript: string }).transcript);
    expect(out.transcript.startsWith(join(home, '.local', 'state', 'agent-action', 'sessions'))).toBe(true);
  });

  it('says there is nothing to continue in a workspace that never ran, with exit code 2', async () => {
    server = await startAnthropicServer({ requireApiKey: KEY, script: [text('unused')] });
    const home = await cleanHome();
    const repo = await makeRepo({ 'README.md': 'hi\n' }, home);
    const state = join(home, 'state');
    const env = childEnv(home, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url, XDG_STATE_HOME: state });
    const r = await runCli(['--cwd', repo, '--continue', 'go on'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/there is no earlier run in .* to continue \(runs are kept in .*state\/agent-action\/sessions\//);
    expect(server.requests).toHaveLength(0);
    const fresh = await runCli(['--cwd', repo, 'start'], env);
    expect(fresh.code).toBe(0);
    expect(readdirSync(join(state, 'agent-action', 'sessions'))).toHaveLength(1);
  });
});
