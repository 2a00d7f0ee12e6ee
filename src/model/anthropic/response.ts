import type Anthropic from '@anthropic-ai/sdk';
import type { TurnStop } from '../../core/model.js';
import type { Block } from '../../core/messages.js';
import type { Usage } from '../../core/usage.js';

/** The blocks the loop keeps; server-side tool blocks are the API's business and are dropped. */
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
  return {
    input_tokens: u?.input_tokens ?? 0,
    output_tokens: u?.output_tokens ?? 0,
    cache_read_input_tokens: u?.cache_read_input_tokens ?? 0,
    cache_creation_input_tokens: u?.cache_creation_input_tokens ?? 0,
  };
}
