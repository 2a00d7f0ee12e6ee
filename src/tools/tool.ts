import * as z from '../core/schema.js';
import type { Todo } from '../core/todo.js';
import type { RuleTarget } from '../core/tools.js';
import type { HiddenPath } from './permissions/hidden.js';
import { ToolError } from './tool-error.js';
import type { Workspace } from './workspace.js';
import type { HostPolicy } from '../network/hosts.js';

export { ToolError } from './tool-error.js';

/** What a tool may touch while it runs; handed in by the loop, never global. */
export interface ToolContext {
  workspace: Workspace;
  /** Aborted when the run is cancelled: tools stop and kill what they started. */
  signal: AbortSignal;
  /** The environment a command may see (an allowlist, never the action's secrets). */
  env: Record<string, string>;
  /** Characters a tool result may hold before its middle is cut. */
  outputLimit: number;
  /** Called by TodoWrite with the whole new list. */
  onTodos?: (todos: Todo[]) => void;
  /** Workspace-relative paths the tools must not show (Read-denied...): Read refuses, Grep and Glob skip them. */
  hidden?: HiddenPath;
  /** The hosts WebFetch may reach: allowed-domains and the WebFetch(domain:...) allow rules. */
  fetchHosts?: HostPolicy;
  /** How long WebFetch waits for a page (default 30 s). */
  fetchTimeoutMs?: number;
}

/** A tool the model may call; `schema` is the single source of both its JSON schema and validation. */
export interface ToolDefinition<S extends z.ZodMiniType = z.ZodMiniType> {
  name: string;
  description: string;
  schema: S;
  /** Read-only tools of one turn run in parallel; the others in order. */
  readOnly: boolean;
  /** The input field that says what a call does, for progress lines. */
  keyArgument: string;
  /** The input field naming the file a successful call wrote, for change tracking. */
  writesFile?: string;
  /** What a permission rule's specifier matches for this tool; absent: it takes none. */
  ruleTarget?: RuleTarget;
  /** Whether a call may change the workspace. */
  changesWorkspace?: boolean;
  /** Returns the text for the model (with what hooks get); throwing a ToolError (or any error) makes an is_error result. */
  run(input: z.infer<S>, ctx: ToolContext): Promise<string | ToolReply>;
}

/** A result with what Claude Code gives hooks besides the text: `tool_response`, and a failure the model still sees as output. */
export interface ToolReply {
  text: string;
  hookResponse?: () => Promise<Record<string, unknown>>;
  failure?: string;
}

export function defineTool<S extends z.ZodMiniType>(def: ToolDefinition<S>): ToolDefinition<S> {
  return def;
}

export interface ToolResult {
  content: string;
  isError: boolean;
  hookResponse?: () => Promise<Record<string, unknown>>;
  failure?: string;
}

/** The JSON schema sent to the model for a zod schema of a tool's input (built-in or not). */
export function schemaJson(schema: z.ZodMiniType): { type: 'object'; [key: string]: unknown } {
  const json = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  delete json['$schema'];
  return { ...json, type: 'object' };
}

/** The JSON schema sent to the model for a tool's input. */
export function inputSchema(tool: ToolDefinition): Record<string, unknown> {
  return schemaJson(tool.schema);
}

/** What the model is told when a call's input does not match the tool's schema: each issue, and to call again. */
export function invalidInput(name: string, error: z.core.$ZodError): string {
  const issues = error.issues.map((issue) => `- ${issue.path.length > 0 ? issue.path.join('.') : 'input'}: ${issue.message}`).join('\n');
  return `Invalid input for ${name}:\n${issues}\nCall ${name} again with input that matches its schema.`;
}

/**
 * Validates and runs one tool call. Nothing thrown escapes: an unknown tool, invalid input or a
 * failing tool becomes an is_error result that tells the model what to do differently.
 */
export async function executeToolCall(
  tools: ReadonlyMap<string, ToolDefinition>,
  name: string,
  input: unknown,
  ctx: ToolContext,
): Promise<ToolResult> {
  const tool = tools.get(name);
  if (!tool) {
    const names = [...tools.keys()].join(', ');
    return { isError: true, content: `No tool named "${name}". Use one of: ${names}.` };
  }
  const parsed = tool.schema.safeParse(input);
  if (!parsed.success) {
    return { isError: true, content: invalidInput(name, parsed.error) };
  }
  try {
    const reply = await tool.run(parsed.data, ctx);
    if (typeof reply === 'string') return { isError: false, content: reply };
    const { text, ...extra } = reply;
    return { isError: false, content: text, ...extra };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const prefix = error instanceof ToolError ? '' : `${name} failed: `;
    return { isError: true, content: `${prefix}${message}` };
  }
}
