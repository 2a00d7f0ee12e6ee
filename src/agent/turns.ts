import { blocksOf, type Block, type Message } from '../core/messages.js';
import type { LoopConfig } from './config.js';
import { messageRecord } from './transcript.js';

type Transcript = LoopConfig['transcript'];

/** Appends the model's turn to the history, and its record to the transcript at once. */
export function appendAssistant(messages: Message[], message: Message, transcript: Transcript, step: number): void {
  messages.push(message);
  transcript?.write(messageRecord(message, step));
}

/**
 * Appends a user turn; when the model's whole reply was dropped, the content joins the previous
 * user turn. Its record is written as the next request goes out (writeSoon), which need not wait
 * for it.
 */
export function appendUser(messages: Message[], content: Block[], transcript: Transcript): void {
  const last = messages[messages.length - 1];
  if (last?.role === 'user') last.content = [...blocksOf(last), ...content];
  else messages.push({ role: 'user', content });
  // Its own message object: the history's may take more content before the record is written.
  const record = messageRecord({ role: 'user', content });
  if (transcript?.writeSoon) transcript.writeSoon(record);
  else transcript?.write(record);
}
