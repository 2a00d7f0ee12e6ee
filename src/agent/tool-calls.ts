import type { ToolResultBlock, ToolUseBlock } from '../core/messages.js';
import type { ToolOutcome, ToolSet } from '../core/tools.js';
import type { LoopEvents } from './config.js';
import { NOT_RUN, repeatedFailure } from './notes.js';
import { FailureStreak, STUCK_STOP, STUCK_WARN } from './stuck.js';
import type { TranscriptWriter } from './transcript.js';

/**
 * Runs one turn's calls: neighbouring read-only calls together, the others one at a time, so a
 * read never races a write; results come back in call order.
 */
export async function runInBatches<C, R>(
  calls: readonly C[],
  isReadOnly: (call: C) => boolean,
  run: (call: C) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  let i = 0;
  while (i < calls.length) {
    let end = i + 1;
    if (isReadOnly(calls[i]!)) while (end < calls.length && isReadOnly(calls[end]!)) end++;
    results.push(...(await Promise.all(calls.slice(i, end).map(run))));
    i = end;
  }
  return results;
}

export interface ToolCallContext {
  tools: ToolSet;
  streak: FailureStreak;
  events?: LoopEvents | undefined;
  transcript?: Pick<TranscriptWriter, 'write'> | undefined;
  clock: () => number;
}

/** One call through the ToolSet, reported as it starts and ends; null when the run stopped before it. */
export async function startCall(call: ToolUseBlock, signal: AbortSignal, c: ToolCallContext): Promise<ToolOutcome | null> {
  if (signal.aborted) return null;
  c.events?.onToolStart?.(call);
  const started = c.clock();
  const outcome = await c.tools.execute(call, signal);
  c.events?.onToolEnd?.(call, outcome, c.clock() - started);
  return outcome;
}

/** A call's tool_result; counted toward stuck detection (in call order), a repeated failure gets a warning. */
export function resultOf(call: ToolUseBlock, outcome: ToolOutcome | null, streak: FailureStreak): ToolResultBlock {
  if (!outcome) return { type: 'tool_result', tool_use_id: call.id, is_error: true, content: NOT_RUN };
  const repeats = streak.record(call, outcome);
  let content = outcome.content;
  if (repeats >= STUCK_WARN && repeats < STUCK_STOP) {
    const warning = repeatedFailure(call.name, repeats, STUCK_STOP);
    content = typeof content === 'string' ? content + warning : [...content, { type: 'text', text: warning }];
  }
  return { type: 'tool_result', tool_use_id: call.id, content, ...(outcome.isError ? { is_error: true } : {}) };
}
