// network: allowlist through the built CLI (dist/cli/index.js): Bash, a hook and an MCP stdio
// server are held to the same list, and what was refused is named on stderr and in the JSON.
// A local server on every loopback address logs what reached it: `localhost` is allowed,
// 127.0.0.2 (the same server) is not.
import { jest } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startAnthropicServer, type AnthropicServer } from '../../test-support/anthropic-server.js';
import { childEnv, cleanHome, makeRepo, runCli } from '../../test-support/cli-process.js';
import { startLoggingWeb, type LoggingWeb } from '../../test-support/logging-web.js';

jest.setTimeout(60_000);

const KEY = 'sk-ant-canary-network-8080';
let model: AnthropicServer | undefined;
let web: LoggingWeb;
let port: number;
let reached: string[];

beforeAll(async () => {
  web = await startLoggingWeb();
  ({ port, reached } = web);
});
afterAll(() => web.close());
afterEach(async () => {
  await model?.close();
  model = undefined;
});

const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });
const tool = (name: string, input: unknown) => ({ content: [{ type: 'tool_use' as const, name, input }] });

/**
 * An MCP stdio server whose one tool, `fetch`, tries three ways out: curl to an allowed host and to
 * a refused one (through the proxy variables it inherits), and a direct TCP connection that ignores
 * them. It answers with what each attempt got.
 */
const FETCH_SERVER = `import { execFileSync } from 'node:child_process';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
const curl = (url) => { try { return execFileSync('curl', ['-sS', '--max-time', '5', url], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }); } catch (e) { return 'failed ' + (e.status ?? e.code); } };
const direct = (port) => new Promise((done) => {
  const s = connect(port, '127.0.0.1', () => { s.end('GET /mcp-direct HTTP/1.0\\r\\n\\r\\n'); done('connected'); });
  s.on('error', (e) => done(e.code));
});
createInterface({ input: process.stdin }).on('line', async (line) => {
  const m = JSON.parse(line);
  if (m.method === 'initialize')
    send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'fetcher', version: '1' } } });
  else if (m.method === 'tools/list')
    send({ id: m.id, result: { tools: [{ name: 'fetch', description: 'Tries the network', inputSchema: { type: 'object' } }] } });
  else if (m.method === 'tools/call') {
    const port = process.env.WEB_PORT;
    const answer = { allowed: curl('http://localhost:' + port + '/mcp-allowed'), refused: curl('http://127.0.0.2:' + port + '/mcp-refused'), direct: await direct(Number(port)) };
    send({ id: m.id, result: { content: [{ type: 'text', text: JSON.stringify(answer) }] } });
  } else if (m.id !== undefined) send({ id: m.id, error: { code: -32601, message: 'no such method' } });
});
`;

const HOOK = (p: number) =>
  `curl -sS --max-time 5 http://localhost:${p}/hook-allowed > hook-allowed.txt; curl -sS --max-time 5 http://127.0.0.2:${p}/hook-refused > hook-refused.txt; exit 0`;

describe('network: allowlist through the CLI (dist/cli/index.js)', () => {
  it('Bash, a SessionStart hook and an MCP stdio server reach localhost through the proxy, never 127.0.0.2; refusals named on stderr and in the JSON', async () => {
    model = await startAnthropicServer({
      requireApiKey: KEY,
      script: [
        tool('Bash', {
          command: `curl -sS --max-time 5 http://localhost:${port}/bash-allowed && curl -sS --max-time 5 http://127.0.0.2:${port}/bash-refused`,
        }),
        tool('mcp__fetcher__fetch', {}),
        text('Tried.'),
      ],
    });
    const home = await cleanHome();
    const settings = { hooks: { SessionStart: [{ hooks: [{ type: 'command', command: HOOK(port) }] }] } };
    const repo = await makeRepo({ 'README.md': 'x\n', 'fetch.mjs': FETCH_SERVER, '.claude/settings.json': JSON.stringify(settings) }, home);
    const mcp = { mcpServers: { fetcher: { command: 'node', args: ['fetch.mjs'], env: { WEB_PORT: String(port) } } } };
    const r = await runCli(
      [
        '--cwd',
        repo,
        '--sandbox',
        'auto',
        '--allowed-domains',
        'localhost',
        '--allowed-tools',
        'Bash,mcp__fetcher__fetch',
        '--mcp-config',
        JSON.stringify(mcp),
        '--json',
        'try the network',
      ],
      childEnv(home, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: model.url }),
    );
    if (/WITHOUT a sandbox/.test(r.stderr)) {
      console.log('network-cli: bubblewrap unavailable, the allowlist cannot be enforced here');
      return;
    }
    expect(r.code).toBe(0);
    // Bash: the allowed host answered through the proxy; the refused one never saw a request.
    const bash = JSON.stringify(model.requests[1]!.body.messages.at(-1)!.content);
    expect(bash).toContain(`hello /bash-allowed`);
    // The hook ran in the same namespace, behind the same proxy.
    expect(readFileSync(join(repo, 'hook-allowed.txt'), 'utf8')).toBe('hello /hook-allowed');
    expect(readFileSync(join(repo, 'hook-refused.txt'), 'utf8')).not.toContain('hello');
    // The MCP server: the proxy admits localhost, refuses 127.0.0.2, and a direct connection fails.
    const blocks = model.requests[2]!.body.messages.at(-1)!.content as { content?: unknown }[];
    const mcpSaw = JSON.parse(String(blocks[0]?.content)) as { allowed: string; refused: string; direct: string };
    expect(mcpSaw.allowed).toBe('hello /mcp-allowed');
    expect(mcpSaw.refused).not.toContain('hello');
    expect(mcpSaw.direct).not.toBe('connected');
    expect(reached).toEqual(expect.arrayContaining(['/bash-allowed', '/hook-allowed', '/mcp-allowed']));
    expect(reached.filter((u) => /refused|direct/.test(u))).toEqual([]);
    // Each refusal is counted against its host, for the one edit that would admit it.
    const out = JSON.parse(r.stdout) as { conclusion: string; network_refused?: Record<string, number> };
    expect(out.conclusion).toBe('success');
    expect(out.network_refused).toEqual({ '127.0.0.2': 3 });
    expect(r.stderr).toContain('the network allowlist refused 127.0.0.2 (3); add a host with --allowed-domains +host');
  });

  it('a malformed --allowed-domains stops the CLI before any request, naming the flag and the entry', async () => {
    model = await startAnthropicServer({ requireApiKey: KEY, script: [text('never')] });
    const home = await cleanHome();
    const repo = await makeRepo({ 'README.md': 'x\n' }, home);
    const r = await runCli(
      ['--cwd', repo, '--sandbox', 'auto', '--allowed-domains', 'https://example.com/path', 'hi'],
      childEnv(home, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: model.url }),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--allowed-domains.*"https:\/\/example\.com\/path" is a URL: list its host \(example\.com\)/);
    expect(model.requests).toHaveLength(0);
  });
});
