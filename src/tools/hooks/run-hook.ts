import { spawn, type ChildProcess } from 'node:child_process';
import { CappedCollector } from '../output.js';
import { killGroup, settle } from '../process-group.js';

/** Characters kept of each of stdout and stderr: a hook's answer is small, a runaway one must not fill memory. */
export const HOOK_OUTPUT_LIMIT = 64 * 1024;

/** One hook command to run, the way the Bash tool runs commands. */
export interface HookProcessSpec {
  command: string;
  /** Written to stdin, which is then closed: the event's JSON. */
  input: string;
  cwd: string;
  env: Record<string, string>;
  /** Turns the argv to run into the argv that runs it, e.g. inside the sandbox (same as Bash's). */
  wrap?: (argv: string[]) => string[];
  timeoutMs: number;
  signal: AbortSignal;
  /** Characters kept of each stream (default HOOK_OUTPUT_LIMIT). */
  outputLimit?: number;
  /** How long output may still arrive after the command itself exits, in ms (default 150). */
  settleMs?: number;
  /** Between SIGTERM and SIGKILL when a hook is stopped, in ms (default 300). */
  killGraceMs?: number;
}

/** How one hook run ended. Failures to start are results too: runHookCommand never throws. */
export interface HookProcessResult {
  /** Null when a signal ended the process, or it never started. */
  exitCode: number | null;
  exitSignal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  cancelled: boolean;
  /** Why the command could not be started at all. */
  startError?: string;
  ms: number;
}

type Ending =
  | { kind: 'exit'; code: number | null; signal: NodeJS.Signals | null }
  | { kind: 'timeout' }
  | { kind: 'cancelled' }
  | { kind: 'error'; message: string };

/** Resolves when the main process exits (or fails to start), stopping the group first on timeout or abort. */
function waitForExit(child: ChildProcess, spec: HookProcessSpec, killGraceMs: number): Promise<Ending> {
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

function notStarted(started: number, message: string, cancelled = false): HookProcessResult {
  return {
    exitCode: null,
    exitSignal: null,
    stdout: '',
    stderr: '',
    timedOut: false,
    cancelled,
    startError: message,
    ms: Date.now() - started,
  };
}

function collect(stream: NodeJS.ReadableStream | null, limit: number): CappedCollector {
  const collector = new CappedCollector(limit);
  stream?.setEncoding('utf8');
  stream?.on('data', (chunk: string) => collector.push(chunk));
  return collector;
}

/** Runs `bash --norc -c command` in its own process group with input on stdin; the group is gone when this resolves. */
export async function runHookCommand(spec: HookProcessSpec): Promise<HookProcessResult> {
  const started = Date.now();
  const { outputLimit = HOOK_OUTPUT_LIMIT, settleMs = 150, killGraceMs = 300 } = spec;
  if (spec.signal.aborted) return notStarted(started, 'cancelled before it started', true);
  // --norc: Node's stdin pipe is a socketpair, and Debian's bash sources ~/.bashrc when stdin is a
  // socket (it takes that for rshd/sshd). The Bash tool's stdin is /dev/null, so its commands never do.
  const [file, ...args] = (spec.wrap ?? ((argv: string[]) => argv))(['bash', '--norc', '-c', spec.command]);
  if (file === undefined) return notStarted(started, 'the sandbox produced an empty command line');
  let child: ChildProcess;
  try {
    // detached: the hook leads its own process group, so one kill reaches everything it started.
    child = spawn(file, args, { cwd: spec.cwd, env: spec.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  } catch (error) {
    return notStarted(started, error instanceof Error ? error.message : String(error));
  }
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const stdout = collect(child.stdout, outputLimit);
  const stderr = collect(child.stderr, outputLimit);
  // A hook that never reads stdin closes the pipe early; EPIPE then is no failure of the hook.
  child.stdin?.on('error', () => undefined);
  child.stdin?.end(spec.input);
  try {
    const ending = await waitForExit(child, spec, killGraceMs);
    if (ending.kind === 'error') return notStarted(started, ending.message);
    await settle(closed, settleMs);
    return {
      exitCode: ending.kind === 'exit' ? ending.code : null,
      exitSignal: ending.kind === 'exit' ? ending.signal : null,
      stdout: stdout.text(),
      stderr: stderr.text(),
      timedOut: ending.kind === 'timeout',
      cancelled: ending.kind === 'cancelled',
      ms: Date.now() - started,
    };
  } finally {
    // Reap whatever the hook left running and let go of pipes it may still hold.
    killGroup(child.pid, 'SIGKILL');
    child.stdin?.destroy();
    child.stdout?.destroy();
    child.stderr?.destroy();
  }
}
