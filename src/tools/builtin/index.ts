import { assertBuiltinNames } from '../catalog.js';
import type { ToolDefinition } from '../tool.js';
import { bashTool, createBashTool } from './bash.js';
import { editTool } from './edit.js';
import { globTool } from './glob.js';
import { grepTool } from './grep.js';
import { readTool } from './read.js';
import { todoWriteTool } from './todo-write.js';
import { webFetchTool } from './web-fetch.js';
import { writeTool } from './write.js';

/** Every built-in tool, in the order they are offered (the catalog is generated from this list). */
export const ALL_TOOLS: readonly ToolDefinition[] = [
  readTool,
  writeTool,
  editTool,
  bashTool,
  globTool,
  grepTool,
  todoWriteTool,
  webFetchTool,
];

export interface SelectOptions {
  /** Turns the argv of every Bash command into the one that runs it, e.g. inside the sandbox. */
  wrap?: (argv: string[]) => string[];
}

/** The named tools, in catalog order; an unknown name is a configuration error. */
export function selectTools(names: readonly string[], options: SelectOptions = {}): ToolDefinition[] {
  assertBuiltinNames(names);
  const { wrap } = options;
  return ALL_TOOLS.filter((tool) => names.includes(tool.name)).map((tool) =>
    tool.name === 'Bash' && wrap ? createBashTool({ wrap }) : tool,
  );
}
