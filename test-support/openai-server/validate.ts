/** What an OpenAI-compatible server rejects with a 400: the request's shape and the conversation's order. */
import type { ChatMessage } from './types.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkContentParts(where: string, content: unknown, allowImages: boolean): string | undefined {
  if (typeof content === 'string') return undefined;
  if (!Array.isArray(content)) return `${where}.content must be a string or an array of parts`;
  for (const [i, part] of content.entries()) {
    if (!isObject(part)) return `${where}.content[${i}] must be an object`;
    if (part['type'] === 'text' && typeof part['text'] === 'string') continue;
    const image = part['image_url'];
    if (allowImages && part['type'] === 'image_url' && isObject(image) && typeof image['url'] === 'string') continue;
    return `${where}.content[${i}] has an unsupported part type ${JSON.stringify(part['type'])}`;
  }
  return undefined;
}

function checkToolCalls(where: string, calls: unknown): string | undefined {
  if (!Array.isArray(calls) || calls.length === 0) return `${where}.tool_calls must be a non-empty array`;
  for (const [i, c] of calls.entries()) {
    const fn = isObject(c) ? c['function'] : undefined;
    if (!isObject(c) || typeof c['id'] !== 'string' || c['type'] !== 'function')
      return `${where}.tool_calls[${i}] needs an id and type "function"`;
    if (!isObject(fn) || typeof fn['name'] !== 'string' || typeof fn['arguments'] !== 'string') {
      return `${where}.tool_calls[${i}].function needs a name and string arguments`;
    }
  }
  return undefined;
}

function checkMessage(m: ChatMessage, i: number): string | undefined {
  const where = `messages[${i}]`;
  switch (m.role) {
    case 'system':
    case 'developer':
      return checkContentParts(where, m.content, false);
    case 'user':
      return checkContentParts(where, m.content, true);
    case 'assistant':
      if (m.tool_calls !== undefined) {
        const bad = checkToolCalls(where, m.tool_calls);
        if (bad) return bad;
        return m.content === null || m.content === undefined ? undefined : checkContentParts(where, m.content, false);
      }
      return m.content === null || m.content === undefined
        ? `${where}: an assistant message needs content or tool_calls`
        : checkContentParts(where, m.content, false);
    case 'tool':
      if (typeof m.tool_call_id !== 'string') return `${where}.tool_call_id is required`;
      return checkContentParts(where, m.content, false);
    default:
      return `${where}.role ${JSON.stringify(m.role)} is not supported`;
  }
}

/** System first; every call answered by one tool message right after its assistant turn; no stray answers. */
function checkOrder(messages: ChatMessage[]): string | undefined {
  let pending = new Set<string>();
  let seenOther = false;
  for (const [i, m] of messages.entries()) {
    if (m.role === 'system' || m.role === 'developer') {
      if (seenOther) return `messages[${i}]: a ${m.role} message may only come first`;
      continue;
    }
    seenOther = true;
    if (m.role === 'tool') {
      const id = m.tool_call_id ?? '';
      if (!pending.delete(id)) return `messages[${i}]: tool message for ${JSON.stringify(id)} does not answer a preceding tool call`;
      continue;
    }
    if (pending.size > 0) {
      const missing = [...pending].join(', ');
      return `messages[${i}]: an assistant message with tool_calls must be followed by a tool message per call (missing: ${missing})`;
    }
    pending = new Set((m.tool_calls ?? []).map((c) => c.id));
    if (pending.size !== (m.tool_calls ?? []).length) return `messages[${i}]: duplicate tool call ids`;
  }
  if (pending.size > 0) return `the last assistant message's tool calls are not answered (${[...pending].join(', ')})`;
  return messages.some((m) => m.role !== 'system' && m.role !== 'developer') ? undefined : 'messages must include a non-system message';
}

function checkTools(tools: unknown): string | undefined {
  if (tools === undefined) return undefined;
  if (!Array.isArray(tools)) return 'tools must be an array';
  const names = new Set<string>();
  for (const [i, t] of tools.entries()) {
    const fn = isObject(t) ? t['function'] : undefined;
    if (!isObject(t) || t['type'] !== 'function' || !isObject(fn)) return `tools[${i}] must be {type: "function", function: {...}}`;
    if (typeof fn['name'] !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(fn['name'])) return `tools[${i}].function.name is invalid`;
    if (!isObject(fn['parameters'])) return `tools[${i}].function.parameters must be an object`;
    if (names.has(fn['name'])) return `tools[${i}]: duplicate function name ${fn['name']}`;
    names.add(fn['name']);
  }
  return undefined;
}

/** The first thing wrong with a request body, or undefined when a real server would take it. */
export function validateBody(body: unknown): string | undefined {
  if (!isObject(body)) return 'the body must be a JSON object';
  if (typeof body['model'] !== 'string' || body['model'].length === 0) return 'model is required';
  if (body['stream'] !== true) return 'this fake answers only stream: true';
  const messages = body['messages'];
  if (!Array.isArray(messages) || messages.length === 0) return 'messages must be a non-empty array';
  for (const [i, m] of messages.entries()) {
    if (!isObject(m)) return `messages[${i}] must be an object`;
    const bad = checkMessage(m as ChatMessage, i);
    if (bad) return bad;
  }
  for (const key of ['max_tokens', 'max_completion_tokens']) {
    const v = body[key];
    if (v !== undefined && (!Number.isInteger(v) || (v as number) < 1)) return `${key} must be a positive integer`;
  }
  if (body['max_tokens'] !== undefined && body['max_completion_tokens'] !== undefined)
    return 'send max_tokens or max_completion_tokens, not both';
  return checkOrder(messages as ChatMessage[]) ?? checkTools(body['tools']);
}
