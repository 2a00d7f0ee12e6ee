// Starting, failing and ending stdio servers: failures within the timeout, no process left behind.
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { outcomeText } from '../../../src/core/tools.js';
import { startMcpServers, type McpStartOptions, type McpToolSet, type ResolvedServer } from '../../../src/tools/mcp/index.js';

const EVERYTHING = path.join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const FILESYSTEM = path.join(process.cwd(), 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const signal = new AbortController().signal;
const open: McpToolSet[] = [];

interface Row {
  pid: number;
  pgid: number;
  stat: string;
  args: string;
}

/** Live (not zombie) processes, from ps. */
function processes(): Row[] {
  const out = execFileSync('ps', ['-eo', 'pid=,pgid=,stat=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line))
    .flatMap((m) => (m ? [{ pid: Number(m[1]), pgid: Number(m[2]), stat: m[3] ?? '', args: m[4] ?? '' }] : []))
    .filter((row) => !row.stat.startsWith('Z'));
}

/** Every process in the groups of processes whose command line holds marker. */
function groupOf(marker: string): Row[] {
  const rows = processes();
  const groups = new Set(rows.filter((row) => row.args.includes(marker)).map((row) => row.pgid));
  return rows.filter((row) => groups.has(row.pgid));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return processes().some((row) => row.pid === pid);
}

function stdio(name: string, command: string, args: string[], env: Record<string, string> = {}): ResolvedServer {
  return { name, source: '.mcp.json', type: 'stdio', command, args, env };
}

async function start(servers: ResolvedServer[], extra: Partial<McpStartOptions> = {}, logs: string[] = []): Promise<McpToolSet> {
  const tools = await startMcpServers(servers, {
    env: process.env,
    log: (m) => logs.push(m),
    outputLimit: 5000,
    cwd: process.cwd(),
    ...extra,
  });
  open.push(tools);
  return tools;
}

function marker(label: string): string {
  return `mcp-test-${label}-${process.pid}-${Date.now()}`;
}

afterAll(async () => {
  await Promise.all(open.map((tools) => tools.close()));
});

describe('stdio servers', () => {
  it('reports a missing command, a crash and a server that never answers within the timeout, while a good one works', async () => {
    const hang = marker('hang');
    const logs: string[] = [];
    const started = Date.now();
    const tools = await start(
      [
        stdio('good', 'node', [EVERYTHING, 'stdio']),
        stdio('missing', 'definitely-not-a-command-7f3a', ['--stdio']),
        stdio('crash', 'node', ['-e', 'console.error("boom: bad config"); process.exit(3)']),
        stdio('silent', 'node', ['-e', 'setInterval(() => {}, 1e9)', hang]),
      ],
      { connectTimeoutMs: 1500 },
      logs,
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(tools.failures.map((f) => f.server)).toEqual(['missing', 'crash', 'silent']);
    const reasons = Object.fromEntries(tools.failures.map((f) => [f.server, f.reason]));
    expect(reasons.missing).toMatch(/^cannot start "definitely-not-a-command-7f3a": spawn definitely-not-a-command-7f3a ENOENT/);
    expect(reasons.crash).toMatch(/exited with code 3; stderr: boom: bad config/);
    expect(reasons.silent).toBe('no answer to initialize and tools/list within 1.5 s');
    expect(logs).toContain(`MCP server "silent" (.mcp.json) failed to start: ${reasons.silent}`);
    // The silent server was ended when it was given up on, not left running.
    expect(groupOf(hang)).toEqual([]);
    expect(tools.specs().every((s) => s.name.startsWith('mcp__good__'))).toBe(true);
    expect((await tools.execute({ id: '1', name: 'mcp__good__echo', input: { message: 'ok' } }, signal)).content).toBe('Echo: ok');
    expect(await tools.execute({ id: '2', name: 'mcp__silent__anything', input: {} }, signal)).toEqual({
      content: `MCP server "silent" is not available: it failed to start (${reasons.silent})`,
      isError: true,
    });
  });
});

describe('server-filesystem over stdio', () => {
  it('lists and reads files on a temp dir', async () => {
    const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-fs-')));
    await fs.writeFile(path.join(dir, 'notes.txt'), 'first line\nsecond line\n');
    await fs.mkdir(path.join(dir, 'sub'));
    const tools = await start([stdio('fs', 'node', [FILESYSTEM, dir])]);
    expect(tools.failures).toEqual([]);
    expect(tools.specs().map((s) => s.name)).toEqual(expect.arrayContaining(['mcp__fs__list_directory', 'mcp__fs__read_text_file']));
    expect(tools.isReadOnly('mcp__fs__read_text_file')).toBe(true);
    expect(tools.isReadOnly('mcp__fs__write_file')).toBe(false);
    const listing = outcomeText(await tools.execute({ id: '1', name: 'mcp__fs__list_directory', input: { path: dir } }, signal));
    expect(listing).toContain('[FILE] notes.txt');
    expect(listing).toContain('[DIR] sub');
    const read = await tools.execute({ id: '2', name: 'mcp__fs__read_text_file', input: { path: path.join(dir, 'notes.txt') } }, signal);
    expect(read).toEqual({ content: 'first line\nsecond line\n', isError: false });
    const outside = await tools.execute({ id: '3', name: 'mcp__fs__read_text_file', input: { path: '/etc/hostname' } }, signal);
    expect(outside.isError).toBe(true);
    await tools.close();
    await fs.rm(dir, { recursive: true, force: true });
  });
});

describe('tool limits', () => {
  it('offers at most maxToolsPerServer tools of a server and logs the rest', async () => {
    const logs: string[] = [];
    const tools = await start([stdio('many', 'node', [EVERYTHING, 'stdio'])], { maxToolsPerServer: 3 }, logs);
    expect(tools.specs()).toHaveLength(3);
    expect(logs).toContainEqual(expect.stringMatching(/^MCP server "many" lists \d+ tools; only the first 3 are offered$/));
    await tools.close();
  });
});

describe('ending stdio servers', () => {
  it('ends the whole process group of a server started through npx, and close() is idempotent', async () => {
    const label = marker('npx');
    const tools = await start([stdio('viaNpx', 'npx', ['-y', '@modelcontextprotocol/server-everything', 'stdio', label])]);
    expect(tools.failures).toEqual([]);
    const group = groupOf(label);
    // npm exec, then the server itself (through sh on some npm versions): more than the process spawned.
    expect(group.length).toBeGreaterThanOrEqual(2);
    expect(group.some((row) => row.args.includes('server-everything/dist/index.js') || row.args.includes('mcp-server-everything'))).toBe(
      true,
    );
    await Promise.all([tools.close(), tools.close()]);
    await tools.close();
    for (const row of group) expect(alive(row.pid)).toBe(false);
    expect(groupOf(label)).toEqual([]);
  });

  it('gives an is_error result naming the server after the server died', async () => {
    const label = marker('dies');
    const tools = await start([stdio('mortal', 'node', [EVERYTHING, 'stdio', label])]);
    const [server] = groupOf(label);
    if (!server) throw new Error('server process not found');
    process.kill(server.pid, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const outcome = await tools.execute({ id: '1', name: 'mcp__mortal__echo', input: { message: 'x' } }, signal);
    expect(outcome.isError).toBe(true);
    // With the tail of its stderr, which usually says why a server stopped.
    expect(outcome.content).toBe(
      'MCP server "mortal" is not running (the connection closed; killed by SIGKILL; stderr: Starting default (STDIO) server...)',
    );
  });

  it('stops starting servers when the start signal aborts', async () => {
    const label = marker('aborted');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    const tools = await start([stdio('slow', 'node', ['-e', 'setInterval(() => {}, 1e9)', label])], { signal: controller.signal });
    expect(Date.now() - started).toBeLessThan(4000);
    expect(tools.failures).toEqual([{ server: 'slow', reason: 'startup was cancelled' }]);
    expect(groupOf(label)).toEqual([]);
  });
});
