import type { Message } from '../../src/core/messages.js';
import { appendAssistant, appendUser } from '../../src/agent/turns.js';
import type { TranscriptRecord } from '../../src/agent/transcript.js';

function recorder() {
  const now: TranscriptRecord[] = [];
  const soon: TranscriptRecord[] = [];
  return {
    now,
    soon,
    transcript: { path: 't.jsonl', write: (r: TranscriptRecord) => now.push(r), writeSoon: (r: TranscriptRecord) => soon.push(r) },
  };
}

describe('turns', () => {
  it("writes the model's turn at once, with its step", () => {
    const messages: Message[] = [{ role: 'user', content: 'task' }];
    const r = recorder();
    appendAssistant(messages, { role: 'assistant', content: [{ type: 'text', text: 'hi' }] }, r.transcript, 3);
    expect(messages).toHaveLength(2);
    expect(r.now).toEqual([expect.objectContaining({ type: 'assistant', step: 3 })]);
    expect(r.soon).toEqual([]);
  });

  it('joins a user turn to the previous one when the reply between was dropped, and records only the new content, soon', () => {
    const first = { role: 'user' as const, content: [{ type: 'text' as const, text: 'task' }] };
    const messages: Message[] = [first];
    const r = recorder();
    const sent = first.content;
    appendUser(messages, [{ type: 'text', text: 'note' }], r.transcript);
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'task' },
          { type: 'text', text: 'note' },
        ],
      },
    ]);
    // The earlier content array is not changed in place: a block list once sent stays as it was.
    expect(sent).toEqual([{ type: 'text', text: 'task' }]);
    expect(r.soon).toEqual([
      expect.objectContaining({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'note' }] } }),
    ]);
    expect(r.now).toEqual([]);
  });

  it('writes at once to a transcript that cannot defer', () => {
    const messages: Message[] = [{ role: 'assistant', content: [{ type: 'text', text: 'a' }] }];
    const now: TranscriptRecord[] = [];
    appendUser(messages, [{ type: 'text', text: 'b' }], { path: 't', write: (rec) => now.push(rec) });
    expect(messages).toHaveLength(2);
    expect(now).toHaveLength(1);
  });
});
