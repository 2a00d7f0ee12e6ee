import type { ImageBlock, TextBlock } from './messages.js';

/** A call the model made. */
export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
}

/** What a call gave back; errors are outcomes too, so the model can act on them. */
export interface ToolOutcome {
  content: string | (TextBlock | ImageBlock)[];
  isError: boolean;
  /** Claude Code's `tool_response` object for this call, for PostToolUse hooks; made only when one runs. */
  hookResponse?: () => Promise<Record<string, unknown>>;
  /** A call that failed although its result is no error to the model (a command's non-zero exit): PostToolUseFailure's `error`. */
  failure?: string;
}

/**
 * What the specifier of a permission rule for a tool matches: a path in one input field (`absent`
 * when the field is left out; `governedBy` the other tool whose path rules also bind it: Edit's
 * for Write, Read's denials for Glob and Grep), the shell command (Bash), or one key argument
 * (Task's subagent type). A tool without one takes no specifier.
 */
export type RuleTarget =
  | { kind: 'path'; field: string; absent?: string; governedBy?: { tool: 'Read' | 'Edit'; in: 'allow and deny' | 'deny' } }
  | { kind: 'command' }
  /** `domain:host` against the host of a URL field (WebFetch). */
  | { kind: 'domain'; field: string }
  | { kind: 'key'; field: string };

/** What the model is told about a tool: enough for a request without loading the tool itself. */
export interface ToolSpec {
  name: string;
  description: string;
  /** Read-only calls of one turn run together; the others one at a time, in order. */
  readOnly: boolean;
  /**
   * Whether a read-only call may start while the model is still answering (default true). A call
   * started then is thrown away unseen if that answer breaks, so false for a read-only tool whose
   * call leaves more behind than its result (a subagent with its own tools, a recorded comment).
   */
  earlyStart?: boolean;
  input_schema: { type: 'object'; [key: string]: unknown };
  /** The input field that says what a call does, for progress lines (e.g. `file_path`). */
  keyArgument?: string;
  /** The input field naming the file a successful call wrote, for change tracking. */
  writesFile?: string;
  /** What a rule's specifier matches for this tool; absent: it takes none. */
  ruleTarget?: RuleTarget;
  /** Whether a call may change the workspace (Bash, Write, Edit): such tools never run in a review. */
  changesWorkspace?: boolean;
  /**
   * A tool the provider runs itself (WebSearch): the definition its API takes in place of a schema.
   * Its calls and results come back inside the model's turn; a provider without it is not offered it.
   */
  server?: ServerTool;
}

/** The Messages API's web search tool, as sent. */
export interface ServerTool {
  type: 'web_search_20250305';
  name: 'web_search';
  max_uses?: number;
  allowed_domains?: string[];
  blocked_domains?: string[];
}

/** The only tool API the loop sees. Wrappers (rules, hooks, change tracking) are ToolSets too. */
export interface ToolSet {
  /** The tools to offer, read again before every model call. */
  specs(): readonly ToolSpec[];
  isReadOnly(name: string): boolean;
  /** Validates, runs and caps one call. Never throws: every failure is an is_error outcome. */
  execute(call: ToolCall, signal: AbortSignal): Promise<ToolOutcome>;
}

/** The text of an outcome, images left out: for logs, progress lines and failure counting. */
export function outcomeText(outcome: ToolOutcome): string {
  if (typeof outcome.content === 'string') return outcome.content;
  return outcome.content.map((part) => (part.type === 'text' ? part.text : '[image]')).join('\n');
}
