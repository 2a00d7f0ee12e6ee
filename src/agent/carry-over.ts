// A conversation kept between runs: what is stored (redacted, bounded) and what is taken back.
import { blocksOf, type Block, type Message } from '../core/messages.js';
import { clearOldToolResults, KEEP_RECENT_TURNS } from './compaction.js';
import { repairHistory } from './history.js';

export const CONVERSATION_VERSION = 1;

/** The stored form: the messages, and the runs that wrote them (newest last). */
export interface StoredConversation {
  version: typeof CONVERSATION_VERSION;
  runs: { url: string; at: string }[];
  messages: Message[];
}

const LEFT_OUT = '[Earlier parts of this conversation were left out to keep it within its size.]';
/** Text of one block beyond this, in a turn older than the newest ones, is cut. */
const OLD_BLOCK_CHARS = 4_000;
/** Text of one block beyond this is cut even in the newest turns. */
const ANY_BLOCK_CHARS = 40_000;

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n[… ${text.length - max} characters cut]`;
}

/** Every string in a tool's input, redacted and cut; the shape stays as the model wrote it. */
function mapStrings(value: unknown, f: (s: string) => string): unknown {
  if (typeof value === 'string') return f(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, f)]));
  return value;
}

/**
 * One block as stored. Thinking is dropped (its signature would not survive redaction, and the API
 * ignores old thinking anyway); images become a line of text.
 */
function storedBlock(block: Block, text: (s: string) => string): Block | null {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: text(block.text) };
    case 'tool_use':
      return { ...block, input: mapStrings(block.input, text) };
    case 'tool_result': {
      const content =
        typeof block.content === 'string'
          ? text(block.content)
          : block.content.map((part) =>
              part.type === 'text' ? { type: 'text' as const, text: text(part.text) } : { type: 'text' as const, text: '[image]' },
            );
      return { ...block, content };
    }
    case 'image':
      return { type: 'text', text: '[image]' };
    default:
      return null;
  }
}

function storedMessages(messages: readonly Message[], redact: (s: string) => string, oldBefore: number): Message[] {
  return messages.map((m, i) => {
    const max = i < oldBefore ? OLD_BLOCK_CHARS : ANY_BLOCK_CHARS;
    const text = (s: string) => cut(redact(s), max);
    const content = blocksOf(m).flatMap((b) => storedBlock(b, text) ?? []);
    return { role: m.role, content };
  });
}

/** Where each turn starts: the user messages that carry no tool results. */
function turnStarts(messages: readonly Message[]): number[] {
  return messages.flatMap((m, i) => (m.role === 'user' && !blocksOf(m).some((b) => b.type === 'tool_result') ? [i] : []));
}

/** Index of the first message of the newest `turns` turns (0 when there are no more than that). */
function recentStart(messages: readonly Message[], turns: number): number {
  const starts = turnStarts(messages);
  return starts.length > turns ? starts[starts.length - turns]! : 0;
}

/**
 * The conversation as stored: every string redacted, old tool output cleared, old blocks cut, and,
 * while it is still over `maxBytes`, the oldest turns left out (with a note saying so). The newest
 * turns stay whole.
 */
export function conversationToStore(
  messages: readonly Message[],
  o: { redact: (s: string) => string; maxBytes: number; runs: StoredConversation['runs'] },
): string {
  let kept = storedMessages(repairHistory(messages), o.redact, recentStart(messages, KEEP_RECENT_TURNS));
  clearOldToolResults(kept, KEEP_RECENT_TURNS);
  const encode = (list: Message[]) => JSON.stringify({ version: CONVERSATION_VERSION, runs: o.runs.slice(-20), messages: list });
  let text = encode(kept);
  while (Buffer.byteLength(text) > o.maxBytes && kept.length > 1) {
    // Leave out the oldest turn: up to the next user message that starts one.
    const next = turnStarts(kept)[1] ?? 1;
    kept = repairHistory(kept.slice(next));
    text = encode(withNote(kept));
  }
  return Buffer.byteLength(text) > o.maxBytes ? encode([]) : text;
}

function withNote(messages: Message[]): Message[] {
  const first = messages[0];
  if (!first) return messages;
  return [{ role: 'user', content: [{ type: 'text', text: LEFT_OUT }, ...blocksOf(first)] }, ...messages.slice(1)];
}

const BLOCK_TYPES = new Set(['text', 'tool_use', 'tool_result']);

function validBlock(b: unknown): b is Block {
  if (!b || typeof b !== 'object') return false;
  const block = b as Record<string, unknown>;
  if (typeof block['type'] !== 'string' || !BLOCK_TYPES.has(block['type'])) return false;
  if (block['type'] === 'text') return typeof block['text'] === 'string';
  if (block['type'] === 'tool_use') return typeof block['id'] === 'string' && typeof block['name'] === 'string';
  const content = block['content'];
  return typeof block['tool_use_id'] === 'string' && (typeof content === 'string' || (Array.isArray(content) && content.every(validBlock)));
}

/**
 * A stored conversation read back, or why not. Only user and assistant turns of known blocks are
 * taken, repaired so that the API accepts them: whatever someone wrote into the store, it comes
 * back as earlier turns of the conversation, never as instructions of the system prompt.
 */
export function conversationFromStore(text: string): { messages: Message[]; runs: StoredConversation['runs'] } | { invalid: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { invalid: 'not JSON' };
  }
  const d = data as Partial<StoredConversation> | null;
  if (!d || d.version !== CONVERSATION_VERSION || !Array.isArray(d.messages))
    return { invalid: `not a version ${CONVERSATION_VERSION} conversation` };
  const ok = d.messages.every(
    (m) => m && (m.role === 'user' || m.role === 'assistant') && Array.isArray(m.content) && m.content.every(validBlock),
  );
  if (!ok) return { invalid: 'a message of an unknown shape' };
  const runs = Array.isArray(d.runs) ? d.runs.filter((r) => r && typeof r.url === 'string' && typeof r.at === 'string') : [];
  return { messages: repairHistory(d.messages.map((m) => ({ role: m.role, content: m.content }))), runs };
}

/** One run that wrote the stored conversation. */
export type StoredRun = StoredConversation['runs'][number];

/**
 * What a run added to the conversation it loaded: the messages after the last loaded one still
 * there. The loop keeps the loaded message objects (clearing old tool output changes their
 * content, not their identity), so identity finds them; when compaction folded every loaded
 * message into its summary, all the run's messages are its own.
 */
export function ownTurns(messages: readonly Message[], loaded: readonly Message[]): Message[] {
  const known = new Set(loaded);
  let last = -1;
  messages.forEach((m, i) => {
    if (known.has(m)) last = i;
  });
  return messages.slice(last + 1);
}

/**
 * The stored conversation with a run's own turns after it, for a run whose write lost to another
 * run's: both loaded the same base, the store now holds that base and the other run's turns, and
 * this run's turns go after them (runs in the order their writes land), so nothing is lost and
 * the base is not repeated. Null when the stored runs already name this one (an earlier write of
 * it landed after all).
 */
export function withRunAppended(
  stored: { messages: readonly Message[]; runs: readonly StoredRun[] },
  own: readonly Message[],
  run: StoredRun,
): { messages: Message[]; runs: StoredRun[] } | null {
  if (stored.runs.some((r) => r.url === run.url && r.at === run.at)) return null;
  return { messages: [...stored.messages, ...own], runs: [...stored.runs, run] };
}
