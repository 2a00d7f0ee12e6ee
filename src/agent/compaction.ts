import { blocksOf, type Message, type ToolResultBlock } from '../core/messages.js';
import type { LoopConfig } from './config.js';
import { SUMMARY_HEADER, SUMMARY_REQUEST } from './notes.js';
import { now } from './transcript.js';

/** User turns kept whole, however full the context gets. */
export const KEEP_RECENT_TURNS = 3;

const CLEARED = '[cleared to save context:';

function resultLength(block: ToolResultBlock): number {
  const content = block.content;
  if (typeof content === 'string') return content.length;
  return content.reduce((n, part) => n + (part.type === 'text' ? part.text.length : 0), 0);
}

/**
 * Replaces the output of older tool calls with a one-line note of what was there, keeping the
 * newest `keepRecent` user turns whole. Returns how many results were cleared; the transcript
 * keeps the originals.
 */
export function clearOldToolResults(messages: Message[], keepRecent: number): number {
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

/** What compaction needs from the loop: a model call for the summary, and somewhere to say what it did. */
export interface CompactionDeps {
  /** Asks the model (no tools) and returns its text, or null when the call failed. */
  summarise(request: Message[]): Promise<string | null>;
  onCleared(count: number): void;
  onSummarised(replaced: number, summary: string): void;
}

/** Where the turns to summarise end, or -1 when too little would be gained. */
function summaryCut(messages: readonly Message[]): number {
  const userTurns = messages.flatMap((m, i) => (m.role === 'user' ? [i] : []));
  if (userTurns.length <= KEEP_RECENT_TURNS + 1) return -1;
  const cut = userTurns[userTurns.length - KEEP_RECENT_TURNS]! - 1;
  return cut < 2 || messages[cut]?.role !== 'assistant' ? -1 : cut;
}

/** Replaces the turns before the newest few by the task and a summary the model writes of them. */
async function summariseOlderTurns(messages: Message[], deps: CompactionDeps): Promise<number> {
  const cut = summaryCut(messages);
  if (cut < 0) return 0;
  const head = messages.slice(0, cut);
  const last = head[head.length - 1]!;
  const ask: Message = { role: 'user', content: [...blocksOf(last), { type: 'text', text: SUMMARY_REQUEST }] };
  const summary = await deps.summarise([...head.slice(0, -1), ask]);
  if (!summary) return 0;
  const task = blocksOf(messages[0]!).filter((b) => b.type === 'text');
  messages.splice(0, cut, { role: 'user', content: [...task, { type: 'text', text: `${SUMMARY_HEADER}\n${summary}` }] });
  deps.onSummarised(cut, summary);
  return cut;
}

/**
 * Makes room in the context: older tool output is cleared first (a one-line note of what was
 * there stays); when there is none left to clear, older turns are summarised by the model.
 * Returns how many things were cleared or summarised.
 */
export async function compact(messages: Message[], deps: CompactionDeps): Promise<number> {
  const cleared = clearOldToolResults(messages, KEEP_RECENT_TURNS);
  if (cleared > 0) {
    deps.onCleared(cleared);
    return cleared;
  }
  return summariseOlderTurns(messages, deps);
}

/** A failed summary call leaves the history as it is. */
export const noSummary = (): null => null;

/** What compaction did, told in the log and written to the transcript. */
export function compactionReports(config: Pick<LoopConfig, 'events' | 'transcript'>): Pick<CompactionDeps, 'onCleared' | 'onSummarised'> {
  const { events, transcript } = config;
  return {
    onCleared: (cleared) => {
      events?.onNotice?.(`context: cleared ${cleared} older tool results`);
      transcript?.write({ type: 'meta', event: 'compaction', time: now(), cleared });
    },
    onSummarised: (replaced, summary) => {
      events?.onNotice?.(`context: summarised ${replaced} older messages`);
      transcript?.write({ type: 'meta', event: 'summary', time: now(), replaced, summary });
    },
  };
}
