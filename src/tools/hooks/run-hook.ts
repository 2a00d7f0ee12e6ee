import { runProcess } from '../process.js';

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

/** Runs `bash --norc -c command` in its own process group with input on stdin; the group is gone when this resolves. */
export async function runHookCommand(spec: HookProcessSpec): Promise<HookProcessResult> {
  // --norc: Node's stdin pipe is a socketpair, and Debian's bash sources ~/.bashrc when stdin is a
  // socket (it takes that for rshd/sshd). The Bash tool's stdin is /dev/null, so its commands never do.
  const argv = (spec.wrap ?? ((a: string[]) => a))(['bash', '--norc', '-c', spec.command]);
  const { ending, output, stderr, ms } = await runProcess({
    argv,
    cwd: spec.cwd,
    env: spec.env,
    timeoutMs: spec.timeoutMs,
    signal: spec.signal,
    input: spec.input,
    split: true,
    outputLimit: spec.outputLimit ?? HOOK_OUTPUT_LIMIT,
    settleMs: spec.settleMs,
    killGraceMs: spec.killGraceMs,
  });
  const exited = ending.kind === 'exit' ? ending : undefined;
  const result: HookProcessResult = {
    exitCode: exited?.code ?? null,
    exitSignal: exited?.signal ?? null,
    stdout: output,
    stderr,
    timedOut: ending.kind === 'timeout',
    cancelled: ending.kind === 'cancelled',
    ms,
  };
  if (ending.kind === 'error') result.startError = ending.message;
  return result;
}
