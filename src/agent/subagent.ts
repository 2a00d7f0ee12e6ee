import type { AgentDefinition } from '../core/agents.js';
import type { Model } from '../core/model.js';
import { textMessage } from '../core/messages.js';
import type { ToolOutcome, ToolSet } from '../core/tools.js';
import type { LoopEvents, LoopHooks } from './config.js';
import type { Limits } from './limits.js';
import { runLoop } from './loop.js';
import type { UsageMeter } from './meter.js';
import type { TranscriptRecord } from './transcript.js';

export interface SubagentOptions {
  types: readonly AgentDefinition[];
  model: Model;
  /** The model of an agent whose definition names one; without it every subagent runs on `model`. */
  modelFor?: ((id: string) => Model) | undefined;
  /** Shared with the parent: the step and cost limits hold for both together. */
  meter: UsageMeter;
  limits: Limits;
  maxTokens: number;
  streamRetries: number;
  compactAtTokens: number;
  /** The parent's transcript; the subagent's records carry `agent`. */
  transcript?: { path: string; write(record: TranscriptRecord): void } | undefined;
  events?: LoopEvents | undefined;
  /** When a subagent's model is done (SubagentStop hooks): as the parent's onEnd, it may send it on. */
  onEnd?: LoopHooks['onEnd'] | undefined;
}

export const TASK = 'Task';

let ids = 0;

/** Runs one subagent's loop over the tools it is given (its parent's, narrowed), on the shared model, limits and meter. */
export async function runSubagent(
  o: SubagentOptions,
  type: AgentDefinition,
  input: { description: string; prompt: string },
  tools: ToolSet,
  signal: AbortSignal,
): Promise<ToolOutcome> {
  const agent = `${type.name}-${++ids}`;
  const transcript = o.transcript
    ? { path: o.transcript.path, write: (r: TranscriptRecord) => o.transcript?.write({ ...r, agent }) }
    : undefined;
  const { onText: _live, ...events } = o.events ?? {};
  events.onNotice?.(`subagent ${agent} started: ${input.description}`);
  const result = await runLoop(
    {
      model: type.model !== undefined && o.modelFor ? o.modelFor(type.model) : o.model,
      tools,
      system: type.prompt,
      limits: o.limits,
      signal,
      maxTokens: o.maxTokens,
      streamRetries: o.streamRetries,
      compactAtTokens: o.compactAtTokens,
      meter: o.meter,
      events,
      ...(o.onEnd ? { hooks: { onEnd: o.onEnd } } : {}),
      ...(transcript ? { transcript } : {}),
    },
    [textMessage('user', input.prompt)],
  );
  events.onNotice?.(`subagent ${agent} ended: ${result.conclusion}${result.reason ? ` (${result.reason})` : ''}`);
  if (result.conclusion === 'success') return { isError: false, content: result.result || '(the subagent gave no answer)' };
  const partial = result.result ? `\nIts latest text:\n${result.result}` : '';
  return { isError: true, content: `The subagent stopped before finishing: ${result.conclusion} (${result.reason}).${partial}` };
}
