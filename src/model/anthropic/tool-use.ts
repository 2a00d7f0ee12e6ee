import type Anthropic from '@anthropic-ai/sdk';
import { partialParse } from '@anthropic-ai/sdk/_vendor/partial-json-parser/parser';
import type { ToolUseBlock } from '../../core/messages.js';
import { fromStopReason } from './response.js';

/** What the adapter is told while an answer streams. */
export interface AnswerEvents {
  onText?: ((delta: string) => void) | undefined;
  /** A tool_use block sure to be whole (see below). */
  onToolUse?: ((block: ToolUseBlock) => void) | undefined;
}

type Content = Anthropic.ContentBlock;

/**
 * One answer built from the raw stream events, as the SDK's MessageStream builds its snapshot, but
 * with less work per event: a call's input is parsed once, with JSON.parse, when its block stops
 * (MessageStream re-wraps the block at every delta and parses the input with its partial-JSON
 * parser, a tokenizer written for input still arriving), and nothing is emitted to listeners that
 * are not there. An input that does not parse (cut by the output limit) is read as far as it goes,
 * by that same partial parser, as the SDK would.
 *
 * It also reports each tool_use block once it is sure to be whole. Its content_block_stop is not
 * enough: an answer cut by max_tokens (or a full context) still closes the block it was writing,
 * with half its input. So a block counts as whole once the next block starts, the model having
 * moved on, or once the answer ends in a way whose calls are run ('tool_use', 'end'); the last
 * block of an answer cut short is never reported, nor that of a paused or refused one.
 */
export class StreamedAnswer {
  /** message_start's message, updated as the events come; undefined before it. */
  message: Anthropic.Message | undefined;
  /** Whether message_stop came: an answer without it broke off. */
  complete = false;
  private readonly json = new Map<number, string>();
  private closed: ToolUseBlock | undefined;

  constructor(private readonly events: AnswerEvents = {}) {}

  add(event: Anthropic.RawMessageStreamEvent): void {
    if (event.type === 'message_start') {
      this.message = { ...event.message, content: [...event.message.content] };
      return;
    }
    const message = this.message;
    if (!message) return;
    switch (event.type) {
      case 'content_block_start':
        this.release();
        message.content[event.index] = { ...event.content_block };
        return;
      case 'content_block_delta':
        return this.delta(message.content, event);
      case 'content_block_stop':
        return this.stop(message.content, event.index);
      case 'message_delta': {
        message.stop_reason = event.delta.stop_reason;
        message.stop_sequence = event.delta.stop_sequence;
        // The counters are whole-message totals, left out when they do not apply: overwritten, never added.
        const { usage } = event;
        message.usage.output_tokens = usage.output_tokens;
        if (usage.input_tokens != null) message.usage.input_tokens = usage.input_tokens;
        if (usage.cache_creation_input_tokens != null) message.usage.cache_creation_input_tokens = usage.cache_creation_input_tokens;
        if (usage.cache_read_input_tokens != null) message.usage.cache_read_input_tokens = usage.cache_read_input_tokens;
        if (usage.server_tool_use != null) message.usage.server_tool_use = usage.server_tool_use;
        const stop = fromStopReason(event.delta.stop_reason);
        if (stop === 'tool_use' || stop === 'end') this.release();
        this.closed = undefined;
        return;
      }
      case 'message_stop':
        this.complete = true;
        return;
    }
  }

  /** A delta extends the block in place: each block is this answer's own copy of its start. */
  private delta(content: Content[], event: Anthropic.RawContentBlockDeltaEvent): void {
    const block = content[event.index];
    const { delta } = event;
    switch (delta.type) {
      case 'text_delta':
        if (block?.type !== 'text') return;
        block.text += delta.text;
        this.events.onText?.(delta.text);
        return;
      case 'input_json_delta':
        if (block?.type === 'tool_use' || block?.type === 'server_tool_use') {
          this.json.set(event.index, (this.json.get(event.index) ?? '') + delta.partial_json);
        }
        return;
      case 'thinking_delta':
        if (block?.type === 'thinking') block.thinking += delta.thinking;
        return;
      case 'signature_delta':
        if (block?.type === 'thinking') block.signature = delta.signature;
        return;
      default:
        // Citations: the loop keeps a text block's text only.
        return;
    }
  }

  private stop(content: Content[], index: number): void {
    const block = content[index];
    if (block?.type !== 'tool_use' && block?.type !== 'server_tool_use') return;
    const json = this.json.get(index);
    if (json !== undefined) {
      this.json.delete(index);
      content[index] = { ...block, input: parsed(json) };
    }
    const whole = content[index]!;
    if (whole.type === 'tool_use') this.closed = { type: 'tool_use', id: whole.id, name: whole.name, input: whole.input };
  }

  private release(): void {
    const block = this.closed;
    this.closed = undefined;
    if (block) this.events.onToolUse?.(block);
  }
}

function parsed(json: string): unknown {
  if (json === '') return {};
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return partialParse(json);
  }
}
