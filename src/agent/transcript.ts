import { appendFileSync, mkdirSync, openSync, closeSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type Anthropic from '@anthropic-ai/sdk';

/** A conversation turn; system text travels in the request's `system` field, never as a message. */
export type MessageParam = Anthropic.UserMessageParam | Anthropic.AssistantMessageParam;
export type ContentBlock = Anthropic.ContentBlock;
export type ContentBlockParam = Anthropic.ContentBlockParam;
export type ToolUseBlock = Anthropic.ToolUseBlock;
export type ToolResultBlockParam = Anthropic.ToolResultBlockParam;

/** One line of the transcript (contract 6). */
export type TranscriptRecord =
  | { type: 'user'; message: MessageParam; time: string }
  | { type: 'assistant'; message: MessageParam; time: string; step: number; stop_reason: string | null }
  | { type: 'system'; system: string; tools: string[]; model: string; time: string }
  | ({ type: 'meta'; event: string; time: string } & Record<string, unknown>);

/** Content as it goes back to the API: the fields the API accepts, thinking signatures untouched. */
export function toParam(block: ContentBlock): ContentBlockParam {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
    case 'thinking':
      return { type: 'thinking', thinking: block.thinking, signature: block.signature };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: block.data };
    default:
      return block as ContentBlockParam;
  }
}

export function blocksOf(message: MessageParam): ContentBlockParam[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

export function textOf(blocks: readonly (ContentBlock | ContentBlockParam)[]): string {
  return blocks
    .map((b) => (b.type === 'text' ? b.text : ''))
    .filter((t) => t.length > 0)
    .join('\n\n');
}

function toolUseIds(message: MessageParam): string[] {
  return blocksOf(message).flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));
}

function toolResultIds(message: MessageParam | undefined): Set<string> {
  if (!message || message.role !== 'user') return new Set();
  return new Set(blocksOf(message).flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : [])));
}

/**
 * Makes a history the API will accept: drops tool_use blocks that have no tool_result right after
 * them (a run stopped mid-turn), tool_results that answer nothing, empty messages, and merges
 * neighbours of the same role.
 */
export function repairHistory(input: readonly MessageParam[]): MessageParam[] {
  const out: MessageParam[] = [];
  for (let i = 0; i < input.length; i++) {
    const message = input[i]!;
    let blocks = blocksOf(message);
    if (message.role === 'assistant') {
      const answered = toolResultIds(input[i + 1]);
      blocks = blocks.filter((b) => b.type !== 'tool_use' || answered.has(b.id));
    } else {
      const prev = out[out.length - 1];
      const asked = new Set(prev && prev.role === 'assistant' ? toolUseIds(prev) : []);
      blocks = blocks.filter((b) => b.type !== 'tool_result' || asked.has(b.tool_use_id));
    }
    if (blocks.length === 0) continue;
    const last = out[out.length - 1];
    if (last && last.role === message.role) {
      const merged = [...blocksOf(last), ...blocks];
      // The API wants tool results ahead of anything else in a user message.
      last.content = [...merged.filter((b) => b.type === 'tool_result'), ...merged.filter((b) => b.type !== 'tool_result')];
    } else if (message.role === 'user') {
      out.push({ role: 'user', content: blocks });
    } else {
      out.push({ role: 'assistant', content: blocks });
    }
  }
  while (out.length > 0 && out[0]!.role !== 'user') out.shift();
  return out;
}

/** Appends records as the run goes, so a crash or a kill loses at most the call under way. */
export class TranscriptWriter {
  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    closeSync(openSync(path, 'a'));
  }

  write(record: TranscriptRecord): void {
    appendFileSync(this.path, JSON.stringify(record) + '\n');
  }
}

export function messageRecord(message: MessageParam, step = 0): TranscriptRecord {
  return message.role === 'user'
    ? { type: 'user', message, time: now() }
    : { type: 'assistant', message, time: now(), step, stop_reason: null };
}

export function now(): string {
  return new Date().toISOString();
}

/** Reads a transcript back into the messages it sent, repaired so that the run can go on. */
export function readTranscript(path: string): { messages: MessageParam[]; records: TranscriptRecord[] } {
  const records: TranscriptRecord[] = [];
  const lines = readFileSync(path, 'utf8').split('\n');
  for (const [n, line] of lines.entries()) {
    if (line.trim() === '') continue;
    try {
      records.push(JSON.parse(line) as TranscriptRecord);
    } catch {
      // A kill in the middle of a write leaves a partial last line; anything else is corruption.
      if (n < lines.length - 2) throw new Error(`${path}:${n + 1}: not a JSON transcript record`);
    }
  }
  const raw = records.flatMap((r) => (r.type === 'user' || r.type === 'assistant' ? [r.message] : []));
  return { messages: repairHistory(raw), records };
}
