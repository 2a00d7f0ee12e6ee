import { bashTool } from './bash.js';
import { editTool } from './edit.js';
import { globTool } from './glob.js';
import { grepTool } from './grep.js';
import { readTool } from './read.js';
import type { ToolDefinition } from './registry.js';
import { todoWriteTool } from './todo-write.js';
import { writeTool } from './write.js';

/** Every tool, in the order of the contract (and of the tool list sent to the model). */
export const ALL_TOOLS: readonly ToolDefinition[] = [
  readTool,
  writeTool,
  editTool,
  bashTool,
  globTool,
  grepTool,
  todoWriteTool,
];

/** The named tools, in ALL_TOOLS order; an unknown name is a configuration error. */
export function selectTools(names: string[]): ToolDefinition[] {
  const known = new Set(ALL_TOOLS.map((tool) => tool.name));
  const unknown = names.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new Error(`Unknown tool name(s): ${unknown.join(', ')}. Available tools: ${[...known].join(', ')}.`);
  }
  const wanted = new Set(names);
  return ALL_TOOLS.filter((tool) => wanted.has(tool.name));
}
