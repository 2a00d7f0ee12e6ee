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

/** Writers holding records not written yet: written out when the process exits, however it ends. */
const unwritten = new Set<TranscriptWriter>();

/** Writes out what every writer has queued; done at exit, where a failure has nowhere left to go. */
export function flushTranscripts(): void {
  for (const writer of unwritten) {
    try {
      writer.flush();
    } catch {
      // The process is ending: the records are lost, as they would be to a kill.
    }
  }
}

/** Appends records as the run goes, so a crash or a kill loses at most the call under way. */
export class TranscriptWriter {
  private queued: TranscriptRecord[] = [];

  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    closeSync(openSync(path, 'a'));
  }

  /** Appends the record now, after any queued by writeSoon. */
  write(record: TranscriptRecord): void {
    this.flush();
    appendFileSync(this.path, JSON.stringify(record) + '\n');
  }

  /**
   * Appends the record once the work under way is done (the next turn of the event loop), still
   * before any later record, and at exit if that comes first. For a turn of tool results, whose
   * request then goes out without waiting for a large record to be serialised; the record is
   * written while the model answers. A kill in those milliseconds loses it, as one while the
   * calls ran would: the call under way is the one that request starts.
   */
  writeSoon(record: TranscriptRecord): void {
    if (this.queued.length === 0) {
      if (unwritten.size === 0) process.once('exit', flushTranscripts);
      unwritten.add(this);
      setImmediate(() => {
        try {
          this.flush();
        } catch {
          // Left queued: the next write() tries again and throws where its caller can see it.
        }
      });
    }
    this.queued.push(record);
  }

  /** Appends what writeSoon queued. */
  flush(): void {
    if (this.queued.length === 0) return;
    appendFileSync(this.path, this.queued.map((r) => JSON.stringify(r) + '\n').join(''));
    this.queued = [];
    unwritten.delete(this);
    if (unwritten.size === 0) process.removeListener('exit', flushTranscripts);
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
