import type { RuleTarget, ToolSpec } from '../core/tools.js';
import { TOOL_SPECS } from './specs.generated.js';

// The one list of the tools: the built-ins' names, order and specs come from their own definitions
// (generated at build time), the tools a run makes (subagents, skills, review comments) are named
// here once, and rules, settings, the review's tool set and tests all derive from this.

/** How rules, defaults and modes see one tool. */
export interface CatalogEntry {
  name: string;
  ruleTarget?: RuleTarget | undefined;
  changesWorkspace: boolean;
  /** In the default `allowed-tools`. */
  allowedByDefault: boolean;
}

/** The tools a run makes besides the built-ins: their specs are built per run, their rules are known here. */
const RUN_TOOLS: readonly CatalogEntry[] = [
  // A subagent's own tool calls are checked as its parent's are; the call itself changes nothing.
  { name: 'Task', ruleTarget: { kind: 'key', field: 'subagent_type' }, changesWorkspace: false, allowedByDefault: true },
  { name: 'Skill', ruleTarget: { kind: 'key', field: 'skill' }, changesWorkspace: false, allowedByDefault: true },
  // The provider's web search (tools/web-search.ts), offered where the provider runs it and a rule
  // names it: it is billed per search and its queries leave past the allowlist, so not by default.
  // A rule naming queries (Claude Code's `WebSearch(terms)`) parses, but the calls run at the provider.
  { name: 'WebSearch', ruleTarget: { kind: 'key', field: 'query' }, changesWorkspace: false, allowedByDefault: false },
  // Only in a review, which adds it itself.
  { name: 'ReviewComment', ruleTarget: { kind: 'key', field: 'file_path' }, changesWorkspace: false, allowedByDefault: false },
];

/** Every built-in tool's name, in the order they are offered. */
export const BUILTIN_TOOL_NAMES: readonly string[] = TOOL_SPECS.map((s) => s.name);

const ENTRIES: ReadonlyMap<string, CatalogEntry> = new Map(
  [
    ...TOOL_SPECS.map((s) => ({
      name: s.name,
      ruleTarget: s.ruleTarget,
      changesWorkspace: s.changesWorkspace === true,
      allowedByDefault: true,
    })),
    ...RUN_TOOLS,
  ].map((e) => [e.name, e]),
);

/** Every name a tool rule may use besides MCP ones: the built-in tools and those a run or mode adds. */
export const RULE_TOOL_NAMES: readonly string[] = [...ENTRIES.keys()];

/** `allowed-tools` when left out: every built-in tool and the run's subagents and skills. */
export const DEFAULT_TOOL_NAMES: readonly string[] = [...ENTRIES.values()].filter((e) => e.allowedByDefault).map((e) => e.name);

/** The tools whose calls never change the workspace (what a review may keep). */
export const WORKSPACE_KEEPING_TOOLS: readonly string[] = [...ENTRIES.values()].filter((e) => !e.changesWorkspace).map((e) => e.name);

/** What a rule's specifier matches for a tool known by name; undefined: none (MCP tools, TodoWrite). */
export function ruleTargetOf(tool: string): RuleTarget | undefined {
  return ENTRIES.get(tool)?.ruleTarget;
}

/** Whether the path rules written for `ruleTool` also bind calls of `tool` in this mode (Edit's for Write...). */
export function governs(ruleTool: string, tool: string, mode: 'allow' | 'deny'): boolean {
  const target = ruleTargetOf(tool);
  if (target?.kind !== 'path' || target.governedBy?.tool !== ruleTool) return false;
  return target.governedBy.in === 'allow and deny' || mode === 'deny';
}

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
