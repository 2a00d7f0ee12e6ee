import type { ToolCall, ToolOutcome } from '../../core/tools.js';
import { outcomeText } from '../../core/tools.js';
import { capText } from '../output.js';
import { decideHookResult, type HookDecision } from './decision.js';
import { matchingHooks } from './matcher.js';
import { runHookCommand } from './run-hook.js';
import type { CommandHook, HookEvent, HookSettings } from './schema.js';
import type { Wrap, WrapExtras } from '../../sandbox/types.js';

/** The prefix of every call a PreToolUse hook refused, which the model and the reports can recognise. */
export const HOOK_REFUSED = 'Hook refused:';

/** Claude Code's default, in seconds, for a hook without `timeout`. */
export const DEFAULT_HOOK_TIMEOUT_S = 60;

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

export interface PreToolUseResult {
  /** Set when the call must not run: the whole outcome text, starting with HOOK_REFUSED. */
  refusal?: string;
  /** The input to run the call with instead of the model's. */
  updatedInput?: Record<string, unknown>;
  additionalContext?: string;
}

export interface PostToolUseResult {
  /** Exit-2 stderr or decision "block" reasons, each naming its hook: to add to the result. */
  feedback?: string;
  additionalContext?: string;
}

/** What a UserPromptSubmit or SessionStart hook asks: stop: end the run `stopped`; additionalContext: add to the prompt. */
export interface PromptResult {
  stop?: string;
  additionalContext?: string;
}

/** continueWith: tell the model this and go on instead of ending; stop (wins over it): end the run `stopped`. */
export interface StopResult {
  continueWith?: string;
  stop?: string;
}

export interface Hooks {
  /** True when event has at least one hook, so callers can skip building its input. */
  has(event: HookEvent): boolean;
  /**
   * The reason of the first `continue: false` (any event) or UserPromptSubmit block, else null.
   * Tool events have no other way to say it: the caller checks this after tool calls and ends the run `stopped`.
   */
  stopRequested(): string | null;
  /** PreToolUse. Never throws; a hook that fails refuses the call. */
  preToolUse(call: ToolCall, signal: AbortSignal): Promise<PreToolUseResult>;
  /** PostToolUse, or PostToolUseFailure when outcome.isError. call is the call as run (updated input). */
  postToolUse(call: ToolCall, outcome: ToolOutcome, signal: AbortSignal): Promise<PostToolUseResult>;
  /** Plain stdout of a hook, or its additionalContext, is context to add to the prompt. */
  userPromptSubmit(prompt: string, signal: AbortSignal): Promise<PromptResult>;
  stop(lastAssistantMessage: string, stopHookActive: boolean, signal: AbortSignal): Promise<StopResult>;
  subagentStop(lastAssistantMessage: string, stopHookActive: boolean, signal: AbortSignal): Promise<StopResult>;
  sessionStart(signal: AbortSignal): Promise<PromptResult>;
  sessionEnd(reason: string, signal: AbortSignal): Promise<void>;
  preCompact(signal: AbortSignal): Promise<{ stop?: string }>;
}

interface Ran {
  hook: CommandHook;
  decision: HookDecision;
}

/** A hook's command for messages: one line, and short even when the command is a whole script. */
export function quoteCommand(command: string): string {
  return `\`${capText(command.replace(/\s*\n\s*/g, ' '), 200)}\``;
}

function withMessage(text: string, message: string | undefined): string {
  return message !== undefined && message.length > 0 ? `${text}: ${message}` : text;
}

function joined(parts: (string | undefined)[], separator = '\n\n'): string | undefined {
  const present = parts.filter((part): part is string => part !== undefined && part.length > 0);
  return present.length > 0 ? present.join(separator) : undefined;
}

/** Why one PreToolUse hook keeps the call from running, or undefined when it has no objection. */
function preToolObjection({ hook, decision }: Ran): string | undefined {
  const who = `the PreToolUse hook ${quoteCommand(hook.command)}`;
  if (decision.outcome === 'failed') return `${who} ${decision.reason ?? 'failed'}`;
  if (decision.stop !== undefined) return withMessage(`${who} stopped the run`, decision.stop);
  if (decision.outcome !== 'blocked') return undefined;
  if (decision.permission === 'deny') return withMessage(`${who} denied the call`, decision.reason);
  if (decision.permission === 'ask')
    return withMessage(`${who} asked for approval, which nobody can give in a headless run`, decision.reason);
  return withMessage(`${who} blocked the call`, decision.reason);
}

/** Hooks of one event run in parallel on the same input, so two different replacements cannot be combined. */
function updatedInputOf(runs: Ran[]): { input?: Record<string, unknown>; conflict: boolean } {
  const inputs = runs.flatMap((run) => (run.decision.updatedInput === undefined ? [] : [run.decision.updatedInput]));
  const distinct = new Set(inputs.map((input) => JSON.stringify(input)));
  return distinct.size > 1 ? { conflict: true } : { input: inputs[0], conflict: false };
}

function preToolResult(runs: Ran[]): PreToolUseResult {
  const objections = runs.map(preToolObjection).filter((text): text is string => text !== undefined);
  const updated = updatedInputOf(runs);
  if (updated.conflict) objections.push('PreToolUse hooks returned different updatedInput values, so which input to run is unclear');
  const additionalContext = joined(runs.map((run) => run.decision.additionalContext));
  if (objections.length > 0) {
    const failed = runs.some((run) => run.decision.outcome === 'failed');
    const note = failed ? ' (a PreToolUse hook that fails, times out or prints invalid output refuses the call)' : '';
    return { refusal: `${HOOK_REFUSED} ${objections.join('; ')}${note}` };
  }
  return { ...(updated.input ? { updatedInput: updated.input } : {}), ...(additionalContext ? { additionalContext } : {}) };
}

/** The first stop reason among runs, worded for a conclusion when the hook gave none. */
function stopOf(event: HookEvent, runs: Ran[]): string | undefined {
  const run = runs.find((r) => r.decision.stop !== undefined);
  if (run === undefined) return undefined;
  return run.decision.stop || `the ${event} hook ${quoteCommand(run.hook.command)} stopped the run`;
}

/** The messages of the runs that blocked, an empty one replaced by fallback(command). */
function blockedReasons(runs: Ran[], fallback: (command: string) => string): string[] {
  return runs.filter((r) => r.decision.outcome === 'blocked').map((r) => r.decision.reason || fallback(quoteCommand(r.hook.command)));
}

function safely(callback: () => void): void {
  try {
    callback();
  } catch {
    // Reporting must never change what a hook decided.
  }
}

/** Runs the hooks of one event and remembers the first stop request. */
class HookRunner {
  stopped: string | null = null;
  private readonly env: Record<string, string>;

  constructor(
    readonly settings: HookSettings,
    private readonly ctx: HookContext,
  ) {
    this.env = { ...ctx.env, CLAUDE_PROJECT_DIR: ctx.cwd };
  }

  requestStop(reason: string | undefined): void {
    if (reason !== undefined && this.stopped === null) this.stopped = reason;
  }

  async run(event: HookEvent, payload: Record<string, unknown>, signal: AbortSignal, toolName?: string): Promise<Ran[]> {
    const hooks = matchingHooks(this.settings, event, toolName);
    if (hooks.length === 0) return [];
    const input = JSON.stringify({
      session_id: this.ctx.sessionId,
      transcript_path: this.ctx.transcriptPath,
      cwd: this.ctx.cwd,
      permission_mode: 'dontAsk',
      hook_event_name: event,
      ...payload,
    });
    // In parallel, as Claude Code runs them: one slow hook does not add to the others' time.
    const runs = await Promise.all(hooks.map((hook) => this.runOne(event, hook, input, signal)));
    this.requestStop(stopOf(event, runs));
    return runs;
  }

  private async runOne(event: HookEvent, hook: CommandHook, input: string, signal: AbortSignal): Promise<Ran> {
    const timeoutMs = (hook.timeout ?? DEFAULT_HOOK_TIMEOUT_S) * 1000;
    const { cwd, wrap: sandbox } = this.ctx;
    const launched = this.ctx.launch?.(hook.command) ?? { command: hook.command, extras: {} };
    // --clearenv inside the sandbox drops what this.env adds, so the sandbox is told CLAUDE_PROJECT_DIR itself.
    const extras = { ...launched.extras, env: { ...launched.extras.env, CLAUDE_PROJECT_DIR: cwd } };
    const wrap = sandbox ? (argv: string[]) => sandbox(argv, extras) : undefined;
    const result = await runHookCommand({ command: launched.command, input, cwd, env: this.env, wrap, timeoutMs, signal });
    const decision = decideHookResult(event, result, timeoutMs);
    const { exitCode, ms, timedOut } = result;
    safely(() => this.ctx.onRun?.({ event, command: hook.command, exitCode, ms, timedOut, outcome: decision.outcome }));
    const who = `${event} hook ${quoteCommand(hook.command)}`;
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

type StopEvent = 'Stop' | 'SubagentStop';

async function stopLike(runner: HookRunner, event: StopEvent, last: string, active: boolean, signal: AbortSignal): Promise<StopResult> {
  const runs = await runner.run(event, { stop_hook_active: active, last_assistant_message: last }, signal);
  const stop = stopOf(event, runs);
  if (stop !== undefined) return { stop };
  const continueWith = joined(
    blockedReasons(runs, (command) => `the ${event} hook ${command} asked to go on`),
    '\n',
  );
  return continueWith === undefined ? {} : { continueWith };
}

async function postToolUse(runner: HookRunner, call: ToolCall, outcome: ToolOutcome, signal: AbortSignal): Promise<PostToolUseResult> {
  const event = outcome.isError ? 'PostToolUseFailure' : 'PostToolUse';
  const text = outcomeText(outcome);
  const payload = { tool_name: call.name, tool_input: call.input, tool_use_id: call.id, tool_response: text };
  const runs = await runner.run(event, outcome.isError ? { ...payload, error: text } : payload, signal, call.name);
  const blocked = runs.filter((r) => r.decision.outcome === 'blocked');
  const feedback = joined(
    blocked.map((r) => withMessage(quoteCommand(r.hook.command), r.decision.reason || 'objected')),
    '\n',
  );
  const additionalContext = joined(runs.map((r) => r.decision.additionalContext));
  return { ...(feedback ? { feedback } : {}), ...(additionalContext ? { additionalContext } : {}) };
}

async function userPromptSubmit(runner: HookRunner, prompt: string, signal: AbortSignal): Promise<PromptResult> {
  const runs = await runner.run('UserPromptSubmit', { prompt }, signal);
  const blocked = blockedReasons(runs, (command) => `the UserPromptSubmit hook ${command} blocked the prompt`);
  // A blocked prompt ends the run just as `continue: false` does, so the caller learns it the same way.
  const stop = stopOf('UserPromptSubmit', runs) ?? joined(blocked, '\n');
  runner.requestStop(stop);
  const additionalContext = joined(runs.map((r) => r.decision.additionalContext));
  return { ...(stop !== undefined ? { stop } : {}), ...(additionalContext ? { additionalContext } : {}) };
}

async function sessionStart(runner: HookRunner, signal: AbortSignal): Promise<PromptResult> {
  const runs = await runner.run('SessionStart', { source: 'startup' }, signal);
  const stop = stopOf('SessionStart', runs);
  const additionalContext = joined(runs.map((r) => r.decision.additionalContext));
  return { ...(stop !== undefined ? { stop } : {}), ...(additionalContext ? { additionalContext } : {}) };
}

/** Claude Code's command hooks over settings; PreToolUse fails closed, every other event fails open. */
export function createHooks(settings: HookSettings, ctx: HookContext): Hooks {
  const runner = new HookRunner(settings, ctx);
  return {
    has: (event) => (settings[event] ?? []).some((group) => group.hooks.length > 0),
    stopRequested: () => runner.stopped,
    async preToolUse(call, signal) {
      if (signal.aborted) return { refusal: `${HOOK_REFUSED} the run was cancelled before the PreToolUse hooks ran` };
      const payload = { tool_name: call.name, tool_input: call.input, tool_use_id: call.id };
      return preToolResult(await runner.run('PreToolUse', payload, signal, call.name));
    },
    postToolUse: (call, outcome, signal) => postToolUse(runner, call, outcome, signal),
    userPromptSubmit: (prompt, signal) => userPromptSubmit(runner, prompt, signal),
    stop: (last, active, signal) => stopLike(runner, 'Stop', last, active, signal),
    subagentStop: (last, active, signal) => stopLike(runner, 'SubagentStop', last, active, signal),
    sessionStart: (signal) => sessionStart(runner, signal),
    async sessionEnd(reason, signal) {
      await runner.run('SessionEnd', { reason }, signal);
    },
    async preCompact(signal) {
      const stop = stopOf('PreCompact', await runner.run('PreCompact', { trigger: 'auto', custom_instructions: '' }, signal));
      return stop !== undefined ? { stop } : {};
    },
  };
}
