import type OpenAI from 'openai';
import type { Block, ImageBlock, Message, TextBlock, ToolResultBlock, ToolUseBlock } from '../../core/messages.js';
import type { ToolSpec } from '../../core/tools.js';

type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam;
type UserPart = OpenAI.Chat.ChatCompletionContentPart;

/** Tools in Chat Completions' function shape; the JSON schema travels unchanged. */
export function toTools(tools: readonly ToolSpec[]): OpenAI.Chat.ChatCompletionFunctionTool[] {
  // Anthropic's server tools (web search) have no counterpart here.
  return tools
    .filter((t) => !t.server)
    .map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.input_schema } }));
}

function imageUrl(image: ImageBlock): string {
  return `data:${image.source.media_type};base64,${image.source.data}`;
}

/** Base64 is 4 characters per 3 bytes, less padding; the size is only for the model's information. */
function describeImage(image: ImageBlock): string {
  const data = image.source.data;
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  const bytes = Math.max(0, Math.floor((data.length * 3) / 4) - padding);
  return `[image: ${image.source.media_type}, ${bytes} bytes]`;
}

/**
 * Most OpenAI-compatible endpoints accept only text in `tool` messages, so an image a tool returned
 * is described rather than sent.
 */
function toolResultText(block: ToolResultBlock): string {
  const text =
    typeof block.content === 'string'
      ? block.content
      : block.content.map((part) => (part.type === 'text' ? part.text : describeImage(part))).join('\n');
  // Chat Completions has no is_error flag; the model would otherwise take a failure for output.
  const body = block.is_error ? `Error: ${text}` : text;
  return body.length > 0 ? body : '(no output)';
}

function userParts(blocks: readonly (TextBlock | ImageBlock)[]): UserPart[] {
  return blocks.map((b): UserPart =>
    b.type === 'text' ? { type: 'text', text: b.text } : { type: 'image_url', image_url: { url: imageUrl(b) } },
  );
}

/** A user turn: its tool results first (they must follow the assistant's calls), then its text and images. */
function fromUser(blocks: readonly Block[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const b of blocks) {
    if (b.type === 'tool_result') out.push({ role: 'tool', tool_call_id: b.tool_use_id, content: toolResultText(b) });
  }
  const rest = blocks.filter((b): b is TextBlock | ImageBlock => b.type === 'text' || b.type === 'image');
  if (rest.length === 0) return out;
  const onlyText = rest.every((b) => b.type === 'text');
  // Plain strings for text-only turns: some compatible servers still reject content arrays.
  out.push({ role: 'user', content: onlyText ? rest.map((b) => (b.type === 'text' ? b.text : '')).join('\n\n') : userParts(rest) });
  return out;
}

function toolCallOf(b: ToolUseBlock): OpenAI.Chat.ChatCompletionMessageFunctionToolCall {
  // An input kept as a raw string (arguments that were not JSON) is sent back as the model wrote it.
  const args = typeof b.input === 'string' ? b.input : (JSON.stringify(b.input ?? {}) ?? '{}');
  return { id: b.id, type: 'function', function: { name: b.name, arguments: args } };
}

/** An assistant turn: its text and its calls; thinking blocks are Anthropic's and are dropped. */
function fromAssistant(blocks: readonly Block[]): ChatMessage[] {
  const text = blocks
    .map((b) => (b.type === 'text' ? b.text : ''))
    .filter((t) => t.length > 0)
    .join('\n\n');
  const calls = blocks.filter((b): b is ToolUseBlock => b.type === 'tool_use').map(toolCallOf);
  if (text.length === 0 && calls.length === 0) return [];
  return [{ role: 'assistant', content: text.length > 0 ? text : null, ...(calls.length > 0 ? { tool_calls: calls } : {}) }];
}

/** The loop's conversation as Chat Completions messages, the system prompt first. */
export function toMessages(system: string, messages: readonly Message[]): ChatMessage[] {
  const out: ChatMessage[] = system.length > 0 ? [{ role: 'system', content: system }] : [];
  for (const m of messages) {
    const blocks: readonly Block[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    out.push(...(m.role === 'user' ? fromUser(blocks) : fromAssistant(blocks)));
  }
  return out;
}
