import type Anthropic from '@anthropic-ai/sdk';
import type { ToolUseBlock } from '../../core/messages.js';
import { fromStopReason } from './response.js';

/** The part of the SDK's message stream this needs: every event, with the message so far. */
interface EventSource {
  on(event: 'streamEvent', listener: (event: Anthropic.MessageStreamEvent, snapshot: Anthropic.Message) => void): unknown;
}

/**
 * Reports each tool_use block once it is sure to be whole. Its content_block_stop is not enough:
 * an answer cut by max_tokens (or a full context) still closes the block it was writing, with
 * half its input. So a block counts as whole once the next block starts, the model having moved
 * on, or once the answer ends in a way whose calls are run ('tool_use', 'end'); the last block of
 * an answer cut short is never reported, nor that of a paused or refused one.
 */
export function reportWholeToolUse(stream: EventSource, report: (block: ToolUseBlock) => void): void {
  let closed: ToolUseBlock | undefined;
  const release = () => {
    const block = closed;
    closed = undefined;
    if (block) report(block);
  };
  stream.on('streamEvent', (event, snapshot) => {
    switch (event.type) {
      case 'content_block_stop': {
        const block = snapshot.content[event.index];
        if (block?.type === 'tool_use') closed = { type: 'tool_use', id: block.id, name: block.name, input: block.input };
        return;
      }
      case 'content_block_start':
        return release();
      case 'message_delta': {
        const stop = fromStopReason(event.delta.stop_reason);
        if (stop === 'tool_use' || stop === 'end') release();
        closed = undefined;
        return;
      }
      default:
        return;
    }
  });
}
