/**
 * Strict validation of `messages` and of content blocks, with the real API's error texts: a
 * conversation the agent builds wrongly must fail here rather than in production.
 */
import { invalid, isRecord, type JsonRecord } from './common.js';

const TOOL_USE_ID = /^[a-zA-Z0-9_-]+$/;
const USER_BLOCK_TYPES = ['text', 'image', 'document', 'search_result', 'tool_result'];
const ASSISTANT_BLOCK_TYPES = ['text', 'tool_use', 'thinking', 'redacted_thinking', 'server_tool_use', 'web_search_tool_result'];

export interface ValidationContext {
  version: string;
  cacheControls: number;
  /** Signatures this server issued, with the thinking texts they were issued for. */
  signatures: ReadonlyMap<string, ReadonlySet<string>>;
  /** Web search results this server issued, by their call's id: the JSON of their content. */
  searchResults?: ReadonlyMap<string, string>;
}

export function checkCacheControl(block: JsonRecord, path: string, ctx: ValidationContext): void {
  const cc = block.cache_control;
  if (cc === undefined || cc === null) return;
  if (!isRecord(cc) || cc.type !== 'ephemeral') invalid(`${path}.cache_control.type: Input should be 'ephemeral'`);
  if (cc.ttl !== undefined && cc.ttl !== '5m' && cc.ttl !== '1h') {
    invalid(`${path}.cache_control.ttl: Input should be '5m' or '1h'`);
  }
  ctx.cacheControls++;
}

export function checkText(block: JsonRecord, path: string): void {
  if (typeof block.text !== 'string') invalid(`${path}.text: Field required`);
  if (block.text === '') invalid(`${path}: text content blocks must be non-empty`);
  if (block.text.trim() === '') invalid(`${path}: text content blocks must contain non-whitespace text`);
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

function checkThinking(block: JsonRecord, path: string, ctx: ValidationContext, latestAssistant: boolean): void {
  if (typeof block.thinking !== 'string') invalid(`${path}.thinking: Field required`);
  if (typeof block.signature !== 'string' || block.signature === '') invalid(`${path}.signature: Field required`);
  // Like the real API, only the latest assistant turn must come back verbatim; older ones may be edited or dropped.
  const issuedFor = ctx.signatures.get(block.signature);
  if (latestAssistant && issuedFor && !issuedFor.has(block.thinking)) {
    invalid(
      `${path}: \`thinking\` or \`redacted_thinking\` blocks in the latest assistant message cannot be modified. ` +
        'These blocks must remain as they were in the original response.',
    );
  }
  if (block.cache_control != null) invalid(`${path}.thinking.cache_control: Extra inputs are not permitted`);
}

function checkBlock(block: JsonRecord, role: string, path: string, ctx: ValidationContext, latestAssistant: boolean): void {
  const allowed = role === 'user' ? USER_BLOCK_TYPES : ASSISTANT_BLOCK_TYPES;
  if (typeof block.type !== 'string' || !allowed.includes(block.type)) {
    invalid(
      `${path}.type: Input tag '${String(block.type)}' found using 'type' does not match any of the expected tags ` +
        `for a ${role} message: ${allowed.join(', ')}`,
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
    case 'web_search_tool_result': {
      if (typeof block.tool_use_id !== 'string') invalid(`${path}.tool_use_id: Field required`);
      if (block.content === undefined) invalid(`${path}.content: Field required`);
      // The results' encrypted content is checked by the API: a result changed on its way back is refused.
      const issued = ctx.searchResults?.get(block.tool_use_id);
      if (issued !== undefined && issued !== JSON.stringify(block.content)) {
        invalid(`${path}.content: web_search_tool_result blocks must be sent back as they were returned`);
      }
      break;
    }
    case 'thinking':
      checkThinking(block, path, ctx, latestAssistant);
      break;
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

/** What the walk over the conversation carries from one message to the next. */
interface Walk {
  ctx: ValidationContext;
  count: number;
  latestAssistant: number;
  toolUseIds: Set<string>;
  /** Tool calls of the previous assistant message, which the next user message must answer first. */
  pending: { ids: string[]; path: string };
  previousRole: unknown;
}

function isTextOnly(content: unknown): boolean {
  if (typeof content === 'string') return content !== '';
  return Array.isArray(content) && content.length > 0 && content.every((b) => isRecord(b) && b.type === 'text');
}

function blocksOf(content: unknown, path: string): JsonRecord[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) invalid(`${path}.content: Input should be a valid string or list`);
  return content.map((block, j) => {
    if (!isRecord(block)) invalid(`${path}.content.${j}: Input should be a valid dictionary`);
    return block;
  });
}

function assistantToolUses(blocks: JsonRecord[], path: string, toolUseIds: Set<string>): string[] {
  const ids: string[] = [];
  blocks.forEach((block, j) => {
    if (block.type !== 'tool_use' || typeof block.id !== 'string') return;
    if (toolUseIds.has(block.id)) invalid(`${path}.content.${j}: \`tool_use\` ids must be unique`);
    toolUseIds.add(block.id);
    ids.push(block.id);
  });
  return ids;
}

function checkToolResults(blocks: JsonRecord[], path: string, pending: Walk['pending']): void {
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
        `${path}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. ` +
          'Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
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
      `${pending.path}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. ` +
        'Each `tool_use` block must have a corresponding `tool_result` block in the next message, before any other content.',
    );
  }
}

/** Each web_search_tool_result follows the server_tool_use it answers, in the same message. */
function checkSearchPairs(blocks: JsonRecord[], path: string): void {
  const calls = new Set<unknown>();
  blocks.forEach((block, j) => {
    if (block.type === 'server_tool_use') calls.add(block.id);
    if (block.type === 'web_search_tool_result' && !calls.has(block.tool_use_id)) {
      invalid(
        `${path}.content.${j}: web_search_tool_result block(s) provided without a corresponding server_tool_use block: ${String(block.tool_use_id)}`,
      );
    }
  });
}

function checkMessage(message: unknown, i: number, walk: Walk): void {
  const path = `messages.${i}`;
  if (!isRecord(message)) invalid(`${path}: Input should be a valid dictionary`);
  const role = message.role;
  // Messages of role "system" (instructions given mid-conversation) stand outside the
  // user/assistant alternation and carry text only.
  if (role === 'system' && i > 0) {
    if (!isTextOnly(message.content)) invalid(`${path}.content: system messages take non-empty text only`);
    return;
  }
  if (role !== 'user' && role !== 'assistant') invalid(`${path}.role: Input should be 'user', 'assistant' or 'system'`);
  if (i === 0 && role !== 'user') invalid('messages: first message must use the "user" role');
  if (role === walk.previousRole) {
    invalid(`messages: roles must alternate between "user" and "assistant", but found multiple "${role}" roles in a row`);
  }
  walk.previousRole = role;

  const isFinal = i === walk.count - 1;
  const content = message.content;
  const blocks = blocksOf(content, path);
  if (blocks.length === 0 && !(isFinal && role === 'assistant')) {
    invalid(`${path}: all messages must have non-empty content except for the optional final assistant message`);
  }
  if (typeof content !== 'string') {
    blocks.forEach((block, j) => checkBlock(block, role, `${path}.content.${j}`, walk.ctx, i === walk.latestAssistant));
  }

  if (isFinal && role === 'assistant') {
    const last = blocks.at(-1);
    if (last?.type === 'text' && typeof last.text === 'string' && /\s$/.test(last.text)) {
      invalid('final assistant content cannot end with trailing whitespace');
    }
  }

  if (role === 'assistant') {
    checkSearchPairs(blocks, path);
    walk.pending = { ids: assistantToolUses(blocks, path, walk.toolUseIds), path };
    return;
  }
  checkToolResults(blocks, path, walk.pending);
  walk.pending = { ids: [], path: '' };
}

export function checkMessages(messages: unknown, ctx: ValidationContext): void {
  if (messages === undefined) invalid('messages: Field required');
  if (!Array.isArray(messages)) invalid('messages: Input should be a valid list');
  if (messages.length === 0) invalid('messages: at least one message is required');
  const walk: Walk = {
    ctx,
    count: messages.length,
    latestAssistant: messages.findLastIndex((m) => isRecord(m) && m.role === 'assistant'),
    toolUseIds: new Set<string>(),
    pending: { ids: [], path: '' },
    previousRole: undefined,
  };
  messages.forEach((message, i) => checkMessage(message, i, walk));
}
