import * as z from '../../core/schema.js';
import { runProcess, type Ending } from '../process.js';
import { defineTool, ToolError, type ToolDefinition, type ToolReply } from '../tool.js';
import { bashResponse } from './hook-response.js';

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

const schema = z.object({
  command: z.string().check(z.minLength(1), z.describe('The bash command to run.')),
  timeout: z
    .optional(z.number().check(z.int(), z.minimum(1), z.maximum(MAX_TIMEOUT_MS)))
    .check(z.describe(`Milliseconds before the command is killed (default ${DEFAULT_TIMEOUT_MS}, max ${MAX_TIMEOUT_MS}).`)),
  description: z.optional(z.string()).check(z.describe('What the command does in 5-10 words, shown to the people following the run.')),
});

function describeEnding(output: string, ending: Ending, timeoutMs: number): ToolReply {
  const body = output.length > 0 ? output.replace(/\n$/, '') : '(no output)';
  switch (ending.kind) {
    case 'exit': {
      const text = ending.code !== null ? `${body}\nexit code ${ending.code}` : `${body}\nterminated by signal ${ending.signal}`;
      // A non-zero exit is output the model reads; for hooks it is a failure, as in Claude Code.
      const failure = ending.code === 0 ? undefined : ending.code !== null ? `Exit code ${ending.code}\n${body}` : text;
      return { text, hookResponse: bashResponse(output), ...(failure !== undefined ? { failure } : {}) };
    }
    case 'timeout':
      throw new ToolError(
        `${body}\nkilled after timeout of ${timeoutMs} ms. Give a larger timeout (max ${MAX_TIMEOUT_MS}), ` +
          'or run a faster or narrower command.',
      );
    case 'cancelled':
      throw new ToolError(`${body}\ncancelled`);
    case 'error':
      throw new ToolError(`Could not start the command: ${ending.message}`);
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
    ruleTarget: { kind: 'command' },
    changesWorkspace: true,
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
