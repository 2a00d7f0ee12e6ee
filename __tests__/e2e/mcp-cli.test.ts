import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startAnthropicServer, type AnthropicServer } from '../../test-support/anthropic-server.js';
import { childEnv, cleanHome, makeRepo, runCli } from '../../test-support/cli-process.js';
import { PROBE_SERVER, probeAnswer } from '../../test-support/mcp-probe-server.js';

const KEY = 'sk-ant-canary-mcp-2718';
let server: AnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const EVERYTHING = join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });
const tool = (name: string, input: unknown) => ({ content: [{ type: 'tool_use' as const, name, input }] });

function lastResults(s: AnthropicServer, index: number): string {
  return JSON.stringify(s.requests[index]!.body.messages.at(-1)!.content);
}

describe('MCP servers through the CLI (dist/cli/index.js)', () => {
  it('offers a configured server tools as mcp__<server>__<tool>, runs them, and goes on without a server that fails', async () => {
    server = await startAnthropicServer({
      requireApiKey: KEY,
      script: [tool('mcp__everything__echo', { message: 'hello over MCP' }), text('Echoed.')],
    });
    const home = await cleanHome();
    // A project .mcp.json the settings do not enable must not start.
    const repo = await makeRepo(
      { 'README.md': 'x\n', '.mcp.json': JSON.stringify({ mcpServers: { project: { command: 'touch', args: ['started'] } } }) },
      home,
    );
    const config = {
      mcpServers: {
        everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], env: { GREETING: '${GREETING:-hi}' } },
        broken: { command: '/nonexistent/server' },
      },
    };
    const file = join(home, 'mcp.json');
    await writeFile(file, JSON.stringify(config));
    const r = await runCli(
      ['--cwd', repo, '--mcp-config', file, '--json', 'echo'],
      childEnv(home, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url }),
    );
    expect(r.code).toBe(0);
    const offered = server.requests[0]!.body.tools!.map((t) => t.name);
    expect(offered).toContain('mcp__everything__echo');
    expect(offered.every((n) => /^[a-zA-Z0-9_-]{1,64}$/.test(n))).toBe(true);
    expect(offered.some((n) => n.startsWith('mcp__project'))).toBe(false);
    expect(lastResults(server, 1)).toContain('hello over MCP');
    expect(r.stderr).toMatch(/MCP server broken left out/);
    expect(JSON.parse(r.stdout)).toMatchObject({ conclusion: 'success' });
  });
});

describe('MCP stdio servers in the CLI sandbox (dist/cli/index.js)', () => {
  it('with --sandbox auto a stdio server runs in bubblewrap: the home directory out of reach, its own env kept', async () => {
    server = await startAnthropicServer({ requireApiKey: KEY, script: [tool('mcp__probe__show', {}), text('Shown.')] });
    const home = await cleanHome();
    await writeFile(join(home, 'secret.txt'), 'canary-home-secret');
    const repo = await makeRepo({ 'README.md': 'x\n', 'probe.mjs': PROBE_SERVER }, home);
    const config = { mcpServers: { probe: { command: 'node', args: ['probe.mjs'], env: { PROBE_PATH: join(home, 'secret.txt') } } } };
    const r = await runCli(
      ['--cwd', repo, '--mcp-config', JSON.stringify(config), '--sandbox', 'auto', '--json', 'show'],
      childEnv(home, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url }),
    );
    expect(r.code).toBe(0);
    if (/WITHOUT a sandbox/.test(r.stderr)) {
      console.log('mcp-cli: bubblewrap unavailable, ran without a sandbox');
      return;
    }
    const seen = probeAnswer(server.requests[1]!.body.messages.at(-1)!.content);
    expect(seen.env['PROBE_PATH']).toBe(join(home, 'secret.txt'));
    expect(seen.env['ANTHROPIC_API_KEY']).toBeUndefined();
    // The runner's home is an empty tmpfs in the sandbox: the file is not there.
    expect(seen.probe).toBe('ENOENT');
  });
});
