// server-everything over HTTP: started as a child process on a free port, reached by URL as a
// `"type": "http"` (streamable HTTP) or `"type": "sse"` entry would reach it.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { outcomeText } from '../../../src/core/tools.js';
import { startMcpServers, type McpToolSet, type ResolvedServer } from '../../../src/tools/mcp/index.js';

const EVERYTHING = path.join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const children: ChildProcess[] = [];
const open: McpToolSet[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Starts server-everything in the given mode and resolves with its port once it listens; stdout is kept for checks. */
async function startHttpServer(mode: 'streamableHttp' | 'sse'): Promise<{ port: number; child: ChildProcess; output: () => string }> {
  const port = await freePort();
  const child = spawn('node', [EVERYTHING, mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server-everything ${mode} did not start`)), 10_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      if (/listening on port|running on port/i.test(chunk.toString())) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return { port, child, output: () => output };
}

async function start(server: ResolvedServer, logs: string[] = []): Promise<McpToolSet> {
  const tools = await startMcpServers([server], { env: {}, log: (m) => logs.push(m), outputLimit: 5000 });
  open.push(tools);
  return tools;
}

const signal = new AbortController().signal;

afterAll(async () => {
  await Promise.all(open.map((tools) => tools.close()));
  for (const child of children) child.kill('SIGKILL');
});

describe('server-everything over streamable HTTP', () => {
  it('lists and calls tools, images included, and ends the session on close', async () => {
    const { port, output } = await startHttpServer('streamableHttp');
    const url = `http://127.0.0.1:${port}/mcp`;
    const tools = await start({ name: 'remote', source: '.mcp.json', type: 'http', url, headers: { 'X-Test': 'yes' } });
    expect(tools.failures).toEqual([]);
    expect(tools.specs().map((s) => s.name)).toContain('mcp__remote__echo');
    expect(await tools.execute({ id: '1', name: 'mcp__remote__echo', input: { message: 'over http' } }, signal)).toEqual({
      content: 'Echo: over http',
      isError: false,
    });
    const image = await tools.execute({ id: '2', name: 'mcp__remote__get-tiny-image', input: {} }, signal);
    expect(Array.isArray(image.content) && image.content.some((b) => b.type === 'image')).toBe(true);
    await tools.close();
    await tools.close();
    expect(output()).toMatch(/Received session termination request/);
    const after = await tools.execute({ id: '3', name: 'mcp__remote__echo', input: { message: 'x' } }, signal);
    expect(after).toEqual({ content: 'MCP server "remote" is not running (it was shut down)', isError: true });
  });

  it('gives an is_error result naming the server once the server is gone', async () => {
    const { port, child } = await startHttpServer('streamableHttp');
    const tools = await start({ name: 'flaky', source: '.mcp.json', type: 'http', url: `http://127.0.0.1:${port}/mcp`, headers: {} });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const outcome = await tools.execute({ id: '1', name: 'mcp__flaky__echo', input: { message: 'x' } }, signal);
    expect(outcome.isError).toBe(true);
    expect(outcomeText(outcome)).toMatch(/^MCP server "flaky": echo failed: fetch failed \(connect ECONNREFUSED /);
  });

  it('reports a URL where nothing listens as a failure', async () => {
    const port = await freePort();
    const logs: string[] = [];
    const tools = await start({ name: 'nobody', source: 'x.json', type: 'http', url: `http://127.0.0.1:${port}/mcp`, headers: {} }, logs);
    expect(tools.specs()).toEqual([]);
    expect(tools.failures).toHaveLength(1);
    expect(tools.failures[0]?.server).toBe('nobody');
    expect(tools.failures[0]?.reason).toMatch(/^fetch failed \(connect ECONNREFUSED 127\.0\.0\.1:\d+\)$/);
    expect(logs.join('\n')).toMatch(/MCP server "nobody" \(x\.json\) failed to start: /);
  });
});

describe('server-everything over SSE', () => {
  it('lists and calls tools', async () => {
    const { port } = await startHttpServer('sse');
    const tools = await start({ name: 'legacy', source: '.mcp.json', type: 'sse', url: `http://127.0.0.1:${port}/sse`, headers: {} });
    expect(tools.failures).toEqual([]);
    const sum = await tools.execute({ id: '1', name: 'mcp__legacy__get-sum', input: { a: 1, b: 2 } }, signal);
    expect(sum.isError).toBe(false);
    expect(outcomeText(sum)).toContain('3');
  });
});
