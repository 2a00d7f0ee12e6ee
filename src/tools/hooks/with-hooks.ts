import type { ToolCall, ToolOutcome, ToolSet } from '../../core/tools.js';
import { postEvent, type ToolHooks } from './hooks.js';
import { HOOK_REFUSED } from './runner.js';

/** Notes for the model after a tool's own output, so the output keeps its shape. */
function appendNotes(outcome: ToolOutcome, notes: string[]): ToolOutcome {
  if (notes.length === 0) return outcome;
  const text = notes.join('\n\n');
  if (typeof outcome.content === 'string') return { ...outcome, content: `${outcome.content}\n\n${text}` };
  return { ...outcome, content: [...outcome.content, { type: 'text', text }] };
}

function refused(text: string): ToolOutcome {
  return { isError: true, content: text };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A ToolSet that runs PreToolUse hooks before each call and PostToolUse / PostToolUseFailure hooks
 * after it. A PreToolUse hook's refusal, crash, timeout or unreadable output keeps the call from
 * running (fails closed); a PostToolUse hook that fails only leaves the result as it was.
 *
 * Stopping: when a hook says `continue: false`, the outcome is still returned (for PreToolUse: a
 * refusal) and `hooks.stopRequested()` gives the reason; the caller checks it after the tool calls
 * and ends the run `stopped`. Calls after that are refused without running anything.
 *
 * Permission rules wrap outside this set, so a hook's `allow` never overrides a deny rule.
 */
export function withHooks(set: ToolSet, hooks: ToolHooks): ToolSet {
  return {
    specs: () => set.specs(),
    isReadOnly: (name) => set.isReadOnly(name),
    async execute(call, signal) {
      const stopped = hooks.stopRequested();
      if (stopped !== null) return refused(`${HOOK_REFUSED} a hook stopped the run (${stopped || 'no reason given'})`);
      const notes: string[] = [];
      let run: ToolCall = call;
      if (hooks.has('PreToolUse')) {
        try {
          const pre = await hooks.preToolUse(call, signal);
          if (pre.refusal !== undefined) return refused(pre.refusal);
          if (pre.updatedInput !== undefined) run = { ...call, input: pre.updatedInput };
          if (pre.additionalContext !== undefined) notes.push(`PreToolUse hook context:\n${pre.additionalContext}`);
        } catch (error) {
          // execute never throws, and a check that could not run must not let the call through.
          return refused(`${HOOK_REFUSED} the PreToolUse hooks could not run (${errorText(error)})`);
        }
      }
      const started = performance.now();
      const outcome = await set.execute(run, signal);
      const event = postEvent(outcome);
      if (!hooks.has(event)) return appendNotes(outcome, notes);
      try {
        const post = await hooks.postToolUse(run, outcome, signal, performance.now() - started);
        if (post.feedback !== undefined) notes.push(`${event} hook feedback:\n${post.feedback}`);
        if (post.additionalContext !== undefined) notes.push(`${event} hook context:\n${post.additionalContext}`);
      } catch {
        // After the call has run, its result matters more than a hook that could not be run.
      }
      return appendNotes(outcome, notes);
    },
  };
}
