import type { Todo } from '../core/todo.js';
import type { ToolSet } from '../core/tools.js';
import type { HiddenPath } from './permissions/hidden.js';
import { specsFor } from './catalog.js';
import { capText } from './output.js';
import { executeToolCall, type ToolDefinition } from './tool.js';
import type { Workspace } from './workspace.js';
import type { HostPolicy } from '../network/hosts.js';

/** What the built-in tools may touch, bound once for the run. */
export interface ToolSetContext {
  workspace: Workspace;
  /** The environment a command may see (an allowlist, never the action's secrets). */
  env: Record<string, string>;
  /** Characters of one result kept (head and tail) before the middle is cut. */
  outputLimit: number;
  /** Called by TodoWrite with the whole new list. */
  onTodos?: (todos: Todo[]) => void;
  /** Paths Read refuses and Grep and Glob skip. */
  hidden?: HiddenPath;
  /** The hosts WebFetch may reach. */
  fetchHosts?: HostPolicy;
}

/** The built-in tools as a ToolSet: validated, run in the workspace, results capped. */
export function definitionToolSet(tools: readonly ToolDefinition[], ctx: ToolSetContext): ToolSet {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const specs = specsFor(tools.map((t) => t.name));
  return {
    specs: () => specs,
    isReadOnly: (name) => byName.get(name)?.readOnly ?? false,
    async execute(call, signal) {
      const { content, ...result } = await executeToolCall(byName, call.name, call.input, { ...ctx, signal });
      return { ...result, content: capText(content || '(no output)', ctx.outputLimit) };
    },
  };
}
