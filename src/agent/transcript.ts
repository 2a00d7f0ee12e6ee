import { appendFileSync, mkdirSync, openSync, closeSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Message } from '../core/messages.js';
import { repairHistory } from './history.js';

/** One line of the transcript: every message sent, in order, plus meta records; a subagent's carry `agent`. */
export type TranscriptRecord = (
  | { type: 'user'; message: Message; time: string }
  | { type: 'assistant'; message: Message; time: string; step: number; stop_reason: string | null }
  | { type: 'system'; system: string; tools: string[]; model: string; time: string }
  | ({ type: 'meta'; event: string; time: string } & Record<string, unknown>)
) & { agent?: string };

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

export function messageRecord(message: Message, step = 0): TranscriptRecord {
  return message.role === 'user'
    ? { type: 'user', message, time: now() }
    : { type: 'assistant', message, time: now(), step, stop_reason: null };
}

export function now(): string {
  return new Date().toISOString();
}

/** Reads a transcript back into the messages it sent, repaired so that the run can go on. */
export function readTranscript(path: string): { messages: Message[]; records: TranscriptRecord[] } {
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
  // A subagent's messages were its own conversation, not the run's.
  const raw = records.flatMap((r) => ((r.type === 'user' || r.type === 'assistant') && r.agent === undefined ? [r.message] : []));
  return { messages: repairHistory(raw), records };
}
