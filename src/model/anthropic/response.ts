import type Anthropic from '@anthropic-ai/sdk';
import type { TurnStop } from '../../core/model.js';
import type { Block } from '../../core/messages.js';
import type { Usage } from '../../core/usage.js';

/**
 * The blocks the loop keeps. A web search the API ran in the turn stays as its call and its result,
 * sent back as they came; other server tools' blocks (none is asked for) are dropped.
 */
export function fromContent(content: readonly Anthropic.ContentBlock[]): Block[] {
  return content.flatMap((block): Block[] => {
    switch (block.type) {
      case 'text':
        return [{ type: 'text', text: block.text }];
      case 'tool_use':
        return [{ type: 'tool_use', id: block.id, name: block.name, input: block.input }];
      case 'thinking':
        return [{ type: 'thinking', thinking: block.thinking, signature: block.signature }];
      case 'redacted_thinking':
        return [{ type: 'redacted_thinking', data: block.data }];
      case 'server_tool_use':
        return block.name === 'web_search' ? [{ type: 'server_tool_use', id: block.id, name: block.name, input: block.input }] : [];
      case 'web_search_tool_result':
        return [{ type: 'web_search_tool_result', tool_use_id: block.tool_use_id, content: block.content }];
      default:
        return [];
    }
  });
}

const STOPS: Readonly<Record<string, TurnStop>> = {
  end_turn: 'end',
  stop_sequence: 'end',
  tool_use: 'tool_use',
  max_tokens: 'max_tokens',
  model_context_window_exceeded: 'context_full',
  pause_turn: 'pause',
  refusal: 'refusal',
};

export function fromStopReason(reason: string | null): TurnStop {
  return (reason && STOPS[reason]) || 'end';
}

export function usageOf(u: Partial<Anthropic.Usage> | undefined | null): Usage {
  const searches = u?.server_tool_use?.web_search_requests ?? 0;
  return {
    input_tokens: u?.input_tokens ?? 0,
    output_tokens: u?.output_tokens ?? 0,
    cache_read_input_tokens: u?.cache_read_input_tokens ?? 0,
    cache_creation_input_tokens: u?.cache_creation_input_tokens ?? 0,
    ...(searches > 0 ? { server_tool_use: { web_search_requests: searches } } : {}),
  };
}
