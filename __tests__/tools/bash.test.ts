import { promises as fs, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bashTool } from '../../src/tools/builtin/bash.js';
import { toolEnvironment } from '../../src/tools/env.js';
import { executeToolCall, type ToolContext, type ToolResult } from '../../src/tools/tool.js';
import { Workspace } from '../../src/tools/workspace.js';

let root: string;
let ctx: ToolContext;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'bash-'));
  const workspace = await Workspace.open(root, { runnerTemp: '' });
  ctx = { workspace, signal: new AbortController().signal, env: toolEnvironment(process.env), outputLimit: 30_000 };
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const bash = (input: unknown): Promise<ToolResult> => executeToolCall(new Map([['Bash', bashTool]]), 'Bash', input, ctx);

/** A zombie still answers kill(pid, 0), so look at its state too. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function pidFrom(file: string): Promise<number> {
  return Number((await fs.readFile(path.join(root, file), 'utf8')).trim());
}

async function eventually(check: () => boolean, ms = 1000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return check();
}

describe('Bash', () => {
  it('returns output and the exit code, and a failing command is not a tool error', async () => {
    const ok = await bash({ command: 'echo hi; echo err >&2' });
    expect(ok.isError).toBe(false);
    expect(ok.content).toContain('hi');
    expect(ok.content).toContain('err');
    expect(ok.content).toMatch(/exit code 0$/);
    const failed = await bash({ command: 'echo nope; exit 3' });
    expect(failed).toMatchObject({ isError: false, content: 'nope\nexit code 3', failure: 'Exit code 3\nnope' });
    expect('failure' in ok).toBe(false);
    expect(await ok.hookResponse?.()).toEqual({
      stdout: 'hi\nerr',
      stderr: '',
      interrupted: false,
      isImage: false,
      noOutputExpected: false,
    });
  });

  it('runs in the workspace root', async () => {
    const result = await bash({ command: 'pwd' });
    expect(result.content).toContain(ctx.workspace.root);
  });

  it('closes stdin so a read returns at once', async () => {
    const started = Date.now();
    const result = await bash({ command: 'read x; echo "rc=$?"' });
    expect(result.content).toContain('rc=1');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('kills the whole process group on timeout', async () => {
    const result = await bash({ command: 'sleep 30 & echo $! > child.pid; wait', timeout: 500 });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('killed after timeout of 500 ms');
    const pid = await pidFrom('child.pid');
    expect(await eventually(() => !isAlive(pid))).toBe(true);
  });

  it('does not wait for a background process that holds the pipes, and reaps it', async () => {
    const started = Date.now();
    const result = await bash({ command: 'sleep 600 & echo $! > bg.pid; echo started' });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(result.content).toBe('started\nexit code 0');
    const pid = await pidFrom('bg.pid');
    expect(await eventually(() => !isAlive(pid))).toBe(true);
  });

  it('stops the command when the run is cancelled', async () => {
    const controller = new AbortController();
    ctx.signal = controller.signal;
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    const result = await bash({ command: 'sleep 30 & echo $! > c.pid; wait' });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(result).toMatchObject({ isError: true, content: expect.stringContaining('cancelled') });
    const pid = await pidFrom('c.pid');
    expect(await eventually(() => !isAlive(pid))).toBe(true);
  });

  it('caps 5 MB of output keeping head and tail and stating the cut', async () => {
    ctx.outputLimit = 10_000;
    const result = await bash({ command: "head -c 5000000 /dev/zero | tr '\\0' a; echo END" });
    expect(result.content.startsWith('a'.repeat(5000))).toBe(true);
    expect(result.content).toContain(`[... ${5_000_004 - 10_000} characters cut from the middle ...]`);
    expect(result.content).toMatch(/aaaaEND\nexit code 0$/);
  });

  it('does not show the action secrets to commands', async () => {
    const source = { ...process.env, ANTHROPIC_API_KEY: 'sk-ant-test-secret', GITHUB_TOKEN: 'ghp_testsecret' };
    ctx.env = toolEnvironment(source);
    const result = await bash({ command: 'env' });
    expect(result.content).not.toContain('sk-ant-test-secret');
    expect(result.content).not.toContain('ghp_testsecret');
    expect(result.content).not.toContain('ANTHROPIC_API_KEY');
    expect(result.content).toContain('GIT_TERMINAL_PROMPT=0');
  });

  it('rejects a timeout above the maximum as invalid input', async () => {
    const result = await bash({ command: 'true', timeout: 700_000 });
    expect(result).toMatchObject({ isError: true, content: expect.stringContaining('Invalid input for Bash') });
  });
});
