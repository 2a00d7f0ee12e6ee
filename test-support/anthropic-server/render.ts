/**
 * The wire side of a reply: a scripted turn as the SSE events the real API streams, the error
 * envelope, and the scripted faults (a stream cut after some events).
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { CacheResult } from './cache.js';
import { estimateTokens, type JsonRecord } from './common.js';
import { waitsBefore } from './pace.js';
import type { ServerState } from './state.js';
import type { Pace, ScriptedBlock, ScriptedFault, SimUsage, StopReason } from './types.js';

interface SseData {
  type: string;
  [key: string]: unknown;
}

function sse(data: SseData): string {
  return `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Split into up to `pieces` non-empty parts without breaking surrogate pairs. */
function split(text: string, pieces: number): string[] {
  const chars = Array.from(text);
  const n = Math.min(pieces, chars.length);
  if (n === 0) return [];
  const size = Math.ceil(chars.length / n);
  const parts: string[] = [];
  for (let i = 0; i < chars.length; i += size) parts.push(chars.slice(i, i + size).join(''));
  return parts;
}

function defaultSignature(thinking: string): string {
  return createHash('sha256').update(`signature|${thinking}`).digest('base64');
}

export function defaultStopReason(content: ScriptedBlock[]): StopReason {
  if (content.some((b) => b.type === 'tool_use_partial')) return 'max_tokens';
  if (content.some((b) => b.type === 'tool_use')) return 'tool_use';
  return 'end_turn';
}

interface Resolved {
  /** The block as it appears in the final message. */
  final: JsonRecord;
  events: SseData[];
}

const delta = (index: number, body: SseData): SseData => ({ type: 'content_block_delta', index, delta: body });

type ToolBlock = Extract<ScriptedBlock, { type: 'tool_use' | 'tool_use_partial' }>;

function resolveToolUse(state: ServerState, block: ToolBlock, index: number, reserved: ReadonlySet<string>): Resolved {
  const id = block.id ?? state.nextToolId(reserved);
  state.markToolIdIssued(id);
  const json = block.type === 'tool_use' ? (JSON.stringify(block.input) ?? '{}') : block.partialJson;
  const input = block.type === 'tool_use' ? block.input : json;
  return {
    final: { type: 'tool_use', id, name: block.name, input },
    events: [
      { type: 'content_block_start', index, content_block: { type: 'tool_use', id, name: block.name, input: {} } },
      ...split(json, 3).map((partial_json) => delta(index, { type: 'input_json_delta', partial_json })),
      { type: 'content_block_stop', index },
    ],
  };
}

type SearchBlock = Extract<ScriptedBlock, { type: 'web_search' }>;

/** A search as its two blocks: the call (input streamed as JSON deltas) and its result (whole at its start). */
function resolveSearch(state: ServerState, block: SearchBlock, index: number): Resolved[] {
  const id = block.id ?? state.nextServerToolId();
  const input = { query: block.query };
  const content =
    block.error !== undefined
      ? { type: 'web_search_tool_result_error', error_code: block.error }
      : (block.results ?? []).map((hit) => ({
          type: 'web_search_result',
          url: hit.url,
          title: hit.title,
          encrypted_content: Buffer.from(`page|${hit.url}|${block.query}`).toString('base64'),
          page_age: hit.page_age ?? null,
        }));
  state.searchResults.set(id, JSON.stringify(content));
  const result = { type: 'web_search_tool_result', tool_use_id: id, content };
  return [
    {
      final: { type: 'server_tool_use', id, name: 'web_search', input },
      events: [
        { type: 'content_block_start', index, content_block: { type: 'server_tool_use', id, name: 'web_search', input: {} } },
        delta(index, { type: 'input_json_delta', partial_json: '' }),
        ...split(JSON.stringify(input), 3).map((partial_json) => delta(index, { type: 'input_json_delta', partial_json })),
        { type: 'content_block_stop', index },
      ],
    },
    {
      final: result,
      events: [
        { type: 'content_block_start', index: index + 1, content_block: result },
        { type: 'content_block_stop', index: index + 1 },
      ],
    },
  ];
}

function resolveBlock(
  state: ServerState,
  block: Exclude<ScriptedBlock, SearchBlock>,
  index: number,
  reserved: ReadonlySet<string>,
): Resolved {
  switch (block.type) {
    case 'text':
      return {
        final: { type: 'text', text: block.text },
        events: [
          { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
          ...split(block.text, 3).map((text) => delta(index, { type: 'text_delta', text })),
          { type: 'content_block_stop', index },
        ],
      };
    case 'tool_use':
    case 'tool_use_partial':
      return resolveToolUse(state, block, index, reserved);
    case 'thinking': {
      const signature = block.signature ?? defaultSignature(block.thinking);
      state.rememberSignature(signature, block.thinking);
      return {
        final: { type: 'thinking', thinking: block.thinking, signature },
        events: [
          { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } },
          ...split(block.thinking, 3).map((thinking) => delta(index, { type: 'thinking_delta', thinking })),
          delta(index, { type: 'signature_delta', signature }),
          { type: 'content_block_stop', index },
        ],
      };
    }
    case 'redacted_thinking':
      return {
        final: { type: 'redacted_thinking', data: block.data },
        events: [
          { type: 'content_block_start', index, content_block: { type: 'redacted_thinking', data: block.data } },
          { type: 'content_block_stop', index },
        ],
      };
  }
}

export interface TurnInput {
  model: string;
  content: ScriptedBlock[];
  stopReason: StopReason;
  outputOverride: number | undefined;
  cacheResult: CacheResult;
}

function messageStart(id: string, model: string, inputUsage: JsonRecord, cacheResult: CacheResult): SseData {
  return {
    type: 'message_start',
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      container: null,
      diagnostics: null,
      stop_details: null,
      stop_reason: null,
      stop_sequence: null,
      usage: {
        ...inputUsage,
        cache_creation: {
          ephemeral_5m_input_tokens: cacheResult.ephemeral_5m_input_tokens,
          ephemeral_1h_input_tokens: cacheResult.ephemeral_1h_input_tokens,
        },
        output_tokens: 1,
        service_tier: 'standard',
      },
    },
  };
}

/** The whole event stream of a turn; resolving it issues the turn's tool ids and thinking signatures. */
export function buildEvents(state: ServerState, input: TurnInput): { events: SseData[]; usage: SimUsage } {
  const { model, content, stopReason, outputOverride, cacheResult } = input;
  const reserved = new Set(content.flatMap((b) => ((b.type === 'tool_use' || b.type === 'tool_use_partial') && b.id ? [b.id] : [])));
  // A search takes two content indexes (its call and its result), so indexes are counted as blocks go.
  const resolved: Resolved[] = [];
  for (const block of content) {
    if (block.type === 'web_search') resolved.push(...resolveSearch(state, block, resolved.length));
    else resolved.push(resolveBlock(state, block, resolved.length, reserved));
  }
  const searches = content.filter((b) => b.type === 'web_search').length;
  const outputTokens = outputOverride ?? estimateTokens(resolved.map((r) => r.final));
  const usage: SimUsage = {
    input_tokens: cacheResult.input_tokens,
    cache_read_input_tokens: cacheResult.cache_read_input_tokens,
    cache_creation_input_tokens: cacheResult.cache_creation_input_tokens,
    output_tokens: outputTokens,
    ...(searches > 0 ? { server_tool_use: { web_search_requests: searches } } : {}),
  };
  const inputUsage = {
    input_tokens: usage.input_tokens,
    cache_creation_input_tokens: usage.cache_creation_input_tokens,
    cache_read_input_tokens: usage.cache_read_input_tokens,
  };
  const events: SseData[] = [
    messageStart(state.nextMessageId(), model, inputUsage, cacheResult),
    { type: 'ping' },
    ...resolved.flatMap((r) => r.events),
    {
      type: 'message_delta',
      delta: { container: null, stop_details: null, stop_reason: stopReason, stop_sequence: null },
      usage: { ...inputUsage, output_tokens: outputTokens, ...(usage.server_tool_use ? { server_tool_use: usage.server_tool_use } : {}) },
    },
    { type: 'message_stop' },
  ];
  return { events, usage };
}

export function sendError(
  state: ServerState,
  res: ServerResponse,
  status: number,
  type: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  const requestId = state.nextRequestId();
  const body = JSON.stringify({ type: 'error', error: { type, message }, request_id: requestId });
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'request-id': requestId,
    ...headers,
  });
  res.end(body);
}

/** How a fault ends the events it sent: a cut destroys the socket, a silence leaves it open, garble ends it after a bad event. */
function endFault(res: ServerResponse, chunk: string, fault: ScriptedFault): void {
  // An SSE comment stands in when a fault sends no event, so the status line still goes out first.
  const head = chunk || ':\n\n';
  if (fault.kind === 'cut') res.write(head, () => res.destroy());
  else if (fault.kind === 'silent') res.write(head);
  else
    res.end(
      `${chunk}event: content_block_delta\n${fault.data
        .split(/\r\n|\r|\n/)
        .map((line) => `data: ${line}\n`)
        .join('')}\n`,
    );
}

/**
 * Streams the events, or for a fault (`cut`, `silent`, `garbled`) only the first `afterEvents` of
 * them before it fails its way; at `pace` when one is given, all at once otherwise.
 */
export async function writeStream(
  state: ServerState,
  res: ServerResponse,
  events: SseData[],
  fault: ScriptedFault | undefined,
  pace?: Pace,
): Promise<void> {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'request-id': state.nextRequestId(),
  });
  const sent = fault ? events.slice(0, Math.max(0, fault.afterEvents)) : events;
  const waits = pace ? waitsBefore(sent, pace) : [];
  // Events due at the same moment go out in one write.
  let chunk = '';
  for (const [i, event] of sent.entries()) {
    const wait = waits[i] ?? 0;
    if (wait > 0) {
      if (chunk) res.write(chunk);
      chunk = '';
      await state.sleep(wait);
      if (state.closing || res.destroyed) return;
    }
    chunk += sse(event);
  }
  if (fault) endFault(res, chunk, fault);
  else res.end(chunk);
}
