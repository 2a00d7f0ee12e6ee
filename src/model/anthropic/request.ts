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
    case 'server_tool_use':
      return { type: 'server_tool_use', id: block.id, name: block.name as Anthropic.ServerToolUseBlockParam['name'], input: block.input };
    case 'web_search_tool_result':
      return {
        type: 'web_search_tool_result',
        tool_use_id: block.tool_use_id,
        content: block.content as Anthropic.WebSearchToolResultBlockParam['content'],
      };
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

const toolParams = {
  with: new WeakMap<readonly ToolSpec[], Anthropic.ToolUnion[]>(),
  without: new WeakMap<readonly ToolSpec[], Anthropic.ToolUnion[]>(),
};

/**
 * The tools as the API takes them; the same specs give the same objects, call after call. A server
 * tool (web search) goes as its own definition, or not at all where the provider has none.
 */
export function toTools(specs: readonly ToolSpec[], serverTools = true): Anthropic.ToolUnion[] {
  const cache = serverTools ? toolParams.with : toolParams.without;
  let tools = cache.get(specs);
  if (!tools) {
    tools = specs.flatMap((s): Anthropic.ToolUnion[] => {
      if (s.server) return serverTools ? [{ ...s.server }] : [];
      return [{ name: s.name, description: s.description, input_schema: s.input_schema }];
    });
    cache.set(specs, tools);
  }
  return tools;
}
