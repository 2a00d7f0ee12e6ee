import { writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { LoopEvents } from '../../src/agent/loop.js';
import type { TranscriptRecord } from '../../src/agent/transcript.js';
import type { ScriptedBlock } from '../../test-support/anthropic-server.js';
import { harness, lastToolResults, type Harness } from '../../test-support/harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A realistic stream, sped up: tests assert the order of events, never their timing. */
const PACE = { firstTokenMs: 20, tokensPerSecond: 3000 };
const text = (t: string): ScriptedBlock => ({ type: 'text', text: t });
const use = (id: string, name: string, input: unknown): ScriptedBlock => ({ type: 'tool_use', id, name, input });

function logged(): {
  log: string[];
  records: TranscriptRecord[];
  overrides: { events: LoopEvents; transcript: { path: string; write(r: TranscriptRecord): void } };
} {
  const log: string[] = [];
  const records: TranscriptRecord[] = [];
  const events: LoopEvents = {
    onText: (d) => log.push(`text ${d}`),
    onToolStart: (c) => log.push(`start ${c.id}`),
    onToolEnd: (c) => log.push(`end ${c.id}`),
    onStep: (s) => log.push(`step ${s.step}`),
  };
  return { log, records, overrides: { events, transcript: { path: 'memory', write: (r) => records.push(r) } } };
}

/** The text that streamed in after an event. */
const textAfter = (log: string[], entry: string) =>
  log
    .slice(log.indexOf(entry) + 1)
    .filter((l) => l.startsWith('text '))
    .map((l) => l.slice(5))
    .join('');

describe('the loop over a streamed answer', () => {
  it('runs the Grep and Read calls of an answer while its text after them still streams, results in block order', async () => {
    const answer = [
      text('Let me look at the code.'),
      use('toolu_g1', 'Grep', { pattern: 'needle' }),
      use('toolu_r1', 'Read', { file_path: 'notes.txt' }),
      use('toolu_g2', 'Grep', { pattern: 'nothing-matches-this' }),
      text('While those run, here is what I expect to find and why it matters.'),
    ];
    h = await harness([{ content: answer }, { content: [text('Done.')] }], { pace: PACE });
    await writeFile(join(h.dir, 'notes.txt'), 'a needle in here\n');
    const { log, overrides } = logged();
    const r = await h.run(overrides);
    expect(r.conclusion).toBe('success');
    for (const id of ['toolu_g1', 'toolu_r1', 'toolu_g2']) {
      expect(textAfter(log, `start ${id}`)).toContain('While those run, here is what I expect to find and why it matters.');
      expect(log.indexOf(`start ${id}`)).toBeLessThan(log.indexOf('step 1'));
    }
    const results = lastToolResults(h.server, 1);
    expect(results.map((x) => x.tool_use_id)).toEqual(['toolu_g1', 'toolu_r1', 'toolu_g2']);
    expect(results[0]!.content).toContain('notes.txt');
    expect(results[1]!.content).toContain('a needle in here');
    expect(h.server.validationErrors).toEqual([]);
  });

  it('drops what ran for a stream cut after a Grep started, and sends only the retried answer and its results', async () => {
    // message_start, ping, the Grep block (start, 3 deltas, stop) and the start of the text after it.
    const cut = { kind: 'cut' as const, content: [use('toolu_lost', 'Grep', { pattern: 'needle' }), text('and then')], afterEvents: 8 };
    h = await harness([cut, { content: [use('toolu_kept', 'Grep', { pattern: 'needle' })] }, { content: [text('Found it.')] }], {
      pace: PACE,
    });
    const { log, records, overrides } = logged();
    const r = await h.run(overrides);
    expect(r.conclusion).toBe('success');
    expect(log).toContain('start toolu_lost');
    expect(log.indexOf('end toolu_lost')).toBeLessThan(log.indexOf('start toolu_kept'));
    const [first, retry, next] = h.server.requests;
    expect(retry!.body.messages).toEqual(first!.body.messages);
    expect(lastToolResults(h.server, 2).map((x) => x.tool_use_id)).toEqual(['toolu_kept']);
    expect(JSON.stringify(next!.body)).not.toContain('toolu_lost');
    expect(records).toContainEqual(expect.objectContaining({ event: 'calls_discarded', calls: [{ id: 'toolu_lost', name: 'Grep' }] }));
    expect(h.server.validationErrors).toEqual([]);
  });

  it('never starts a Write whose answer broke, even once its block was whole', async () => {
    const write = use('toolu_w', 'Write', { file_path: 'lost.txt', content: 'x\n' });
    const cut = { kind: 'cut' as const, content: [write, text('and then')], afterEvents: 8 };
    h = await harness([cut, { content: [text('Nothing to do.')] }], { pace: PACE });
    const { log, overrides } = logged();
    const r = await h.run(overrides);
    expect(r.conclusion).toBe('success');
    expect(log).not.toContain('start toolu_w');
    expect(existsSync(join(h.dir, 'lost.txt'))).toBe(false);
  });

  it('starts the whole calls of a max_tokens answer early but never the one it cut short', async () => {
    const answer = [
      use('toolu_ok', 'Grep', { pattern: 'x' }),
      { type: 'tool_use_partial' as const, id: 'toolu_half', name: 'Read', partialJson: '{"file_pa' },
    ];
    h = await harness([{ content: answer }, { content: [text('Retrying smaller.')] }], { pace: PACE });
    const { log, overrides } = logged();
    await h.run(overrides);
    expect(log.indexOf('start toolu_ok')).toBeLessThan(log.indexOf('step 1'));
    expect(log).not.toContain('start toolu_half');
    expect(lastToolResults(h.server, 1).map((x) => x.tool_use_id)).toEqual(['toolu_ok']);
    expect(h.server.validationErrors).toEqual([]);
  });
});
