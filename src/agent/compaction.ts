import type Anthropic from '@anthropic-ai/sdk';
import { blocksOf, type ContentBlockParam, type MessageParam } from './messages.js';

const EPHEMERAL: Anthropic.CacheControlEphemeral = { type: 'ephemeral' };

function cacheable(block: ContentBlockParam): boolean {
  return block.type === 'text' || block.type === 'tool_use' || block.type === 'tool_result' || block.type === 'image';
}

function markLast(message: MessageParam): MessageParam {
  const blocks = blocksOf(message);
  for (let i = blocks.length - 1; i >= 0; i--) {
    const block = blocks[i]!;
    if (!cacheable(block)) continue;
    const marked = [...blocks];
    marked[i] = { ...block, cache_control: EPHEMERAL } as ContentBlockParam;
    return { ...message, content: marked } as MessageParam;
  }
  return message;
}

/**
 * Cache breakpoints on the newest message and on the newest user message before it, which is
 * where the previous request ended: its cached prefix is found exactly, however many blocks the
 * turn in between added. With the one on the system prompt that makes three of the four allowed.
 * Only the two touched messages are copied; the history itself never carries cache_control.
 */
export function withCacheBreakpoints(messages: readonly MessageParam[]): MessageParam[] {
  const out = [...messages];
  const last = out.length - 1;
  if (last < 0) return out;
  out[last] = markLast(out[last]!);
  for (let i = last - 1; i >= 0; i--) {
    if (out[i]!.role === 'user') {
      out[i] = markLast(out[i]!);
      break;
    }
  }
  return out;
}

function resultLength(block: Anthropic.ToolResultBlockParam): number {
  const content = block.content;
  if (content === undefined) return 0;
  if (typeof content === 'string') return content.length;
  return content.reduce((n, part) => n + (part.type === 'text' ? part.text.length : 0), 0);
}

const CLEARED = '[cleared to save context:';

/**
 * Replaces the output of older tool calls with a one-line note of what was there, keeping the
 * newest `keepRecent` user turns whole. Returns how many results were cleared; the transcript
 * keeps the originals.
 */
export function clearOldToolResults(messages: MessageParam[], keepRecent: number): number {
  const calls = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const block of blocksOf(message)) {
      if (block.type === 'tool_use') calls.set(block.id, `${block.name} ${JSON.stringify(block.input).slice(0, 120)}`);
    }
  }
  const userTurns = messages.flatMap((m, i) => (m.role === 'user' ? [i] : []));
  const cutoff = userTurns.length > keepRecent ? userTurns[userTurns.length - keepRecent]! : 0;
  let cleared = 0;
  for (let i = 0; i < cutoff; i++) {
    const message = messages[i]!;
    if (message.role !== 'user' || typeof message.content === 'string') continue;
    message.content = message.content.map((block) => {
      if (block.type !== 'tool_result') return block;
      const text = typeof block.content === 'string' ? block.content : '';
      if (text.startsWith(CLEARED) || resultLength(block) < 200) return block;
      cleared++;
      const call = calls.get(block.tool_use_id) ?? 'a tool call';
      return { ...block, content: `${CLEARED} ${resultLength(block)} characters of output from ${call}; run it again if you need it]` };
    });
  }
  return cleared;
}
