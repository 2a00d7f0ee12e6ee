import type Anthropic from '@anthropic-ai/sdk';
import type { ToolUseBlock } from '../../core/messages.js';
import { fromStopReason } from './response.js';

/** The part of the SDK's message stream this needs: every event, with the message so far. */
interface EventSource {
  on(event: 'streamEvent', listener: (event: Anthropic.MessageStreamEvent, snapshot: Anthropic.Message) => void): unknown;
}

/**
 * The input of each call (tool_use, server_tool_use) of a streamed answer, parsed once with
 * JSON.parse from its input_json_delta text when its block ends. The SDK would parse the same text
 * with its partial-JSON parser on the first read of the block's `input`: a tokenizer written in
 * JavaScript for input still arriving, many times slower on a whole one, for every call of an
 * answer. A block whose text does not parse (cut by the output limit) keeps the SDK's partial
 * reading, as does one that had no delta (its input came whole with its start).
 */
export class StreamedInputs {
  private readonly text = new Map<number, string>();
  private readonly parsed = new Map<number, unknown>();

  /** Follows the stream: each delta's text, parsed when the block stops. */
  follow(stream: EventSource): void {
    stream.on('streamEvent', (event) => {
      if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') {
        this.text.set(event.index, (this.text.get(event.index) ?? '') + event.delta.partial_json);
      } else if (event.type === 'content_block_stop') {
        const json = this.text.get(event.index);
        if (json === undefined) return;
        this.text.delete(event.index);
        try {
          this.parsed.set(event.index, json === '' ? {} : (JSON.parse(json) as unknown));
        } catch {
          // Not whole: the SDK's partial parse stands.
        }
      }
    });
  }

  /** The input of the block at this index of the answer. */
  inputOf(block: { input: unknown }, index: number): unknown {
    return this.parsed.has(index) ? this.parsed.get(index) : block.input;
  }
}

/**
 * Reports each tool_use block once it is sure to be whole. Its content_block_stop is not enough:
 * an answer cut by max_tokens (or a full context) still closes the block it was writing, with
 * half its input. So a block counts as whole once the next block starts, the model having moved
 * on, or once the answer ends in a way whose calls are run ('tool_use', 'end'); the last block of
 * an answer cut short is never reported, nor that of a paused or refused one.
 */
export function reportWholeToolUse(
  stream: EventSource,
  report: (block: ToolUseBlock) => void,
  inputs: Pick<StreamedInputs, 'inputOf'> = { inputOf: (block) => block.input },
): void {
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
        if (block?.type === 'tool_use') {
          closed = { type: 'tool_use', id: block.id, name: block.name, input: inputs.inputOf(block, event.index) };
        }
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
