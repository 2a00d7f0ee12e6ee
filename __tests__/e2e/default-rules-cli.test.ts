import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startAnthropicServer, type AnthropicServer, type ScriptedReply } from '../../test-support/anthropic-server.js';
import { childEnv, cleanHome, makeRepo, runCli } from '../../test-support/cli-process.js';

const KEY = 'sk-ant-canary-defaults-31';
let server: AnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const RECORDER = join(process.cwd(), 'test-support/mcp/recorder.mjs');
const text = (t: string): ScriptedReply => ({ content: [{ type: 'text', text: t }] });
const tool = (name: string, input: unknown): ScriptedReply => ({ content: [{ type: 'tool_use', name, input }] });

function lastResults(s: AnthropicServer, index: number): string {
  return JSON.stringify(s.requests[index]!.body.messages.at(-1)!.content);
}

/** A repository, and an --mcp-config file naming the recording server (its record file beside it). */
async function setup(): Promise<{ home: string; repo: string; config: string; record: string }> {
  const home = await cleanHome();
  const repo = await makeRepo({ 'README.md': 'x\n' }, home);
  const record = join(home, 'calls.txt');
  const config = join(home, 'mcp.json');
  await writeFile(
    config,
    JSON.stringify({ mcpServers: { srv: { command: process.execPath, args: [RECORDER], env: { RECORD: record } } } }),
  );
  return { home, repo, config, record };
}

const calls = (record: string) => (existsSync(record) ? readFileSync(record, 'utf8') : '');

describe('an explicit --allowed-tools means exactly its rules (dist/cli/index.js)', () => {
  it('with --allowed-tools Read and --mcp-config, the MCP tool is not offered and a call never reaches the server', async () => {
    server = await startAnthropicServer({ requireApiKey: KEY, script: [tool('mcp__srv__touch', { name: 'refused' }), text('Done.')] });
    const { home, repo, config, record } = await setup();
    const env = childEnv(home, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url });
    const r = await runCli(['--cwd', repo, '--allowed-tools', 'Read', '--mcp-config', config, '--json', 'touch it'], env);
    expect(r.code).toBe(0);
    expect(server.requests[0]!.body.tools!.map((t) => t.name)).toEqual(['Read']);
    expect(lastResults(server, 1)).toMatch(/Permission denied:.*no allow rule names the tool mcp__srv__touch/);
    expect(calls(record)).toBe('');
  });

  it('with --allowed-tools Read,mcp__srv the MCP tool runs; with the default it runs by being configured', async () => {
    server = await startAnthropicServer({
      requireApiKey: KEY,
      script: [tool('mcp__srv__touch', { name: 'named' }), text('Done.'), tool('mcp__srv__touch', { name: 'default' }), text('Done.')],
    });
    const { home, repo, config, record } = await setup();
    const env = childEnv(home, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url });
    const named = await runCli(['--cwd', repo, '--allowed-tools', 'Read,mcp__srv', '--mcp-config', config, '--json', 'touch it'], env);
    expect(named.code).toBe(0);
    expect(server.requests[0]!.body.tools!.map((t) => t.name)).toEqual(['Read', 'mcp__srv__touch']);
    expect(lastResults(server, 1)).toContain('recorded named');
    const byDefault = await runCli(['--cwd', repo, '--mcp-config', config, '--json', 'touch it'], env);
    expect(byDefault.code).toBe(0);
    expect(calls(record)).toBe('touch named\ntouch default\n');
  });
});

describe('the default --allowed-tools never widens the settings of --cwd (dist/cli/index.js)', () => {
  it('settings allowing Bash(npm test:*) and Edit(src/**): other commands and edits elsewhere are refused, those run', async () => {
    server = await startAnthropicServer({
      requireApiKey: KEY,
      script: [
        tool('Bash', { command: 'rm -rf x' }),
        tool('Bash', { command: 'npm test' }),
        tool('Edit', { file_path: 'README.md', old_string: 'x', new_string: 'y' }),
        tool('Edit', { file_path: 'src/a.js', old_string: '1', new_string: '2' }),
        text('Done.'),
      ],
    });
    const home = await cleanHome();
    const settings = JSON.stringify({ permissions: { allow: ['Bash(npm test:*)', 'Edit(src/**)'] } });
    const repo = await makeRepo(
      {
        'README.md': 'x\n',
        x: 'keep me\n',
        'src/a.js': 'export const a = 1;\n',
        'package.json': '{ "name": "calc", "scripts": { "test": "echo the tests ran > ran.txt" } }\n',
        '.claude/settings.json': settings,
      },
      home,
    );
    const env = childEnv(home, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url });
    const r = await runCli(['--cwd', repo, '--json', 'work'], env);
    expect(r.code).toBe(0);
    expect(lastResults(server, 1)).toMatch(/Permission denied:.*Bash\(npm test:\*\)/);
    expect(existsSync(join(repo, 'x'))).toBe(true);
    expect(lastResults(server, 2)).not.toMatch(/Permission denied/);
    expect(readFileSync(join(repo, 'ran.txt'), 'utf8')).toBe('the tests ran\n');
    expect(lastResults(server, 3)).toMatch(/Permission denied:.*Edit\(src\/\*\*\)/);
    expect(readFileSync(join(repo, 'README.md'), 'utf8')).toBe('x\n');
    expect(readFileSync(join(repo, 'src/a.js'), 'utf8')).toBe('export const a = 2;\n');
  });
});
