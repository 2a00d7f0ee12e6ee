import type { ToolSpec } from '../core/tools.js';
import { TOOL_SPECS } from './specs.generated.js';

// The one list of the built-in tools: their names, order and specs come from the tools' own
// definitions (generated at build time), so settings, prompts and tests never keep a copy.

/** Every built-in tool's name, in the order they are offered. */
export const BUILTIN_TOOL_NAMES: readonly string[] = TOOL_SPECS.map((s) => s.name);

/** Every name a tool rule may use besides MCP ones: the built-in tools and those other modes add. */
export const RULE_TOOL_NAMES: readonly string[] = [...BUILTIN_TOOL_NAMES, 'Task', 'Skill', 'ReviewComment'];

/** Throws a configuration error naming every name that is not a built-in tool. */
export function assertBuiltinNames(names: readonly string[]): void {
  const unknown = names.filter((n) => !BUILTIN_TOOL_NAMES.includes(n));
  if (unknown.length > 0) {
    throw new Error(`Unknown tool name(s): ${unknown.join(', ')}. Available tools: ${BUILTIN_TOOL_NAMES.join(', ')}.`);
  }
}

/** The specs of the named built-in tools, in catalog order. */
export function specsFor(names: readonly string[]): ToolSpec[] {
  assertBuiltinNames(names);
  return TOOL_SPECS.filter((s) => names.includes(s.name));
}

/** The argument that says what a call does, for one line of progress (e.g. a Read's file_path). */
export function describeToolCall(name: string, input: unknown): string {
  const spec = TOOL_SPECS.find((s) => s.name === name);
  const fields = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const value = spec?.keyArgument ? fields[spec.keyArgument] : input;
  if (Array.isArray(value)) return `${value.length} items`;
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}
