import { promises as fs, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runHookCommand, type HookProcessSpec } from '../../../src/tools/hooks/index.js';

let dir: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'run-hook-'));
});

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const spec = (command: string, over: Partial<HookProcessSpec> = {}): HookProcessSpec => ({
  command,
  input: '{"hook_event_name":"Stop"}',
  cwd: dir,
  env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  timeoutMs: 10_000,
  signal: new AbortController().signal,
  ...over,
});

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

async function eventually(check: () => boolean, ms = 2000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return check();
}

async function pidFrom(file: string): Promise<number> {
  return Number((await fs.readFile(path.join(dir, file), 'utf8')).trim());
}

describe('runHookCommand', () => {
  it('passes stdin, keeps stdout and stderr apart, and gives the exit code', async () => {
    const result = await runHookCommand(spec('cat; echo err >&2; exit 3'));
    expect(result).toMatchObject({ exitCode: 3, stdout: '{"hook_event_name":"Stop"}', stderr: 'err\n' });
    expect(result).toMatchObject({ timedOut: false, cancelled: false });
  });

  it('does not source ~/.bashrc, although its stdin is a socket', async () => {
    await fs.writeFile(path.join(dir, '.bashrc'), 'echo SOURCED\n');
    const result = await runHookCommand(
      spec('cat >/dev/null; echo ran', { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir } }),
    );
    expect(result.stdout).toBe('ran\n');
  });

  it('does not mind a hook that never reads stdin', async () => {
    const result = await runHookCommand(spec('echo ok', { input: 'x'.repeat(1_000_000) }));
    expect(result).toMatchObject({ exitCode: 0, stdout: 'ok\n' });
  });

  it('kills the whole process group on timeout', async () => {
    const result = await runHookCommand(spec(`sleep 30 & echo $! > child.pid; wait`, { timeoutMs: 500 }));
    expect(result).toMatchObject({ exitCode: null, timedOut: true });
    const pid = await pidFrom('child.pid');
    expect(await eventually(() => !isAlive(pid))).toBe(true);
  });

  it('kills the group when the signal aborts, and reaps what a finished hook left behind', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const cancelled = await runHookCommand(spec('sleep 30', { signal: controller.signal }));
    expect(cancelled).toMatchObject({ exitCode: null, cancelled: true, timedOut: false });

    const finished = await runHookCommand(spec('sleep 30 >/dev/null 2>&1 & echo $! > left.pid'));
    expect(finished.exitCode).toBe(0);
    const pid = await pidFrom('left.pid');
    expect(await eventually(() => !isAlive(pid))).toBe(true);
  });

  it('caps output', async () => {
    const result = await runHookCommand(spec('head -c 100000 /dev/zero | tr "\\0" a', { outputLimit: 1000 }));
    expect(result.stdout.length).toBeLessThan(1200);
    expect(result.stdout).toContain('characters cut from the middle');
  });

  it('reports a command that cannot start instead of throwing', async () => {
    expect(await runHookCommand(spec('true', { wrap: () => [] }))).toMatchObject({ exitCode: null, startError: expect.any(String) });
    expect(await runHookCommand(spec('true', { cwd: path.join(dir, 'missing') }))).toMatchObject({ startError: expect.any(String) });
  });
});
