/**
 * A scripted fake of the Anthropic Messages API (`POST /v1/messages`, `stream: true`) for tests,
 * benchmarks and the demo. It speaks the real wire protocol (SSE events, error envelope, request-id,
 * retry headers) so the real `@anthropic-ai/sdk` client can be pointed at it, and it rejects the
 * requests the real API would reject so that a conversation the agent builds wrongly fails here
 * rather than in production. Only node built-ins, so benchmarks and the demo can load it as is.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export type StopReason =
  | 'end_turn'
  | 'max_tokens'
  | 'stop_sequence'
  | 'tool_use'
  | 'pause_turn'
  | 'refusal'
  | 'model_context_window_exceeded';

export type ScriptedBlock =
  | { type: 'text'; text: string }
  /** `id` defaults to `toolu_<n>`, unique for the life of the server. */
  | { type: 'tool_use'; id?: string; name: string; input: unknown }
  /**
   * A `max_tokens` cut inside a tool call: `partialJson` is streamed as `input_json_delta` and never
   * completed (the block is still closed with `content_block_stop`, as the real API does).
   */
  | { type: 'tool_use_partial'; id?: string; name: string; partialJson: string }
  /** `signature` defaults to a base64 digest of the thinking text. */
  | { type: 'thinking'; thinking: string; signature?: string }
  | { type: 'redacted_thinking'; data: string };

export interface ScriptedMessage {
  kind?: 'message';
  content: ScriptedBlock[];
  /** Default: `max_tokens` if a `tool_use_partial` is present, else `tool_use` if any tool call, else `end_turn`. */
  stop_reason?: StopReason;
  /** Overrides the estimated output tokens. */
  usage?: Partial<{ output_tokens: number }>;
  /** Wait this long before answering (before the status line). */
  delayMs?: number;
}

export interface ScriptedError {
  kind: 'error';
  status: number;
  /** Error type in the envelope, e.g. `overloaded_error`, `rate_limit_error`, `invalid_request_error`. */
  type: string;
  message: string;
  /** Extra response headers, e.g. `{ 'retry-after': '1' }` or `{ 'x-should-retry': 'false' }`. */
  headers?: Record<string, string>;
}

/** A 200 whose SSE stream breaks: the first `afterEvents` events are sent, then the socket is destroyed. */
export interface ScriptedCut {
  kind: 'cut';
  content: ScriptedBlock[];
  afterEvents: number;
}

/** Accept the request and never answer; the connection is closed by `server.close()`. */
export interface ScriptedHang {
  kind: 'hang';
}

export type ScriptedReply = ScriptedMessage | ScriptedError | ScriptedCut | ScriptedHang;

/**
 * `index` is the position in the script: the number of valid requests before this one. Invalid
 * requests never reach the script.
 */
export type Script = ScriptedReply[] | ((req: RecordedRequest, index: number) => ScriptedReply);

export interface RequestBlock {
  type: string;
  [key: string]: unknown;
}

export interface RequestMessage {
  role: string;
  content: string | RequestBlock[];
}

export interface RequestTool {
  name: string;
  [key: string]: unknown;
}

/**
 * The request body as sent. For a valid request this is exactly the JSON that arrived; for an
 * invalid one, parts that did not have the declared shape are replaced by empty values (the
 * request's `validationError` says what was wrong).
 */
export interface MessagesRequestBody {
  model: string;
  max_tokens: number;
  stream: boolean;
  messages: RequestMessage[];
  system?: string | RequestBlock[];
  tools?: RequestTool[];
  [key: string]: unknown;
}

export interface SimUsage {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  output_tokens: number;
}

export interface RecordedRequest {
  /** Position in `server.requests` (invalid requests included). */
  index: number;
  body: MessagesRequestBody;
  headers: Record<string, string | string[] | undefined>;
  /** Size of the request body in bytes. */
  bytes: number;
  /** `performance.now()` when the whole body had arrived, for start-up and latency figures. */
  receivedAt: number;
  /** Set for replies that produced a `message_start` (`message` and `cut`). */
  usage?: SimUsage;
  validationError?: string;
  reply: NonNullable<ScriptedReply['kind']> | 'invalid';
}

export interface AnthropicServer {
  /** Base URL for the SDK's `baseURL`, e.g. `http://127.0.0.1:41234`. */
  url: string;
  requests: RecordedRequest[];
  /** Every rejection message, in order (validation failures, auth failures, unsupported routes). */
  validationErrors: string[];
  close(): Promise<void>;
}

export interface AnthropicServerOptions {
  script: Script;
  /** Input tokens allowed per request. Default 200000. */
  contextWindow?: number;
  /** If set, the key (`x-api-key`, or `Authorization: Bearer` as SDKs since 1.0 send it) must equal it. */
  requireApiKey?: string;
}

/** The single token measure used for every figure the server reports: ceil(JSON chars / 4). */
export function estimateTokens(value: unknown): number {
  const json = JSON.stringify(value) ?? '';
  return Math.ceil(json.length / 4);
}

// The real API looks back this many blocks before each breakpoint for an earlier cache entry.
const CACHE_LOOKBACK = 20;
const MAX_CACHE_CONTROL = 4;
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const TOOL_USE_ID = /^[a-zA-Z0-9_-]+$/;
const USER_BLOCK_TYPES = ['text', 'image', 'document', 'search_result', 'tool_result'];
const ASSISTANT_BLOCK_TYPES = ['text', 'tool_use', 'thinking', 'redacted_thinking', 'server_tool_use', 'web_search_tool_result'];
const API_VERSIONS = ['2023-01-01', '2023-06-01', '2026-10-21'];
// API version 2026-10-21 removed the sampling parameters: sending any of them is a 400.
const REMOVED_IN_2026_10_21 = ['temperature', 'top_p', 'top_k'];

type JsonRecord = Record<string, unknown>;

function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isBlock(value: unknown): value is RequestBlock {
  return isRecord(value) && typeof value.type === 'string';
}

class Rejection extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

function invalid(message: string): never {
  throw new Rejection(400, 'invalid_request_error', message);
}

interface ValidationContext {
  version: string;
  cacheControls: number;
  /** Signatures this server issued, with the thinking texts they were issued for. */
  signatures: ReadonlyMap<string, ReadonlySet<string>>;
}

function checkCacheControl(block: JsonRecord, path: string, ctx: ValidationContext): void {
  const cc = block.cache_control;
  if (cc === undefined || cc === null) return;
  if (!isRecord(cc) || cc.type !== 'ephemeral') invalid(`${path}.cache_control.type: Input should be 'ephemeral'`);
  if (cc.ttl !== undefined && cc.ttl !== '5m' && cc.ttl !== '1h') {
    invalid(`${path}.cache_control.ttl: Input should be '5m' or '1h'`);
  }
  ctx.cacheControls++;
}

function checkText(block: JsonRecord, path: string): void {
  if (typeof block.text !== 'string') invalid(`${path}.text: Field required`);
  if (block.text === '') invalid(`${path}: text content blocks must be non-empty`);
  if (block.text.trim() === '') invalid(`${path}: text content blocks must contain non-whitespace text`);
}

function checkSystem(system: unknown, ctx: ValidationContext): void {
  if (system === undefined || typeof system === 'string') return;
  if (!Array.isArray(system)) invalid('system: Input should be a valid string or a list of text blocks');
  system.forEach((block, i) => {
    const path = `system.${i}`;
    if (!isRecord(block) || block.type !== 'text') invalid(`${path}.type: Input should be 'text'`);
    checkText(block, path);
    checkCacheControl(block, path, ctx);
  });
}

function checkTools(tools: unknown, ctx: ValidationContext): Set<string> {
  const names = new Set<string>();
  if (tools === undefined) return names;
  if (!Array.isArray(tools)) invalid('tools: Input should be a valid list');
  tools.forEach((tool, i) => {
    const path = `tools.${i}`;
    if (!isRecord(tool)) invalid(`${path}: Input should be a valid dictionary`);
    if (typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name)) {
      invalid(`${path}.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`);
    }
    if (names.has(tool.name)) invalid('tools: Tool names must be unique.');
    names.add(tool.name);
    // Server and client-defined tools (`bash_20250124`, `web_search_…`) carry no schema.
    const custom = tool.type === undefined || tool.type === null || tool.type === 'custom';
    if (custom) {
      if (!isRecord(tool.input_schema)) invalid(`${path}.input_schema: Field required`);
      if (tool.input_schema.type !== 'object') invalid(`${path}.input_schema.type: Input should be 'object'`);
    } else if (typeof tool.type !== 'string') {
      invalid(`${path}.type: Input should be a valid string`);
    }
    checkCacheControl(tool, path, ctx);
  });
  return names;
}

function checkToolChoice(choice: unknown, toolNames: ReadonlySet<string>, hasTools: boolean): void {
  if (choice === undefined) return;
  if (!isRecord(choice) || !['auto', 'any', 'tool', 'none'].includes(String(choice.type))) {
    invalid("tool_choice.type: Input should be 'auto', 'any', 'tool' or 'none'");
  }
  if (!hasTools && choice.type !== 'none' && choice.type !== 'auto') {
    invalid('tool_choice: tool_choice may only be specified while providing tools');
  }
  if (choice.type === 'tool' && (typeof choice.name !== 'string' || !toolNames.has(choice.name))) {
    invalid(`tool_choice.name: Tool '${String(choice.name)}' not found in provided tools`);
  }
}

function checkThinkingConfig(thinking: unknown, maxTokens: number): void {
  if (thinking === undefined) return;
  if (!isRecord(thinking) || !['enabled', 'disabled', 'adaptive'].includes(String(thinking.type))) {
    invalid("thinking.type: Input should be 'enabled', 'disabled' or 'adaptive'");
  }
  if (thinking.type !== 'enabled') return;
  const budget = thinking.budget_tokens;
  if (typeof budget !== 'number' || !Number.isInteger(budget) || budget < 1024) {
    invalid('thinking.enabled.budget_tokens: Input should be greater than or equal to 1024');
  }
  if (budget >= maxTokens) invalid('`max_tokens` must be greater than `thinking.budget_tokens`');
}

function checkToolResult(block: JsonRecord, path: string, ctx: ValidationContext): void {
  if (typeof block.tool_use_id !== 'string') invalid(`${path}.tool_use_id: Field required`);
  if (block.is_error !== undefined && typeof block.is_error !== 'boolean') {
    invalid(`${path}.is_error: Input should be a valid boolean`);
  }
  const content = block.content;
  if (content === undefined || typeof content === 'string') return;
  if (!Array.isArray(content)) invalid(`${path}.content: Input should be a valid string or list`);
  content.forEach((inner, k) => {
    const innerPath = `${path}.content.${k}`;
    if (!isRecord(inner) || (inner.type !== 'text' && inner.type !== 'image')) {
      invalid(`${innerPath}.type: Input should be 'text' or 'image'`);
    }
    if (inner.type === 'text') checkText(inner, innerPath);
    checkCacheControl(inner, innerPath, ctx);
  });
}

function checkBlock(block: JsonRecord, role: string, path: string, ctx: ValidationContext, latestAssistant: boolean): void {
  const allowed = role === 'user' ? USER_BLOCK_TYPES : ASSISTANT_BLOCK_TYPES;
  if (typeof block.type !== 'string' || !allowed.includes(block.type)) {
    invalid(
      `${path}.type: Input tag '${String(block.type)}' found using 'type' does not match any of the expected tags for a ${role} message: ${allowed.join(', ')}`,
    );
  }
  switch (block.type) {
    case 'text':
      checkText(block, path);
      if (role === 'user' && ctx.version === '2026-10-21' && Array.isArray(block.citations) && block.citations.length > 0) {
        invalid(`${path}.citations: text blocks in user messages cannot carry citations in API version 2026-10-21`);
      }
      break;
    case 'tool_use':
    case 'server_tool_use':
      if (typeof block.id !== 'string' || !TOOL_USE_ID.test(block.id)) {
        invalid(`${path}.id: String should match pattern '^[a-zA-Z0-9_-]+$'`);
      }
      if (typeof block.name !== 'string' || block.name === '') invalid(`${path}.name: Field required`);
      if (!isRecord(block.input)) invalid(`${path}.input: Input should be a valid dictionary`);
      break;
    case 'tool_result':
      checkToolResult(block, path, ctx);
      break;
    case 'thinking': {
      if (typeof block.thinking !== 'string') invalid(`${path}.thinking: Field required`);
      if (typeof block.signature !== 'string' || block.signature === '') invalid(`${path}.signature: Field required`);
      // Like the real API, only the latest assistant turn must come back verbatim; older ones may be edited or dropped.
      const issuedFor = ctx.signatures.get(block.signature);
      if (latestAssistant && issuedFor && !issuedFor.has(block.thinking)) {
        invalid(
          `${path}: \`thinking\` or \`redacted_thinking\` blocks in the latest assistant message cannot be modified. These blocks must remain as they were in the original response.`,
        );
      }
      if (block.cache_control != null) invalid(`${path}.thinking.cache_control: Extra inputs are not permitted`);
      break;
    }
    case 'redacted_thinking':
      if (typeof block.data !== 'string' || block.data === '') invalid(`${path}.data: Field required`);
      if (block.cache_control != null) invalid(`${path}.redacted_thinking.cache_control: Extra inputs are not permitted`);
      break;
    case 'image':
    case 'document':
      if (!isRecord(block.source)) invalid(`${path}.source: Field required`);
      break;
  }
  checkCacheControl(block, path, ctx);
}

function checkMessages(messages: unknown, ctx: ValidationContext): void {
  if (messages === undefined) invalid('messages: Field required');
  if (!Array.isArray(messages)) invalid('messages: Input should be a valid list');
  if (messages.length === 0) invalid('messages: at least one message is required');

  const toolUseIds = new Set<string>();
  const latestAssistant = messages.findLastIndex((m) => isRecord(m) && m.role === 'assistant');
  // Tool calls of the previous assistant message, which the next user message must answer first.
  let pending: { ids: string[]; path: string } = { ids: [], path: '' };
  let previousRole: unknown;

  messages.forEach((message, i) => {
    const path = `messages.${i}`;
    if (!isRecord(message)) invalid(`${path}: Input should be a valid dictionary`);
    const role = message.role;
    // Messages of role "system" (instructions given mid-conversation) stand outside the
    // user/assistant alternation and carry text only.
    if (role === 'system' && i > 0) {
      const content = message.content;
      const textOnly = typeof content === 'string' ? content !== '' : Array.isArray(content) && content.length > 0 && content.every((b) => isRecord(b) && b.type === 'text');
      if (!textOnly) invalid(`${path}.content: system messages take non-empty text only`);
      return;
    }
    if (role !== 'user' && role !== 'assistant') invalid(`${path}.role: Input should be 'user', 'assistant' or 'system'`);
    if (i === 0 && role !== 'user') invalid('messages: first message must use the "user" role');
    if (role === previousRole) {
      invalid(`messages: roles must alternate between "user" and "assistant", but found multiple "${role}" roles in a row`);
    }
    previousRole = role;

    const isFinal = i === messages.length - 1;
    const content = message.content;
    let blocks: JsonRecord[];
    if (typeof content === 'string') {
      blocks = content === '' ? [] : [{ type: 'text', text: content }];
    } else if (Array.isArray(content)) {
      blocks = content.map((block, j) => {
        if (!isRecord(block)) invalid(`${path}.content.${j}: Input should be a valid dictionary`);
        return block;
      });
    } else {
      invalid(`${path}.content: Input should be a valid string or list`);
    }
    if (blocks.length === 0 && !(isFinal && role === 'assistant')) {
      invalid(`${path}: all messages must have non-empty content except for the optional final assistant message`);
    }
    if (typeof content !== 'string') {
      blocks.forEach((block, j) => checkBlock(block, role, `${path}.content.${j}`, ctx, i === latestAssistant));
    }

    if (isFinal && role === 'assistant') {
      const last = blocks.at(-1);
      if (last?.type === 'text' && typeof last.text === 'string' && /\s$/.test(last.text)) {
        invalid('final assistant content cannot end with trailing whitespace');
      }
    }

    if (role === 'assistant') {
      const ids: string[] = [];
      blocks.forEach((block, j) => {
        if (block.type !== 'tool_use' || typeof block.id !== 'string') return;
        if (toolUseIds.has(block.id)) invalid(`${path}.content.${j}: \`tool_use\` ids must be unique`);
        toolUseIds.add(block.id);
        ids.push(block.id);
      });
      pending = { ids, path };
      return;
    }

    const leading = new Set<string>();
    let inLeadingRun = true;
    const answered = new Set<string>();
    blocks.forEach((block, j) => {
      if (block.type !== 'tool_result') {
        inLeadingRun = false;
        return;
      }
      const id = String(block.tool_use_id);
      if (!pending.ids.includes(id)) {
        invalid(
          `${path}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
        );
      }
      if (answered.has(id)) {
        invalid(`${path}: each tool_use must have a single result. Found multiple \`tool_result\` blocks with id: ${id}`);
      }
      answered.add(id);
      if (inLeadingRun) leading.add(id);
    });
    const missing = pending.ids.filter((id) => !leading.has(id));
    if (missing.length > 0) {
      invalid(
        `${pending.path}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message, before any other content.`,
      );
    }
    pending = { ids: [], path: '' };
  });
}

function validateBody(raw: unknown, version: string, signatures: ValidationContext['signatures']): void {
  if (!isRecord(raw)) invalid('body: Input should be a valid dictionary');
  if (typeof raw.model !== 'string' || raw.model === '') invalid('model: Field required');
  const maxTokens = raw.max_tokens;
  if (maxTokens === undefined) invalid('max_tokens: Field required');
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens)) invalid('max_tokens: Input should be a valid integer');
  if (maxTokens < 1) invalid('max_tokens: Input should be greater than or equal to 1');
  if (raw.stream !== true) invalid('stream: this fake only serves streaming requests; send stream: true');
  if (version === '2026-10-21') {
    for (const name of REMOVED_IN_2026_10_21) {
      if (raw[name] !== undefined) invalid(`${name}: Extra inputs are not permitted (removed in API version 2026-10-21)`);
    }
  } else if (raw.temperature !== undefined && (typeof raw.temperature !== 'number' || raw.temperature < 0 || raw.temperature > 1)) {
    invalid('temperature: Input should be a number between 0 and 1');
  }

  const ctx: ValidationContext = { version, cacheControls: 0, signatures };
  const toolNames = checkTools(raw.tools, ctx);
  checkToolChoice(raw.tool_choice, toolNames, toolNames.size > 0);
  checkThinkingConfig(raw.thinking, maxTokens);
  checkSystem(raw.system, ctx);
  checkMessages(raw.messages, ctx);
  if (ctx.cacheControls > MAX_CACHE_CONTROL) {
    invalid(`A maximum of ${MAX_CACHE_CONTROL} blocks with cache_control may be provided. Found ${ctx.cacheControls}.`);
  }
}

/** A well-typed view of whatever arrived; the identity on valid bodies. */
function project(raw: unknown): MessagesRequestBody {
  const obj = isRecord(raw) ? raw : {};
  const messages: RequestMessage[] = Array.isArray(obj.messages)
    ? obj.messages.filter(isRecord).map((m) => ({
        ...m,
        role: typeof m.role === 'string' ? m.role : '',
        content: typeof m.content === 'string' ? m.content : Array.isArray(m.content) ? m.content.filter(isBlock) : [],
      }))
    : [];
  const body: MessagesRequestBody = {
    ...obj,
    model: typeof obj.model === 'string' ? obj.model : '',
    max_tokens: typeof obj.max_tokens === 'number' ? obj.max_tokens : 0,
    stream: obj.stream === true,
    messages,
  };
  if (typeof obj.system === 'string') body.system = obj.system;
  else if (Array.isArray(obj.system)) body.system = obj.system.filter(isBlock);
  else delete body.system;
  if (Array.isArray(obj.tools)) {
    body.tools = obj.tools.filter((t): t is RequestTool => isRecord(t) && typeof t.name === 'string');
  } else {
    delete body.tools;
  }
  return body;
}

// ---------------------------------------------------------------------------------------------
// Prompt-cache simulation

interface Segment {
  /** Canonical serialization, including where the segment sits, for the prefix hash. */
  key: string;
  tokens: number;
  breakpoint: '5m' | '1h' | null;
}

function withoutCacheControl(block: JsonRecord): JsonRecord {
  const { cache_control: _ignored, ...rest } = block;
  if (Array.isArray(rest.content)) {
    rest.content = rest.content.map((inner) => (isRecord(inner) ? withoutCacheControl(inner) : inner));
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

function segmentsOf(body: MessagesRequestBody): Segment[] {
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

interface CacheResult {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  ephemeral_5m_input_tokens: number;
  ephemeral_1h_input_tokens: number;
}

function simulateCache(model: string, segments: Segment[], cache: Set<string>): CacheResult {
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

// ---------------------------------------------------------------------------------------------
// Streaming

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

interface Resolved {
  /** The block as it appears in the final message. */
  final: JsonRecord;
  events: SseData[];
}

function defaultStopReason(content: ScriptedBlock[]): StopReason {
  if (content.some((b) => b.type === 'tool_use_partial')) return 'max_tokens';
  if (content.some((b) => b.type === 'tool_use')) return 'tool_use';
  return 'end_turn';
}

// ---------------------------------------------------------------------------------------------

export async function startAnthropicServer(opts: AnthropicServerOptions): Promise<AnthropicServer> {
  const contextWindow = opts.contextWindow ?? 200_000;
  const requests: RecordedRequest[] = [];
  const validationErrors: string[] = [];
  const cache = new Set<string>();
  const signatures = new Map<string, Set<string>>();
  const issuedToolIds = new Set<string>();
  const sleepers = new Set<() => void>();
  let scriptPosition = 0;
  let toolCounter = 0;
  let messageCounter = 0;
  let requestCounter = 0;
  let closing = false;

  const nextRequestId = (): string => `req_${String(++requestCounter).padStart(6, '0')}`;

  const nextToolId = (reserved: ReadonlySet<string>): string => {
    let id: string;
    do id = `toolu_${++toolCounter}`;
    while (issuedToolIds.has(id) || reserved.has(id));
    return id;
  };

  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      sleepers.add(done);
    });

  const sendError = (res: ServerResponse, status: number, type: string, message: string, headers: Record<string, string> = {}): void => {
    const requestId = nextRequestId();
    const body = JSON.stringify({ type: 'error', error: { type, message }, request_id: requestId });
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      'request-id': requestId,
      ...headers,
    });
    res.end(body);
  };

  interface BuildInput {
    model: string;
    content: ScriptedBlock[];
    stopReason: StopReason;
    outputOverride: number | undefined;
    cacheResult: CacheResult;
  }

  const buildEvents = ({ model, content, stopReason, outputOverride, cacheResult }: BuildInput): { events: SseData[]; usage: SimUsage } => {
    const delta = (index: number, body: SseData): SseData => ({ type: 'content_block_delta', index, delta: body });
    const reserved = new Set(content.flatMap((b) => ((b.type === 'tool_use' || b.type === 'tool_use_partial') && b.id ? [b.id] : [])));
    const resolved: Resolved[] = content.map((block, index): Resolved => {
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
        case 'tool_use_partial': {
          const id = block.id ?? nextToolId(reserved);
          issuedToolIds.add(id);
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
        case 'thinking': {
          const signature = block.signature ?? defaultSignature(block.thinking);
          const issued = signatures.get(signature) ?? new Set<string>();
          issued.add(block.thinking);
          signatures.set(signature, issued);
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
    });

    const outputTokens = outputOverride ?? estimateTokens(resolved.map((r) => r.final));
    const usage: SimUsage = {
      input_tokens: cacheResult.input_tokens,
      cache_read_input_tokens: cacheResult.cache_read_input_tokens,
      cache_creation_input_tokens: cacheResult.cache_creation_input_tokens,
      output_tokens: outputTokens,
    };
    const inputUsage = {
      input_tokens: usage.input_tokens,
      cache_creation_input_tokens: usage.cache_creation_input_tokens,
      cache_read_input_tokens: usage.cache_read_input_tokens,
    };
    const events: SseData[] = [
      {
        type: 'message_start',
        message: {
          id: `msg_${++messageCounter}`,
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
      },
      { type: 'ping' },
      ...resolved.flatMap((r) => r.events),
      {
        type: 'message_delta',
        delta: { container: null, stop_details: null, stop_reason: stopReason, stop_sequence: null },
        usage: { ...inputUsage, output_tokens: outputTokens },
      },
      { type: 'message_stop' },
    ];
    return { events, usage };
  };

  const pickReply = (record: RecordedRequest): ScriptedReply | Rejection => {
    const position = scriptPosition++;
    const script = opts.script;
    if (Array.isArray(script)) {
      const exhausted = `script exhausted: no scripted reply for request ${record.index} (script has ${script.length} entries)`;
      return script[position] ?? new Rejection(500, 'api_error', exhausted);
    }
    try {
      return script(record, position);
    } catch (error) {
      return new Rejection(500, 'api_error', `script threw: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, raw: Buffer): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method !== 'POST' || url.pathname !== '/v1/messages') {
      const message = `unsupported route: ${req.method ?? '?'} ${url.pathname}`;
      validationErrors.push(message);
      sendError(res, 404, 'not_found_error', message);
      return;
    }

    let parsed: unknown;
    let parseError: string | undefined;
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch (error) {
      parseError = `There was an error parsing the body of your request: ${error instanceof Error ? error.message : String(error)}`;
    }
    const record: RecordedRequest = {
      index: requests.length,
      body: project(parsed),
      headers: { ...req.headers },
      bytes: raw.length,
      receivedAt: performance.now(),
      reply: 'invalid',
    };
    requests.push(record);

    let segments: Segment[] = [];
    try {
      // SDKs since 1.0 (API version 2026-10-21) send the key as a bearer token; older clients and curl use x-api-key.
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const headerKey = req.headers['x-api-key'];
      const apiKey = typeof headerKey === 'string' && headerKey !== '' ? headerKey : bearer;
      if (apiKey === undefined) throw new Rejection(401, 'authentication_error', 'x-api-key header is required');
      if (opts.requireApiKey !== undefined && apiKey !== opts.requireApiKey) {
        throw new Rejection(401, 'authentication_error', 'invalid x-api-key');
      }
      const version = req.headers['anthropic-version'];
      if (typeof version !== 'string' || version === '') invalid('anthropic-version: header is required');
      if (!API_VERSIONS.includes(version)) invalid(`anthropic-version: "${version}" is not a valid version`);
      if (parseError !== undefined) invalid(parseError);
      validateBody(parsed, version, signatures);
      segments = segmentsOf(record.body);
      const total = segments.reduce((sum, s) => sum + s.tokens, 0);
      if (total > contextWindow) invalid(`prompt is too long: ${total} tokens > ${contextWindow} maximum`);
    } catch (error) {
      if (!(error instanceof Rejection)) throw error;
      record.validationError = error.message;
      validationErrors.push(error.message);
      sendError(res, error.status, error.type, error.message);
      return;
    }

    const reply = pickReply(record);
    if (reply instanceof Rejection) {
      record.reply = 'error';
      sendError(res, reply.status, reply.type, reply.message);
      return;
    }
    record.reply = reply.kind ?? 'message';

    switch (reply.kind) {
      case 'error':
        sendError(res, reply.status, reply.type, reply.message, reply.headers);
        return;
      case 'hang':
        return;
      case 'cut':
      case 'message':
      case undefined: {
        const scripted = reply.kind === 'cut' ? undefined : reply;
        const stopReason = scripted?.stop_reason ?? defaultStopReason(reply.content);
        const outputOverride = scripted?.usage?.output_tokens;
        // Caching happens once the request is accepted, so a stream cut later still wrote its entries.
        const cacheResult = simulateCache(record.body.model, segments, cache);
        const model = record.body.model;
        const { events, usage } = buildEvents({ model, content: reply.content, stopReason, outputOverride, cacheResult });
        record.usage = usage;

        if (scripted?.delayMs !== undefined && scripted.delayMs > 0) await sleep(scripted.delayMs);
        if (closing || res.destroyed) return;
        res.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache',
          'request-id': nextRequestId(),
        });
        if (reply.kind === 'cut') {
          const sent = events.slice(0, Math.max(0, reply.afterEvents));
          // An SSE comment stands in when no event is sent, so the status line still goes out first.
          const chunk = sent.length > 0 ? sent.map(sse).join('') : ':\n\n';
          res.write(chunk, () => res.destroy());
          return;
        }
        for (const event of events) res.write(sse(event));
        res.end();
        return;
      }
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks)).catch((error: unknown) => {
        const message = `fake server failure: ${error instanceof Error ? error.message : String(error)}`;
        validationErrors.push(message);
        if (!res.headersSent) sendError(res, 500, 'api_error', message);
        else res.destroy();
      });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fake Anthropic server has no TCP address');

  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    validationErrors,
    close(): Promise<void> {
      closed ??= new Promise<void>((resolve) => {
        closing = true;
        for (const wake of [...sleepers]) wake();
        server.close(() => resolve());
        // Keep-alive and hanging connections would otherwise hold close() open.
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
