// One way to run a child command for Bash, hooks and verify: the command leads its own process
// group (spawned detached), so one signal reaches everything it started and what it leaves behind
// is reaped; it is stopped on timeout or cancellation (SIGTERM, then SIGKILL after a grace), its
// output is capped while it arrives, and a failure to start is a result, not an exception.
import { spawn, type ChildProcess } from 'node:child_process';
import { CappedCollector } from './output.js';

export type Ending =
  | { kind: 'exit'; code: number | null; signal: NodeJS.Signals | null }
  | { kind: 'timeout' }
  | { kind: 'cancelled' }
  | { kind: 'error'; message: string };

export interface ProcessSpec {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  signal: AbortSignal;
  /** Characters kept of the output (of each stream when `split`). */
  outputLimit: number;
  /** Written to stdin, which is then closed; without it stdin is /dev/null. */
  input?: string | undefined;
  /** Keep stdout and stderr apart (hooks answer on stdout); by default they are one stream, as in a terminal. */
  split?: boolean | undefined;
  /** How long output may still arrive after the command itself exits, in ms (default 150). */
  settleMs?: number | undefined;
  /** Between SIGTERM and SIGKILL when a command is stopped, in ms (default 300). */
  killGraceMs?: number | undefined;
}

export interface ProcessResult {
  ending: Ending;
  /** Everything the command wrote, or its stdout alone when `split`. */
  output: string;
  /** Its stderr when `split`, else empty. */
  stderr: string;
  ms: number;
}

/** Signals a whole process group; a group that has already gone is fine. */
export function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: every process of the group has already exited.
  }
}

/** Waits for the pipes to close, but at most ms: a background process may hold them forever. */
function settle(closed: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return Promise.race([closed, timeout]).finally(() => clearTimeout(timer));
}

/** Resolves when the main process exits (or fails to start), stopping the group first on timeout or abort. */
function waitForExit(child: ChildProcess, spec: ProcessSpec, killGraceMs: number): Promise<Ending> {
  return new Promise((resolve) => {
    let forced: Ending | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    const stop = (why: Ending): void => {
      if (forced) return;
      forced = why;
      killGroup(child.pid, 'SIGTERM');
      killTimer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), killGraceMs);
    };
    const timer = setTimeout(() => stop({ kind: 'timeout' }), spec.timeoutMs);
    const onAbort = (): void => stop({ kind: 'cancelled' });
    spec.signal.addEventListener('abort', onAbort, { once: true });
    const cleanup = (): void => {
      clearTimeout(timer);
      clearTimeout(killTimer);
      spec.signal.removeEventListener('abort', onAbort);
    };
    child.once('error', (error) => {
      cleanup();
      resolve({ kind: 'error', message: error.message });
    });
    child.once('exit', (code, signal) => {
      cleanup();
      resolve(forced ?? { kind: 'exit', code, signal });
    });
  });
}

function collectInto(collector: CappedCollector, stream: NodeJS.ReadableStream | null): void {
  stream?.setEncoding('utf8');
  stream?.on('data', (chunk: string) => collector.push(chunk));
}

/** Runs one command; when this resolves its process group is gone and its pipes are let go. */
export async function runProcess(spec: ProcessSpec): Promise<ProcessResult> {
  const started = Date.now();
  const { settleMs = 150, killGraceMs = 300 } = spec;
  const failed = (ending: Ending): ProcessResult => ({ ending, output: '', stderr: '', ms: Date.now() - started });
  if (spec.signal.aborted) return failed({ kind: 'cancelled' });
  const [file, ...args] = spec.argv;
  if (file === undefined) return failed({ kind: 'error', message: 'the sandbox produced an empty command line' });
  let child: ChildProcess;
  try {
    const stdin = spec.input === undefined ? 'ignore' : 'pipe';
    child = spawn(file, args, { cwd: spec.cwd, env: spec.env, stdio: [stdin, 'pipe', 'pipe'], detached: true });
  } catch (error) {
    return failed({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
  }
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const output = new CappedCollector(spec.outputLimit);
  const stderr = spec.split ? new CappedCollector(spec.outputLimit) : output;
  collectInto(output, child.stdout);
  collectInto(stderr, child.stderr);
  if (spec.input !== undefined) {
    // A command that never reads stdin closes the pipe early; EPIPE then is no failure of it.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(spec.input);
  }
  try {
    const ending = await waitForExit(child, spec, killGraceMs);
    if (ending.kind !== 'error') await settle(closed, settleMs);
    return { ending, output: output.text(), stderr: spec.split ? stderr.text() : '', ms: Date.now() - started };
  } finally {
    // Reap whatever the command left running and let go of pipes it may still hold.
    killGroup(child.pid, 'SIGKILL');
    child.stdin?.destroy();
    child.stdout?.destroy();
    child.stderr?.destroy();
  }
}
