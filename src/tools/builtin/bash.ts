import { spawn, type ChildProcess } from 'node:child_process';
import * as z from '../../core/schema.js';
import { CappedCollector } from '../output.js';
import { defineTool, ToolError, type ToolDefinition } from '../tool.js';
import { killGroup, settle } from '../process-group.js';

const DEFAULT_TIMEOUT_MS = 120_000;
const MAX_TIMEOUT_MS = 600_000;

export interface BashToolOptions {
  /** Turns the argv to run into the argv that runs it, e.g. inside bubblewrap. */
  wrap?: (argv: string[]) => string[];
  /** How long output may still arrive after the command itself exits, in ms. */
  settleMs?: number;
  /** Between SIGTERM and SIGKILL when a command is stopped, in ms. */
  killGraceMs?: number;
}

export type Ending = { kind: 'exit'; code: number | null; signal: NodeJS.Signals | null } | { kind: 'timeout' } | { kind: 'cancelled' };

export interface RunSpec {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  signal: AbortSignal;
  outputLimit: number;
  settleMs: number;
  killGraceMs: number;
}

const schema = z.object({
  command: z.string().check(z.minLength(1), z.describe('The bash command to run.')),
  timeout: z
    .optional(z.number().check(z.int(), z.minimum(1), z.maximum(MAX_TIMEOUT_MS)))
    .check(z.describe(`Milliseconds before the command is killed (default ${DEFAULT_TIMEOUT_MS}, max ${MAX_TIMEOUT_MS}).`)),
  description: z.optional(z.string()).check(z.describe('What the command does in 5-10 words, shown to the people following the run.')),
});

/** Resolves when the main process exits, stopping the group first on timeout or cancellation. */
function waitForExit(child: ChildProcess, spec: RunSpec): Promise<Ending> {
  return new Promise((resolve, reject) => {
    let forced: Ending | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    const stop = (why: Ending): void => {
      if (forced) return;
      forced = why;
      killGroup(child.pid, 'SIGTERM');
      killTimer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), spec.killGraceMs);
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
      reject(new ToolError(`Could not start the command: ${error.message}`));
    });
    child.once('exit', (code, signal) => {
      cleanup();
      resolve(forced ?? { kind: 'exit', code, signal });
    });
  });
}

/** One command in its own process group, stdin closed, output capped; also what `verify` runs with. */
export async function runProcess(spec: RunSpec): Promise<{ output: string; ending: Ending }> {
  const [file, ...args] = spec.argv;
  if (file === undefined) throw new ToolError('The sandbox produced an empty command line.');
  // detached: the command leads its own process group, so one kill reaches everything it started.
  const child = spawn(file, args, { cwd: spec.cwd, env: spec.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const collector = new CappedCollector(spec.outputLimit);
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => collector.push(chunk));
  }
  try {
    const ending = await waitForExit(child, spec);
    await settle(closed, spec.settleMs);
    return { output: collector.text(), ending };
  } finally {
    // Reap whatever the command left running and let go of pipes it may still hold.
    killGroup(child.pid, 'SIGKILL');
    child.stdout?.destroy();
    child.stderr?.destroy();
  }
}

function describeEnding(output: string, ending: Ending, timeoutMs: number): string {
  const body = output.length > 0 ? output.replace(/\n$/, '') : '(no output)';
  switch (ending.kind) {
    case 'exit':
      return ending.code !== null ? `${body}\nexit code ${ending.code}` : `${body}\nterminated by signal ${ending.signal}`;
    case 'timeout':
      throw new ToolError(
        `${body}\nkilled after timeout of ${timeoutMs} ms. Give a larger timeout (max ${MAX_TIMEOUT_MS}), ` +
          'or run a faster or narrower command.',
      );
    case 'cancelled':
      throw new ToolError(`${body}\ncancelled`);
  }
}

/** The Bash tool; opts.wrap slots a sandbox around every command. */
export function createBashTool(opts: BashToolOptions = {}): ToolDefinition<typeof schema> {
  const { wrap = (argv: string[]) => argv, settleMs = 150, killGraceMs = 300 } = opts;
  return defineTool({
    name: 'Bash',
    description:
      'Runs a bash command in the workspace root and returns its output (stdout and stderr together) and ' +
      'exit code. Each call starts a fresh shell: cd and variables do not carry over, so chain with && ' +
      'when needed. There is no terminal: stdin is closed and prompts, editors and pagers are disabled, so ' +
      'pass non-interactive flags (e.g. -y). Processes left in the background are stopped when the command ' +
      'returns. Long output keeps its start and end only. Prefer Read, Edit, Write, Glob and Grep for files.',
    schema,
    readOnly: false,
    keyArgument: 'command',
    async run(input, ctx) {
      if (ctx.signal.aborted) throw new ToolError('Cancelled before the command started.');
      const timeoutMs = input.timeout ?? DEFAULT_TIMEOUT_MS;
      const { output, ending } = await runProcess({
        argv: wrap(['bash', '-c', input.command]),
        cwd: ctx.workspace.root,
        env: ctx.env,
        timeoutMs,
        signal: ctx.signal,
        outputLimit: ctx.outputLimit,
        settleMs,
        killGraceMs,
      });
      return describeEnding(output, ending, timeoutMs);
    },
  });
}

export const bashTool = createBashTool();
