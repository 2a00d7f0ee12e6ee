import type { AgentDefinition } from '../core/agents.js';
import { runSubagent, TASK, type SubagentOptions } from '../agent/subagent.js';
import { Slots } from '../agent/slots.js';
import * as z from '../core/schema.js';
import type { ToolSet } from '../core/tools.js';
import { filterTools, withTool, zodTool } from '../tools/compose.js';

export interface TaskToolOptions extends SubagentOptions {
  /** The parent's tools as the rules and hooks guard them; a subagent gets them without Task. */
  tools: () => ToolSet;
  /** Subagents running at once (max-parallel-agents, default 4); the others wait for a slot. */
  maxParallel?: number;
}

function taskSchema(types: readonly AgentDefinition[]) {
  const names = types.map((t) => t.name) as [string, ...string[]];
  return z.object({
    description: z.string().check(z.minLength(1), z.describe('What the subagent does, in 3-5 words.')),
    prompt: z.string().check(z.trim(), z.minLength(1), z.describe('The whole task for the subagent.')),
    subagent_type: z.enum(names).check(z.describe('Which subagent to start.')),
  });
}

function description(types: readonly AgentDefinition[]): string {
  const list = types.map((t) => `- ${t.name}: ${t.description.replace(/\s+/g, ' ').trim()}`).join('\n');
  return (
    'Starts a subagent with a fresh context on a self-contained part of the task and returns its final answer. ' +
    'Several Task calls in one turn run at the same time. Give it everything it needs in the prompt: it sees nothing ' +
    `of this conversation. Subagent types:\n${list}`
  );
}

/** The parent's tools narrowed to what the type may use, never Task: a subagent cannot start subagents. */
function narrowed(set: ToolSet, type: AgentDefinition): ToolSet {
  const kept = (name: string) => name !== TASK && (!type.tools || type.tools.includes(name));
  return filterTools(set, kept, (name) => `${name} is not available to this subagent.`);
}

/** Adds the Task tool: each call runs a subagent's own loop over the same model, limits and meter, a slot at a time. */
export function withSubagents(set: ToolSet, o: TaskToolOptions): ToolSet {
  const slots = new Slots(o.maxParallel ?? 4);
  // Several Task calls of one turn run together: a subagent's own tools keep their order. None
  // starts before the parent's answer is whole: a subagent may write, and that answer may yet be lost.
  const spec = { name: TASK, description: description(o.types), readOnly: true, earlyStart: false, keyArgument: 'description' };
  const task = zodTool(spec, taskSchema(o.types), async (input, signal) => {
    const type = o.types.find((t) => t.name === input.subagent_type)!;
    const release = await slots.take(signal);
    if (!release) return { isError: true, content: 'The subagent did not start: the run was stopped while it waited for a slot.' };
    try {
      return await runSubagent(o, type, input, narrowed(o.tools(), type), signal);
    } catch (error) {
      return { isError: true, content: `Task failed: ${error instanceof Error ? error.message : String(error)}` };
    } finally {
      release();
    }
  });
  return withTool(set, task);
}
