import type Anthropic from '@anthropic-ai/sdk';
import { blocksOf, type Block, type Message } from '../../core/messages.js';
import type { ToolSpec } from '../../core/tools.js';

const EPHEMERAL: Anthropic.CacheControlEphemeral = { type: 'ephemeral' };

type Param = Anthropic.ContentBlockParam;
type MessageParam = Anthropic.MessageParam;

function toParam(block: Block): Param {
  switch (block.type) {
    case 'image':
      return { type: 'image', source: { type: 'base64', media_type: block.source.media_type, data: block.source.data } };
    case 'tool_result': {
      const content =
        typeof block.content === 'string'
          ? block.content
          : block.content.map((part) => toParam(part) as Anthropic.TextBlockParam | Anthropic.ImageBlockParam);
      return { type: 'tool_result', tool_use_id: block.tool_use_id, content, ...(block.is_error ? { is_error: true } : {}) };
    }
    default:
      // text, tool_use, thinking and redacted_thinking have the API's own shape already.
      return block;
  }
}

function cacheable(block: Param): boolean {
  return block.type === 'text' || block.type === 'tool_use' || block.type === 'tool_result' || block.type === 'image';
}

function toMessage(message: Message, breakpoint: boolean): MessageParam {
  if (typeof message.content === 'string' && !breakpoint) return { role: message.role, content: message.content };
  const blocks = blocksOf(message).map(toParam);
  if (breakpoint) {
    const i = blocks.findLastIndex(cacheable);
    if (i >= 0) blocks[i] = { ...blocks[i]!, cache_control: EPHEMERAL } as Param;
  }
  return { role: message.role, content: blocks };
}

/**
 * The messages as the API takes them, with cache breakpoints on the newest message and on the
 * newest user message before it, which is where the previous request ended: its cached prefix is
 * found exactly, however many blocks the turn in between added. With the one on the system prompt
 * that makes three of the four allowed.
 */
export function toMessages(messages: readonly Message[]): MessageParam[] {
  const last = messages.length - 1;
  let previousUser = -1;
  for (let i = last - 1; i >= 0; i--) {
    if (messages[i]!.role === 'user') {
      previousUser = i;
      break;
    }
  }
  return messages.map((m, i) => toMessage(m, i === last || i === previousUser));
}

/** The system prompt, a cache breakpoint at its end: with the tools, the prefix every call shares. */
export function toSystem(system: string): Anthropic.TextBlockParam[] {
  return [{ type: 'text', text: system, cache_control: EPHEMERAL }];
}

const toolParams = new WeakMap<readonly ToolSpec[], Anthropic.Tool[]>();

/** The tools as the API takes them; the same specs give the same objects, call after call. */
export function toTools(specs: readonly ToolSpec[]): Anthropic.Tool[] {
  let tools = toolParams.get(specs);
  if (!tools) {
    tools = specs.map((s) => ({ name: s.name, description: s.description, input_schema: s.input_schema }));
    toolParams.set(specs, tools);
  }
  return tools;
}
