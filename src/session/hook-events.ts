// The session events of a run's hooks (SessionStart, UserPromptSubmit, Stop, SubagentStop,
// PreCompact, SessionEnd): asked by the session around the loop, not around each tool call.
import { blockedReasons, joined, stopOf, type HookRunner } from '../tools/hooks/index.js';

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

export interface SessionHookEvents {
  /** Plain stdout of a hook, or its additionalContext, is context to add to the prompt. */
  userPromptSubmit(prompt: string, signal: AbortSignal): Promise<PromptResult>;
  stop(lastAssistantMessage: string, stopHookActive: boolean, signal: AbortSignal): Promise<StopResult>;
  subagentStop(lastAssistantMessage: string, stopHookActive: boolean, signal: AbortSignal): Promise<StopResult>;
  sessionStart(signal: AbortSignal): Promise<PromptResult>;
  sessionEnd(conclusion: string, signal: AbortSignal): Promise<void>;
  preCompact(signal: AbortSignal): Promise<{ stop?: string }>;
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
  const runs = await runner.run('SessionStart', { source: 'startup' }, signal, 'startup');
  const stop = stopOf('SessionStart', runs);
  const additionalContext = joined(runs.map((r) => r.decision.additionalContext));
  return { ...(stop !== undefined ? { stop } : {}), ...(additionalContext ? { additionalContext } : {}) };
}

/** The session events over the run's hook runner. */
export function sessionHookEvents(runner: HookRunner): SessionHookEvents {
  return {
    userPromptSubmit: (prompt, signal) => userPromptSubmit(runner, prompt, signal),
    stop: (last, active, signal) => stopLike(runner, 'Stop', last, active, signal),
    subagentStop: (last, active, signal) => stopLike(runner, 'SubagentStop', last, active, signal),
    sessionStart: (signal) => sessionStart(runner, signal),
    async sessionEnd(conclusion, signal) {
      // Claude Code's reason for a session that ends by itself is `other`; the run's conclusion goes beside it.
      await runner.run('SessionEnd', { reason: 'other', conclusion }, signal, 'other');
    },
    async preCompact(signal) {
      const stop = stopOf('PreCompact', await runner.run('PreCompact', { trigger: 'auto', custom_instructions: '' }, signal, 'auto'));
      return stop !== undefined ? { stop } : {};
    },
  };
}
