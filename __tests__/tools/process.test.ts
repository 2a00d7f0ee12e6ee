import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runProcess, type ProcessSpec } from '../../src/tools/process.js';

function spec(argv: string[], extra: Partial<ProcessSpec> = {}): ProcessSpec {
  return {
    argv,
    cwd: os.tmpdir(),
    env: { PATH: process.env.PATH ?? '' },
    timeoutMs: 10_000,
    signal: new AbortController().signal,
    outputLimit: 10_000,
    ...extra,
  };
}

describe('runProcess: the one way Bash, hooks and verify run a command', () => {
  it('keeps stdout and stderr together by default, apart when split', async () => {
    const together = await runProcess(spec(['bash', '-c', 'echo out; echo err >&2']));
    expect(together.output).toBe('out\nerr\n');
    expect(together.stderr).toBe('');
    const apart = await runProcess(spec(['bash', '-c', 'echo out; echo err >&2'], { split: true }));
    expect(apart).toMatchObject({ output: 'out\n', stderr: 'err\n', ending: { kind: 'exit', code: 0 } });
  });

  it('writes input to stdin and closes it; without input stdin is empty', async () => {
    const fed = await runProcess(spec(['bash', '--norc', '-c', 'cat; echo " done"'], { input: '{"event":1}' }));
    expect(fed.output).toBe('{"event":1} done\n');
    const empty = await runProcess(spec(['bash', '-c', 'wc -c']));
    expect(empty.output.trim()).toBe('0');
  });

  it('reports a command that cannot start as an ending, not an exception', async () => {
    const result = await runProcess(spec(['/nonexistent/binary']));
    expect(result.ending.kind).toBe('error');
    const empty = await runProcess(spec([]));
    expect(empty.ending).toEqual({ kind: 'error', message: 'the sandbox produced an empty command line' });
  });

  it('stops the whole process group on timeout: a background child never writes its marker', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'process-'));
    const marker = path.join(dir, 'marker');
    const result = await runProcess(spec(['bash', '-c', `(sleep 1; touch ${marker}) & sleep 30`], { timeoutMs: 200, killGraceMs: 50 }));
    expect(result.ending.kind).toBe('timeout');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await expect(fs.access(marker)).rejects.toThrow();
  });

  it('stops on cancellation, and does not start when already cancelled', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const stopped = await runProcess(spec(['sleep', '30'], { signal: controller.signal, killGraceMs: 50 }));
    expect(stopped.ending.kind).toBe('cancelled');
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'process-'));
    const marker = path.join(dir, 'marker');
    const never = await runProcess(spec(['touch', marker], { signal: controller.signal }));
    expect(never.ending.kind).toBe('cancelled');
    await expect(fs.access(marker)).rejects.toThrow();
  });

  it('caps output while it arrives', async () => {
    const result = await runProcess(spec(['bash', '-c', 'head -c 100000 /dev/zero | tr "\\0" a'], { outputLimit: 1000 }));
    expect(result.output.length).toBeLessThan(2000);
    expect(result.ending).toMatchObject({ kind: 'exit', code: 0 });
  });
});
