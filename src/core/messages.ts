// The conversation as the loop keeps it. The shapes are those of the Messages API (and so of the
// transcript), but they are the project's own: a model adapter maps them to its provider.

export interface TextBlock {
  type: 'text';
  text: string;
}

export interface ImageBlock {
  type: 'image';
  source: { type: 'base64'; media_type: 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp'; data: string };
}

export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string | (TextBlock | ImageBlock)[];
  is_error?: boolean;
}

/** Extended thinking, sent back exactly as received (its signature is checked). */
export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

export interface RedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

/** A call of a tool the provider runs itself (web search): the model's, answered in the same turn. */
export interface ServerToolUseBlock {
  type: 'server_tool_use';
  id: string;
  name: string;
  input: unknown;
}

/** What a server-side web search found, as the API returned it (encrypted page contents): sent back unchanged. */
export interface WebSearchToolResultBlock {
  type: 'web_search_tool_result';
  tool_use_id: string;
  content: unknown;
}

export type Block =
  | TextBlock
  | ImageBlock
  | ToolUseBlock
  | ToolResultBlock
  | ThinkingBlock
  | RedactedThinkingBlock
  | ServerToolUseBlock
  | WebSearchToolResultBlock;

/** A conversation turn; system text travels beside the messages, never as one. */
export interface Message {
  role: 'user' | 'assistant';
  content: string | Block[];
}

export function blocksOf(message: Message): Block[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

export function textOf(blocks: readonly Block[]): string {
  return blocks
    .map((b) => (b.type === 'text' ? b.text : ''))
    .filter((t) => t.length > 0)
    .join('\n\n');
}

export function textMessage(role: Message['role'], text: string): Message {
  return { role, content: [{ type: 'text', text }] };
}
