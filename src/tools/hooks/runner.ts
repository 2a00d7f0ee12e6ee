// Running Claude Code's command hooks of one event: matched by the settings, in parallel, in the
// sandbox, each one's answer decided; the first stop request is remembered for the caller.
import { randomUUID } from 'node:crypto';
import { capText } from '../output.js';
import { decideHookResult, type HookDecision } from './decision.js';
import { matchingHooks } from './matcher.js';
import type { ToolCall } from '../../core/tools.js';
import { conditionHolds } from './condition.js';
import { runHookCommand } from './run-hook.js';
import { runHttpHook } from './run-http.js';
import { commandLine, DEFAULT_HOOK_TIMEOUT_S, hookLabel, type HookEvent, type HookHandler, type HookSettings } from './schema.js';
import type { Wrap, WrapExtras } from '../../sandbox/types.js';

/** The prefix of every call a PreToolUse hook refused, which the model and the reports can recognise. */
export const HOOK_REFUSED = 'Hook refused:';

/** One hook run, for transcript meta records and progress lines. */
export interface HookRun {
  event: HookEvent;
  command: string;
  /** Null when the hook was killed (timeout, abort) or never started. */
  exitCode: number | null;
  ms: number;
  timedOut: boolean;
  outcome: 'ok' | 'blocked' | 'failed';
}

export interface HookContext {
  /** The workspace root: the hooks' cwd and CLAUDE_PROJECT_DIR. */
  cwd: string;
  /** The environment hooks get (already allowlisted, e.g. toolEnvironment(process.env)). */
  env: Record<string, string>;
  /** The sandbox, same as the Bash tool's. */
  wrap?: Wrap;
  /**
   * A hook's command as it runs and what its sandbox adds: on a pull request run, the trusted
   * ref's files in place of the workspace's (see trusted-code/). Default: the command as is.
   */
  launch?: (command: string) => { command: string; extras: WrapExtras };
  sessionId: string;
  transcriptPath: string;
  /** Told about every run; its errors are ignored. */
  onRun?: (run: HookRun) => void;
  /** Told about failures that are ignored (fail open), refusals for failures, and hooks' systemMessage. */
  log?: (message: string) => void;
}

/** One hook's run and what it decided. */
export interface Ran {
  hook: HookHandler;
  decision: HookDecision;
}

/** A hook's command for messages: one line, and short even when the command is a whole script. */
export function quoteCommand(command: string): string {
  return `\`${capText(command.replace(/\s*\n\s*/g, ' '), 200)}\``;
}

export function withMessage(text: string, message: string | undefined): string {
  return message !== undefined && message.length > 0 ? `${text}: ${message}` : text;
}

export function joined(parts: (string | undefined)[], separator = '\n\n'): string | undefined {
  const present = parts.filter((part): part is string => part !== undefined && part.length > 0);
  return present.length > 0 ? present.join(separator) : undefined;
}

/** The first stop reason among runs, worded for a conclusion when the hook gave none. */
export function stopOf(event: HookEvent, runs: Ran[]): string | undefined {
  const run = runs.find((r) => r.decision.stop !== undefined);
  if (run === undefined) return undefined;
  return run.decision.stop || `the ${event} hook ${quoteCommand(hookLabel(run.hook))} stopped the run`;
}

/** The messages of the runs that blocked, an empty one replaced by fallback(command). */
export function blockedReasons(runs: Ran[], fallback: (command: string) => string): string[] {
  return runs.filter((r) => r.decision.outcome === 'blocked').map((r) => r.decision.reason || fallback(quoteCommand(hookLabel(r.hook))));
}

function safely(callback: () => void): void {
  try {
    callback();
  } catch {
    // Reporting must never change what a hook decided.
  }
}

/** Runs the hooks of one event and remembers the first stop request. */
export class HookRunner {
  stopped: string | null = null;
  private readonly env: Record<string, string>;
  private readonly promptId = randomUUID();

  constructor(
    readonly settings: HookSettings,
    private readonly ctx: HookContext,
  ) {
    this.env = { ...ctx.env, CLAUDE_PROJECT_DIR: ctx.cwd };
  }

  /** True when event has at least one hook, so callers can skip building its input. */
  has(event: HookEvent): boolean {
    return (this.settings[event] ?? []).some((group) => group.hooks.length > 0);
  }

  requestStop(reason: string | undefined): void {
    if (reason !== undefined && this.stopped === null) this.stopped = reason;
  }

  /**
   * Runs the hooks of event whose matcher selects `query` (the tool's name, a session event's
   * source...; undefined: every group) and whose `if` holds for `call`.
   */
  async run(event: HookEvent, payload: Record<string, unknown>, signal: AbortSignal, query?: string, call?: ToolCall): Promise<Ran[]> {
    const hooks = await this.applying(matchingHooks(this.settings, event, query), event, call);
    if (hooks.length === 0) return [];
    const input = JSON.stringify({
      session_id: this.ctx.sessionId,
      transcript_path: this.ctx.transcriptPath,
      cwd: this.ctx.cwd,
      // One prompt per run: every event after SessionStart carries its id, as Claude Code's do.
      ...(event === 'SessionStart' ? {} : { prompt_id: this.promptId }),
      permission_mode: 'dontAsk',
      hook_event_name: event,
      ...payload,
    });
    // In parallel, as Claude Code runs them: one slow hook does not add to the others' time.
    const runs = await Promise.all(hooks.map((hook) => this.runOne(event, hook, input, signal)));
    this.requestStop(stopOf(event, runs));
    return runs;
  }

  /** The hooks whose `if` holds; a condition that cannot be read runs its hook (and says so): a guard errs toward running. */
  private async applying(hooks: HookHandler[], event: HookEvent, call: ToolCall | undefined): Promise<HookHandler[]> {
    if (!hooks.some((h) => h.if !== undefined)) return hooks;
    const kept = await Promise.all(
      hooks.map(async (hook) => {
        if (hook.if === undefined) return true;
        const condition = await conditionHolds(hook.if, call, this.ctx.cwd);
        if ('holds' in condition) return condition.holds;
        this.log(
          `${event} hook ${quoteCommand(hookLabel(hook))}: its if condition ${JSON.stringify(hook.if)} cannot be read (${condition.invalid}); running it`,
        );
        return true;
      }),
    );
    return hooks.filter((_, i) => kept[i]);
  }

  private async execute(hook: HookHandler, input: string, timeoutMs: number, signal: AbortSignal) {
    if (hook.type === 'http') return runHttpHook(hook, input, { env: this.env, timeoutMs, signal });
    const { cwd, wrap: sandbox } = this.ctx;
    const line = commandLine(hook);
    const launched = this.ctx.launch?.(line) ?? { command: line, extras: {} };
    // --clearenv inside the sandbox drops what this.env adds, so the sandbox is told CLAUDE_PROJECT_DIR itself.
    const extras = { ...launched.extras, env: { ...launched.extras.env, CLAUDE_PROJECT_DIR: cwd } };
    const wrap = sandbox ? (argv: string[]) => sandbox(argv, extras) : undefined;
    return runHookCommand({ command: launched.command, input, cwd, env: this.env, wrap, timeoutMs, signal });
  }

  private async runOne(event: HookEvent, hook: HookHandler, input: string, signal: AbortSignal): Promise<Ran> {
    const timeoutMs = (hook.timeout ?? DEFAULT_HOOK_TIMEOUT_S) * 1000;
    const result = await this.execute(hook, input, timeoutMs, signal);
    const decision = decideHookResult(event, result, timeoutMs);
    const { exitCode, ms, timedOut } = result;
    const label = hookLabel(hook);
    safely(() => this.ctx.onRun?.({ event, command: label, exitCode, ms, timedOut, outcome: decision.outcome }));
    const who = `${event} hook ${quoteCommand(label)}`;
    if (decision.outcome === 'failed') {
      const consequence = event === 'PreToolUse' ? 'the call is refused' : 'ignored (only PreToolUse hooks fail closed)';
      this.log(`${who} ${decision.reason ?? 'failed'}; ${consequence}`);
    }
    if (decision.notice) this.log(`${who}: ${decision.notice}`);
    return { hook, decision };
  }

  private log(message: string): void {
    safely(() => this.ctx.log?.(message));
  }
}
