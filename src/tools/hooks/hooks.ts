// The tool events (PreToolUse, PostToolUse, PostToolUseFailure): what with-hooks asks around each call.
import type { ToolCall, ToolOutcome } from '../../core/tools.js';
import { outcomeText } from '../../core/tools.js';
import { HOOK_REFUSED, HookRunner, joined, quoteCommand, withMessage, type HookContext, type Ran } from './runner.js';
import { hookLabel, type HookEvent, type HookSettings } from './schema.js';

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

/** The tool events of a run's hooks. */
export interface ToolHooks {
  /** True when event has at least one hook, so callers can skip building its input. */
  has(event: HookEvent): boolean;
  /**
   * The reason of the first `continue: false` (any event) or UserPromptSubmit block, else null.
   * Tool events have no other way to say it: the caller checks this after tool calls and ends the run `stopped`.
   */
  stopRequested(): string | null;
  /** PreToolUse. Never throws; a hook that fails refuses the call. */
  preToolUse(call: ToolCall, signal: AbortSignal): Promise<PreToolUseResult>;
  /** PostToolUse, or PostToolUseFailure for a failed call (see postEvent). call is the call as run (updated input); durationMs its run time. */
  postToolUse(call: ToolCall, outcome: ToolOutcome, signal: AbortSignal, durationMs?: number): Promise<PostToolUseResult>;
}

/** Why one PreToolUse hook keeps the call from running, or undefined when it has no objection. */
function preToolObjection({ hook, decision }: Ran): string | undefined {
  const who = `the PreToolUse hook ${quoteCommand(hookLabel(hook))}`;
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

/** A call that failed (an error result, or a command's non-zero exit) is PostToolUseFailure's, as in Claude Code. */
export function postEvent(outcome: ToolOutcome): 'PostToolUse' | 'PostToolUseFailure' {
  return outcome.isError || outcome.failure !== undefined ? 'PostToolUseFailure' : 'PostToolUse';
}

/** Claude Code's stdin for the event after a call: the tool's response object, or the error. */
async function postPayload(call: ToolCall, outcome: ToolOutcome, durationMs: number): Promise<Record<string, unknown>> {
  const { name: tool_name, input: tool_input, id: tool_use_id } = call;
  const duration_ms = Math.round(durationMs);
  if (postEvent(outcome) === 'PostToolUseFailure') {
    return { tool_name, tool_input, tool_use_id, error: outcome.failure ?? outcomeText(outcome), is_interrupt: false, duration_ms };
  }
  // A response that cannot be made (a file gone since) leaves the text: the hook still runs.
  const tool_response = (await outcome.hookResponse?.().catch(() => undefined)) ?? outcomeText(outcome);
  return { tool_name, tool_input, tool_response, tool_use_id, duration_ms };
}

async function postToolUse(
  runner: HookRunner,
  call: ToolCall,
  outcome: ToolOutcome,
  signal: AbortSignal,
  durationMs: number,
): Promise<PostToolUseResult> {
  const event = postEvent(outcome);
  const runs = await runner.run(event, await postPayload(call, outcome, durationMs), signal, call.name, call);
  const blocked = runs.filter((r) => r.decision.outcome === 'blocked');
  const feedback = joined(
    blocked.map((r) => withMessage(quoteCommand(hookLabel(r.hook)), r.decision.reason || 'objected')),
    '\n',
  );
  const additionalContext = joined(runs.map((r) => r.decision.additionalContext));
  return { ...(feedback ? { feedback } : {}), ...(additionalContext ? { additionalContext } : {}) };
}

/** The tool events over a runner (shared with the session's events, so a stop request is seen by both). */
export function toolHooks(runner: HookRunner): ToolHooks {
  return {
    has: (event) => runner.has(event),
    stopRequested: () => runner.stopped,
    async preToolUse(call, signal) {
      if (signal.aborted) return { refusal: `${HOOK_REFUSED} the run was cancelled before the PreToolUse hooks ran` };
      const payload = { tool_name: call.name, tool_input: call.input, tool_use_id: call.id };
      return preToolResult(await runner.run('PreToolUse', payload, signal, call.name, call));
    },
    postToolUse: (call, outcome, signal, durationMs = 0) => postToolUse(runner, call, outcome, signal, durationMs),
  };
}

/** A runner for settings; PreToolUse fails closed, every other event fails open. */
export function hookRunner(settings: HookSettings, ctx: HookContext): HookRunner {
  return new HookRunner(settings, ctx);
}
