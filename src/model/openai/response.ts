import type OpenAI from 'openai';
import type { TurnStop } from '../../core/model.js';
import type { Block } from '../../core/messages.js';
import type { Usage } from '../../core/usage.js';

type Chunk = OpenAI.Chat.ChatCompletionChunk;

interface PendingCall {
  id: string;
  name: string;
  args: string;
}

/** Ids made up for servers that send none; unique for the process, so they never collide across turns. */
let generatedIds = 0;

/** A streamed answer as it arrives: text deltas, tool calls in fragments keyed by index, the stop and usage. */
export class TurnAccumulator {
  text = '';
  finish: string | null = null;
  usage: OpenAI.CompletionUsage | null = null;
  model: string | null = null;
  private readonly calls = new Map<number, PendingCall>();

  /** Adds one chunk; returns the text it carried, for live progress. */
  add(chunk: Chunk): string {
    if (chunk.model) this.model = chunk.model;
    if (chunk.usage) this.usage = chunk.usage;
    let text = '';
    for (const choice of chunk.choices ?? []) {
      // Only the first choice is asked for; any other is ignored rather than mixed in.
      if (choice.index !== 0) continue;
      const delta = choice.delta;
      if (typeof delta?.content === 'string') text += delta.content;
      for (const call of delta?.tool_calls ?? []) this.addCall(call);
      if (choice.finish_reason) this.finish = choice.finish_reason;
    }
    this.text += text;
    return text;
  }

  private addCall(fragment: OpenAI.Chat.ChatCompletionChunk.Choice.Delta.ToolCall): void {
    // A server that omits ids still needs them, to pair the results sent back with the calls.
    const pending = this.calls.get(fragment.index) ?? { id: `call_gen_${++generatedIds}`, name: '', args: '' };
    // id and name arrive in the first fragment; some servers repeat them, so a later copy is not appended.
    if (fragment.id) pending.id = fragment.id;
    if (fragment.function?.name && !pending.name) pending.name = fragment.function.name;
    if (fragment.function?.arguments) pending.args += fragment.function.arguments;
    this.calls.set(fragment.index, pending);
  }

  /** Text first, then the calls in index order, as the loop's blocks. */
  content(): Block[] {
    const blocks: Block[] = this.text.length > 0 ? [{ type: 'text', text: this.text }] : [];
    const indexes = [...this.calls.keys()].sort((a, b) => a - b);
    for (const i of indexes) {
      const call = this.calls.get(i)!;
      blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: parseArguments(call.args) });
    }
    return blocks;
  }
}

/**
 * Arguments that are not a JSON object are kept as their raw text: every tool's schema expects an
 * object, so validation rejects the call with an error the model sees and can correct, instead of
 * the call running with an empty or guessed input.
 */
export function parseArguments(raw: string): unknown {
  if (raw.trim().length === 0) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : raw;
  } catch {
    return raw;
  }
}

const STOPS: Readonly<Record<string, TurnStop>> = {
  stop: 'end',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  length: 'max_tokens',
  content_filter: 'refusal',
};

/** A stream that ends without a reason is taken at its content: calls to run, or the end. */
export function fromFinishReason(reason: string | null, hasCalls: boolean): TurnStop {
  const mapped = reason ? STOPS[reason] : undefined;
  if (mapped) return mapped;
  return hasCalls ? 'tool_use' : 'end';
}

/** Chat Completions counts cached tokens inside prompt_tokens; the loop counts them apart. */
export function usageOf(u: OpenAI.CompletionUsage): Usage {
  const cached = u.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    input_tokens: Math.max(0, (u.prompt_tokens ?? 0) - cached),
    output_tokens: u.completion_tokens ?? 0,
    cache_read_input_tokens: cached,
    cache_creation_input_tokens: 0,
  };
}

/**
 * A server that sends no usage (some compatible ones ignore stream_options) is estimated at four
 * characters a token, so that spend caps and the context meter still move. The estimate is not
 * marked in the turn: the core types have no field for it, and it errs on neither side by much.
 */
export function estimateUsage(requestChars: number, acc: TurnAccumulator): Usage {
  const outChars = acc.text.length + acc.content().reduce((n, b) => n + (b.type === 'tool_use' ? JSON.stringify(b.input).length : 0), 0);
  return {
    input_tokens: Math.ceil(requestChars / 4),
    output_tokens: Math.ceil(outChars / 4),
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
  };
}
