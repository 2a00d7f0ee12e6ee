import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { prepareSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createBashTool } from '../../src/tools/builtin/bash.js';
import { toolEnvironment } from '../../src/tools/env.js';
import { executeToolCall, type ToolContext, type ToolResult } from '../../src/tools/tool.js';
import { Workspace } from '../../src/tools/workspace.js';

// Commands that would run forever at a terminal; each call must come back within BOUND_MS.
const BOUND_MS = 8000;
const OUTPUT_LIMIT = 10_000;
const PROCESS_LIMIT = 256;

let root: string;
let sandbox: Sandbox;
let ctx: ToolContext;

function git(...args: string[]): void {
  execFileSync('git', args, { cwd: root, stdio: 'ignore' });
}

async function makeRepo(): Promise<void> {
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Test');
  git('config', 'user.email', 'test@example.com');
  for (const n of [1, 2]) {
    await fs.writeFile(path.join(root, 'somefile'), `line ${n}\n`);
    git('add', 'somefile');
    git('commit', '-q', '-m', `commit ${n}`);
  }
}

beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'hanging-')));
  await makeRepo();
  const env = toolEnvironment(process.env);
  sandbox = await prepareSandbox({ mode: 'auto', network: 'on', workspace: root, env, processLimit: PROCESS_LIMIT });
  ctx = { workspace: await Workspace.open(root, { runnerTemp: '' }), signal: new AbortController().signal, env, outputLimit: OUTPUT_LIMIT };
  console.log(`hanging tests ran ${sandbox.kind === 'bubblewrap' ? 'SANDBOXED' : 'WITHOUT a sandbox'}: ${sandbox.description}`);
});

afterAll(async () => {
  await sandbox.dispose();
  await fs.rm(root, { recursive: true, force: true });
});

async function timed(command: string, timeout: number): Promise<{ result: ToolResult; ms: number }> {
  const started = Date.now();
  const result = await executeToolCall(new Map([['Bash', createBashTool({ wrap: sandbox.wrap })]]), 'Bash', { command, timeout }, ctx);
  const ms = Date.now() - started;
  expect(ms).toBeLessThan(BOUND_MS);
  return { result, ms };
}

/** Host pids whose command line contains marker; the sandbox's processes are visible from outside. */
function pidsMatching(marker: string): string[] {
  const found = spawnSync('pgrep', ['-f', marker], { encoding: 'utf8' });
  return found.stdout.split('\n').filter(Boolean);
}

async function eventually(check: () => boolean, ms = 3000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

const marker = (name: string): string => `${name}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

describe('commands that would hang', () => {
  it('yes: killed at the timeout, output capped, memory bounded', async () => {
    const rssBefore = process.memoryUsage().rss;
    const { result } = await timed('yes', 1000);
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/killed after timeout of 1000 ms/);
    expect(result.content).toMatch(/characters cut from the middle/);
    expect(result.content.length).toBeLessThan(OUTPUT_LIMIT + 500);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(512 * 1024 * 1024);
  });

  it('cat /dev/zero: killed at the timeout, output capped', async () => {
    const { result } = await timed('cat /dev/zero', 1000);
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/killed after timeout of 1000 ms/);
    expect(result.content.length).toBeLessThan(OUTPUT_LIMIT + 500);
  });

  it('read x: stdin is closed, so it returns at once', async () => {
    const { result, ms } = await timed('read x; echo "read=$?"', 5000);
    expect(result.content).toContain('read=1');
    expect(ms).toBeLessThan(2000);
  });

  it('git rebase -i: the sequence editor does not wait for a human', async () => {
    const { result, ms } = await timed('git rebase -i HEAD~1', 5000);
    expect(result.content).toMatch(/Successfully rebased|up to date/);
    expect(result.content).toMatch(/exit code 0$/);
    expect(ms).toBeLessThan(3000);
  });

  it('git commit without -m: aborts on the empty message instead of waiting in an editor', async () => {
    const { result, ms } = await timed('echo change >> somefile && git commit -a', 5000);
    expect(result.content).toMatch(/Aborting commit due to empty commit message/);
    expect(result.content).toMatch(/exit code 1$/);
    expect(ms).toBeLessThan(3000);
  });

  it('less: without a terminal it prints the file and exits', async () => {
    const { result } = await timed('less somefile', 5000);
    expect(result.content).toMatch(/^line 2\n(change\n)?exit code 0$/);
  });

  it('vim: returns, at the latest when the timeout kills it', async () => {
    const editor = ['vim', 'vi'].find((name) => spawnSync('sh', ['-c', `command -v ${name}`]).status === 0);
    if (editor === undefined) {
      console.log('vim test: neither vim nor vi is installed here, so there is no editor to hang on');
      return;
    }
    const { result } = await timed(`${editor} somefile`, 1500);
    expect(result.content).toMatch(/killed after timeout of 1500 ms|exit code \d+$/);
  });

  it('sleep 600 &: returns at once and the sleep is killed afterwards', async () => {
    // A unique duration makes the sleep findable from the host by its command line.
    const duration = `600.${process.pid}${Math.floor(Math.random() * 1000)}`;
    const { result, ms } = await timed(`sleep ${duration} & echo started`, 5000);
    expect(result.content).toBe('started\nexit code 0');
    expect(ms).toBeLessThan(3000);
    expect(await eventually(() => pidsMatching(`sleep ${duration}`).length === 0)).toBe(true);
  });

  it('a fork bomb: held under the process limit, stopped at the timeout, nothing left behind', async () => {
    if (!sandbox.processesLimited) {
      // Without a ceiling the bomb would exhaust the machine's pids, so it is not set off.
      console.log(`fork bomb test not run, no process limit applies: ${sandbox.description}`);
      expect(sandbox.description).toMatch(/WITHOUT a sandbox|no process limit/);
      return;
    }
    const tag = marker('forkbomb');
    let peak = 0;
    const sampler = setInterval(() => {
      execFile('pgrep', ['-c', '-f', tag], (_, stdout) => {
        peak = Math.max(peak, Number(stdout.trim()) || 0);
      });
    }, 100);
    try {
      // The trailing sleep keeps the first shell alive, so the bomb grows until the timeout.
      const { result } = await timed(`: ${tag}; :(){ :|:& };:; sleep 30`, 3000);
      expect(result.content).toMatch(/killed after timeout of 3000 ms/);
    } finally {
      clearInterval(sampler);
    }
    console.log(`fork bomb peaked at ${peak} processes (limit ${PROCESS_LIMIT})`);
    expect(peak).toBeGreaterThan(10);
    expect(peak).toBeLessThanOrEqual(PROCESS_LIMIT);
    expect(await eventually(() => pidsMatching(tag).length === 0)).toBe(true);
  });
});
