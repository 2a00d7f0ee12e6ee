/**
 * The prompt-cache simulation: a request is a chain of segments (tools, system blocks, message
 * blocks) hashed prefix by prefix, and `cache_control` breakpoints write and read those prefixes
 * the way the real API's cache does, so that usage figures show what a prompt layout would cost.
 */
import { createHash } from 'node:crypto';
import { estimateTokens, isRecord, type JsonRecord } from './common.js';
import type { MessagesRequestBody } from './types.js';

// The real API looks back this many blocks before each breakpoint for an earlier cache entry.
const CACHE_LOOKBACK = 20;

export interface Segment {
  /** Canonical serialization, including where the segment sits, for the prefix hash. */
  key: string;
  tokens: number;
  breakpoint: '5m' | '1h' | null;
}

function withoutCacheControl(block: JsonRecord): JsonRecord {
  const { cache_control: _ignored, ...rest } = block;
  if (Array.isArray(rest.content)) {
    rest.content = (rest.content as unknown[]).map((inner) => (isRecord(inner) ? withoutCacheControl(inner) : inner));
  }
  return rest;
}

function breakpointOf(block: JsonRecord): Segment['breakpoint'] {
  // A marker on a block nested in a tool_result ends, for this simulation, at the enclosing block.
  const markers = [block.cache_control];
  if (Array.isArray(block.content)) {
    for (const inner of block.content) if (isRecord(inner)) markers.push(inner.cache_control);
  }
  let found: Segment['breakpoint'] = null;
  for (const cc of markers) {
    if (!isRecord(cc)) continue;
    if (cc.ttl === '1h') return '1h';
    found = '5m';
  }
  return found;
}

/** JSON with sorted keys: key order is not part of the prompt the model sees. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function segmentsOf(body: MessagesRequestBody): Segment[] {
  const segments: Segment[] = [];
  const push = (where: string, block: JsonRecord): void => {
    const stripped = withoutCacheControl(block);
    segments.push({ key: `${where}|${canonical(stripped)}`, tokens: estimateTokens(stripped), breakpoint: breakpointOf(block) });
  };
  for (const tool of body.tools ?? []) push('tool', tool);
  const system = body.system;
  if (typeof system === 'string') push('system', { type: 'text', text: system });
  else for (const block of system ?? []) push('system', block);
  body.messages.forEach((message) => {
    const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    // The block index marks message boundaries, so [user: a, b] and [user: a][assistant: b] differ.
    blocks.forEach((block, j) => push(`message|${message.role}|${j === 0 ? 'first' : 'next'}`, block));
  });
  return segments;
}

export interface CacheResult {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  ephemeral_5m_input_tokens: number;
  ephemeral_1h_input_tokens: number;
}

export function simulateCache(model: string, segments: Segment[], cache: Set<string>): CacheResult {
  const hashes: string[] = [];
  const cumulative: number[] = [0];
  let chain = createHash('sha256').update(`model|${model}`).digest('hex');
  segments.forEach((segment, i) => {
    chain = createHash('sha256').update(chain).update('\n').update(segment.key).digest('hex');
    hashes.push(chain);
    cumulative.push((cumulative[i] ?? 0) + segment.tokens);
  });
  const tokensBefore = (end: number): number => cumulative[end] ?? 0;
  const total = tokensBefore(segments.length);

  const breakpoints = segments.flatMap((segment, i) => (segment.breakpoint ? [i] : []));
  let hitEnd = -1;
  for (const b of breakpoints) {
    for (let j = b; j >= Math.max(0, b - CACHE_LOOKBACK); j--) {
      if (cache.has(hashes[j] ?? '')) {
        hitEnd = Math.max(hitEnd, j);
        break;
      }
    }
  }

  const result: CacheResult = {
    input_tokens: 0,
    cache_read_input_tokens: tokensBefore(hitEnd + 1),
    cache_creation_input_tokens: 0,
    ephemeral_5m_input_tokens: 0,
    ephemeral_1h_input_tokens: 0,
  };
  let start = hitEnd + 1;
  for (const b of breakpoints) {
    if (b < start) continue;
    const tokens = tokensBefore(b + 1) - tokensBefore(start);
    result.cache_creation_input_tokens += tokens;
    if (segments[b]?.breakpoint === '1h') result.ephemeral_1h_input_tokens += tokens;
    else result.ephemeral_5m_input_tokens += tokens;
    start = b + 1;
  }
  const lastBreakpoint = breakpoints.at(-1) ?? -1;
  result.input_tokens = total - tokensBefore(lastBreakpoint + 1);
  for (const b of breakpoints) cache.add(hashes[b] ?? '');
  return result;
}
