import { readFileSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repairHistory } from '../../src/agent/history.js';
import { flushTranscripts, messageRecord, readTranscript, TranscriptWriter } from '../../src/agent/transcript.js';
import { clearOldToolResults } from '../../src/agent/compaction.js';
import type { Message as MessageParam } from '../../src/core/messages.js';
import { toMessages as withCacheBreakpoints } from '../../src/model/anthropic/request.js';

const user = (text: string): MessageParam => ({ role: 'user', content: [{ type: 'text', text }] });
const callTurn = (id: string): MessageParam => ({
  role: 'assistant',
  content: [
    { type: 'text', text: 'calling' },
    { type: 'tool_use', id, name: 'Bash', input: { command: 'ls' } },
  ],
});
const resultTurn = (id: string, content = 'out'): MessageParam => ({
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: id, content }],
});

describe('repairHistory', () => {
  it('drops a dangling tool_use that never got its result', () => {
    const repaired = repairHistory([user('task'), callTurn('a'), resultTurn('a'), callTurn('b')]);
    expect(repaired).toHaveLength(4);
    expect(JSON.stringify(repaired[3])).not.toMatch(/tool_use/);
  });

  it('drops an assistant turn left empty and merges the user turns around it', () => {
    const dangling: MessageParam = { role: 'assistant', content: [{ type: 'tool_use', id: 'b', name: 'Bash', input: {} }] };
    const repaired = repairHistory([user('task'), callTurn('a'), resultTurn('a'), dangling, user('go on')]);
    expect(repaired.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    const blocks = repaired[2]!.content as { type: string }[];
    expect(blocks.map((b) => b.type)).toEqual(['tool_result', 'text']);
  });

  it('drops tool results that answer nothing', () => {
    const repaired = repairHistory([user('task'), { role: 'assistant', content: 'hi' }, resultTurn('ghost'), user('next')]);
    expect(JSON.stringify(repaired)).not.toMatch(/ghost/);
  });
});

describe('transcript', () => {
  it('writes JSONL records and reads the conversation back for --resume, dropping the dangling call', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'transcript-'));
    const path = join(dir, 'sub', 'run.jsonl');
    const writer = new TranscriptWriter(path);
    writer.write({ type: 'system', system: 'sys', tools: ['Bash'], model: 'm', time: 't' });
    for (const m of [user('task'), callTurn('a'), resultTurn('a'), callTurn('b')]) writer.write(messageRecord(m));
    writer.write({ type: 'meta', event: 'conclusion', time: 't', conclusion: 'cancelled' });
    const lines = (await readFile(path, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    expect(lines.map((l) => l.type)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'meta']);
    const { messages } = readTranscript(path);
    expect(messages).toHaveLength(4);
    expect(JSON.stringify(messages)).not.toMatch(/"id":"b"/);
  });

  it('writes a record given to writeSoon on the next turn, before any later one, and at exit', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'transcript-'));
    const path = join(dir, 'run.jsonl');
    const writer = new TranscriptWriter(path);
    const types = async () =>
      (await readFile(path, 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { type: string }).type);
    writer.writeSoon(messageRecord(user('a')));
    writer.writeSoon(messageRecord(callTurn('a')));
    expect(readFileSync(path, 'utf8')).toBe('');
    await new Promise((done) => setImmediate(done));
    expect(await types()).toEqual(['user', 'assistant']);
    writer.writeSoon(messageRecord(resultTurn('a')));
    writer.write({ type: 'meta', event: 'conclusion', time: 't' });
    expect(await types()).toEqual(['user', 'assistant', 'user', 'meta']);
    await new Promise((done) => setImmediate(done));
    expect(await types()).toEqual(['user', 'assistant', 'user', 'meta']);

    // A process that exits before its next turn still writes what it queued.
    writer.writeSoon({ type: 'meta', event: 'last', time: 't' });
    expect(process.listeners('exit')).toContain(flushTranscripts);
    flushTranscripts();
    expect(await types()).toEqual(['user', 'assistant', 'user', 'meta', 'meta']);
    expect(process.listeners('exit')).not.toContain(flushTranscripts);

    // A write that fails on the next turn is kept, and the next write() says so where it is called.
    const broken = join(dir, 'broken.jsonl');
    const failing = new TranscriptWriter(broken);
    await rm(broken);
    await mkdir(broken);
    failing.writeSoon(messageRecord(user('kept')));
    await new Promise((done) => setImmediate(done));
    expect(() => failing.write({ type: 'meta', event: 'next', time: 't' })).toThrow();
    await rm(broken, { recursive: true });
    failing.write({ type: 'meta', event: 'next', time: 't' });
    expect(
      (await readFile(broken, 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { type: string }).type),
    ).toEqual(['user', 'meta']);
  });

  it('tolerates a last line cut by a kill', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'transcript-'));
    const path = join(dir, 'run.jsonl');
    new TranscriptWriter(path).write(messageRecord(user('task')));
    await appendFile(path, '{"type":"assistant","mess');
    expect(readTranscript(path).messages).toHaveLength(1);
  });
});

describe('context', () => {
  it('puts breakpoints on the newest message and the previous user turn without touching the history', () => {
    const history = [user('task'), callTurn('a'), resultTurn('a'), callTurn('b'), resultTurn('b')];
    const marked = withCacheBreakpoints(history);
    const count = (m: readonly unknown[]) => JSON.stringify(m).split('cache_control').length - 1;
    expect(count(marked)).toBe(2);
    expect(JSON.stringify(marked[4])).toMatch(/cache_control/);
    expect(JSON.stringify(marked[2])).toMatch(/cache_control/);
    expect(count(history)).toBe(0);
  });

  it('clears older tool output to a one-line note and keeps the recent turns', () => {
    const long = 'y'.repeat(1000);
    const history = [
      user('task'),
      callTurn('a'),
      resultTurn('a', long),
      callTurn('b'),
      resultTurn('b', long),
      callTurn('c'),
      resultTurn('c', long),
    ];
    expect(clearOldToolResults(history, 2)).toBe(1);
    expect(JSON.stringify(history[2])).toMatch(/cleared to save context: 1000 characters of output from Bash/);
    expect(JSON.stringify(history[4])).toContain(long);
  });
});
