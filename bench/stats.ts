import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * The environment every timed child gets: no NODE_EXTRA_CA_CERTS (it alone adds 40-60 ms to a
 * node start on some machines) and nothing else inherited, so the baseline and the subject pay the same.
 */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: process.env['HOME'] ?? '/tmp', LANG: 'C.UTF-8', ...extra };
}

/** Milliseconds from spawn to exit. */
export function timeProcess(args: string[], env: Record<string, string>, cwd?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env, cwd, stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', () => resolve(performance.now() - started));
  });
}

/** Runs a child and samples its peak resident memory (VmHWM) until it exits. */
export function peakMemory(args: string[], env: Record<string, string>, cwd?: string): Promise<{ peakMb: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env, cwd, stdio: 'ignore' });
    let peakKb = 0;
    const sample = () => {
      try {
        const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) peakKb = Math.max(peakKb, Number(m[1]));
      } catch {
        // Gone between two samples.
      }
    };
    const timer = setInterval(sample, 20);
    child.on('error', reject);
    child.on('exit', () => {
      clearInterval(timer);
      resolve({ peakMb: peakKb / 1024, ms: performance.now() - started });
    });
  });
}

export function fmt(ms: number): string {
  return `${ms.toFixed(1)} ms`;
}

export function row(name: string, value: string, ratio = ''): string {
  // bench/both.ts asks for the parts, to lay two nodes' figures side by side.
  if (process.env['BENCH_ROWS'] === 'json') return JSON.stringify({ name, value, ratio });
  return `${name.padEnd(70)} ${value.padStart(12)}  ${ratio}`;
}
