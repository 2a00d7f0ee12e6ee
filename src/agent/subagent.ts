import type { Model } from '../core/model.js';
import { textMessage } from '../core/messages.js';
import type { ToolCall, ToolOutcome, ToolSet, ToolSpec } from '../core/tools.js';
import type { LoopEvents } from './config.js';
import type { Limits } from './limits.js';
import { runLoop } from './loop.js';
import type { UsageMeter } from './meter.js';
import type { TranscriptRecord } from './transcript.js';
import { Slots } from './slots.js';

/** A kind of subagent the Task tool can start: `general-purpose`, or one the repository defines. */
export interface SubagentType {
  name: string;
  description: string;
  /** Its system prompt. */
  prompt: string;
  /** Tool names it may use (at most its parent's); all of the parent's when absent. */
  tools?: readonly string[];
  /** Another model for it; the parent's when absent. */
  model?: Model;
}

export interface SubagentOptions {
  types: readonly SubagentType[];
  model: Model;
  /** The parent's tools as the rules and hooks guard them; a subagent gets them without Task. */
  tools: () => ToolSet;
  /** Shared with the parent: the step and cost limits hold for both together. */
  meter: UsageMeter;
  limits: Limits;
  /** Subagents running at once (max-parallel-agents, default 4); the others wait for a slot. */
  maxParallel?: number;
  maxTokens: number;
  streamRetries: number;
  compactAtTokens: number;
  /** The parent's transcript; the subagent's records carry `agent`. */
  transcript?: { path: string; write(record: TranscriptRecord): void } | undefined;
  events?: LoopEvents | undefined;
}

export const TASK = 'Task';

function taskSpec(types: readonly SubagentType[]): ToolSpec {
  const list = types.map((t) => `- ${t.name}: ${t.description.replace(/\s+/g, ' ').trim()}`).join('\n');
  return {
    name: TASK,
    description:
      'Starts a subagent with a fresh context on a self-contained part of the task and returns its final answer. ' +
      'Several Task calls in one turn run at the same time. Give it everything it needs in the prompt: it sees nothing ' +
      `of this conversation. Subagent types:\n${list}`,
    // Several Task calls of one turn run together: a subagent's own tools keep their order. None
    // starts before the parent's answer is whole: a subagent may write, and that answer may yet be lost.
    readOnly: true,
    earlyStart: false,
    keyArgument: 'description',
    input_schema: {
      type: 'object',
      properties: {
        description: { type: 'string', minLength: 1, description: 'What the subagent does, in 3-5 words.' },
        prompt: { type: 'string', minLength: 1, description: 'The whole task for the subagent.' },
        subagent_type: { type: 'string', enum: types.map((t) => t.name), description: 'Which subagent to start.' },
      },
      required: ['description', 'prompt', 'subagent_type'],
      additionalProperties: false,
    },
  };
}

/** The parent's tools narrowed to what the type may use, never Task: a subagent cannot start subagents. */
function narrowed(set: ToolSet, type: SubagentType): ToolSet {
  const kept = (name: string) => name !== TASK && (!type.tools || type.tools.includes(name));
  return {
    specs: () => set.specs().filter((s) => kept(s.name)),
    isReadOnly: (name) => set.isReadOnly(name),
    execute: (call, signal) =>
      kept(call.name)
        ? set.execute(call, signal)
        : Promise.resolve({ isError: true, content: `${call.name} is not available to this subagent.` }),
  };
}

let ids = 0;

async function runSubagent(
  o: SubagentOptions,
  type: SubagentType,
  input: { description: string; prompt: string },
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
      model: type.model ?? o.model,
      tools: narrowed(o.tools(), type),
      system: type.prompt,
      limits: o.limits,
      signal,
      maxTokens: o.maxTokens,
      streamRetries: o.streamRetries,
      compactAtTokens: o.compactAtTokens,
      meter: o.meter,
      events,
      ...(transcript ? { transcript } : {}),
    },
    [textMessage('user', input.prompt)],
  );
  events.onNotice?.(`subagent ${agent} ended: ${result.conclusion}${result.reason ? ` (${result.reason})` : ''}`);
  if (result.conclusion === 'success') return { isError: false, content: result.result || '(the subagent gave no answer)' };
  const partial = result.result ? `\nIts latest text:\n${result.result}` : '';
  return { isError: true, content: `The subagent stopped before finishing: ${result.conclusion} (${result.reason}).${partial}` };
}

function taskInput(call: ToolCall, types: readonly SubagentType[]): { type: SubagentType; description: string; prompt: string } | string {
  const input = (typeof call.input === 'object' && call.input !== null ? call.input : {}) as Record<string, unknown>;
  const { description, prompt, subagent_type: name } = input;
  if (typeof prompt !== 'string' || prompt.trim() === '') return 'Invalid input for Task: prompt must be a non-empty string.';
  const type = types.find((t) => t.name === name);
  if (!type) return `Invalid input for Task: subagent_type must be one of ${types.map((t) => t.name).join(', ')}.`;
  return { type, description: typeof description === 'string' ? description : type.name, prompt };
}

/** Adds the Task tool: each call runs a subagent's own loop over the same model, limits and meter. */
export function withSubagents(set: ToolSet, o: SubagentOptions): ToolSet {
  const spec = taskSpec(o.types);
  const slots = new Slots(o.maxParallel ?? 4);
  return {
    specs: () => [...set.specs().filter((s) => s.name !== TASK), spec],
    isReadOnly: (name) => name === TASK || set.isReadOnly(name),
    async execute(call, signal) {
      if (call.name !== TASK) return set.execute(call, signal);
      const input = taskInput(call, o.types);
      if (typeof input === 'string') return { isError: true, content: input };
      const release = await slots.take(signal);
      if (!release) return { isError: true, content: 'The subagent did not start: the run was stopped while it waited for a slot.' };
      try {
        return await runSubagent(o, input.type, input, signal);
      } catch (error) {
        return { isError: true, content: `Task failed: ${error instanceof Error ? error.message : String(error)}` };
      } finally {
        release();
      }
    },
  };
}
