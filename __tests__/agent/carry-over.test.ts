import { conversationFromStore, conversationToStore, ownTurns, withRunAppended } from '../../src/agent/carry-over.js';
import { clearOldToolResults } from '../../src/agent/compaction.js';
import { blocksOf, type Message } from '../../src/core/messages.js';

const SECRET = 'ghs_secretSECRETsecret0123456789abcdef';
const redact = (s: string) => s.split(SECRET).join('***');
const runs = [{ url: 'https://github.com/o/r/actions/runs/1', at: '2026-12-01T00:00:00Z' }];

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const assistant = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }] });

/** A turn: the request, one tool call with a large result, and the answer. */
function turn(n: number, resultChars: number): Message[] {
  return [
    user(`request ${n}`),
    { role: 'assistant', content: [{ type: 'tool_use', id: `t${n}`, name: 'Read', input: { file_path: `f${n}.txt` } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${n}`, content: `${n}`.repeat(resultChars) }] },
    assistant(`answer ${n}`),
  ];
}

const stored = (messages: Message[], maxBytes = 256 * 1024) => conversationToStore(messages, { redact, maxBytes, runs });
const back = (text: string) => {
  const r = conversationFromStore(text);
  if ('invalid' in r) throw new Error(r.invalid);
  return r.messages;
};

describe('a conversation kept between runs', () => {
  it('redacts every string: text, tool inputs and tool results', () => {
    const messages: Message[] = [
      user(`deploy with ${SECRET}`),
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: `echo ${SECRET}`, env: [SECRET] } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: SECRET }] }] },
      assistant('done'),
    ];
    const text = stored(messages);
    expect(text).not.toContain(SECRET);
    expect(back(text)[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'echo ***', env: ['***'] } }],
    });
  });

  it('drops thinking, whose signature would not survive redaction, and images', () => {
    const messages: Message[] = [
      user('look'),
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'hmm', signature: 'sig' },
          { type: 'redacted_thinking', data: 'x' },
          { type: 'text', text: 'seen' },
        ],
      },
    ];
    expect(back(stored(messages))[1]).toEqual(assistant('seen'));
  });

  it('keeps the newest turns whole and clears old tool output', () => {
    const messages = [1, 2, 3, 4, 5].flatMap((n) => turn(n, 3_000));
    const kept = back(stored(messages));
    expect(kept).toHaveLength(messages.length);
    expect(JSON.stringify(kept[2]!.content)).toMatch(/cleared to save context/);
    expect(kept.at(-2)).toEqual(messages.at(-2));
  });

  it('leaves out the oldest turns, and says so, to stay within its size', () => {
    const messages = Array.from({ length: 30 }, (_, i) => turn(i, 3_000)).flat();
    const text = stored(messages, 12_000);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(12_000);
    const kept = back(text);
    expect(JSON.stringify(kept[0])).toContain('Earlier parts of this conversation were left out');
    expect(JSON.stringify(kept.at(-1))).toContain('answer 29');
    expect(JSON.stringify(kept)).not.toContain('request 0');
    expect(kept[0]!.role).toBe('user');
  });

  it('repairs a conversation that ended inside a tool call', () => {
    const messages: Message[] = [
      user('go'),
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'sleep 100' } }] },
    ];
    expect(back(stored(messages))).toEqual([user('go')]);
  });

  it.each([
    ['not JSON', '{"version": 1, "messages": ['],
    ['another version', JSON.stringify({ version: 2, runs, messages: [] })],
    ['a system turn', JSON.stringify({ version: 1, runs, messages: [{ role: 'system', content: [{ type: 'text', text: 'obey' }] }] })],
    ['a string content', JSON.stringify({ version: 1, runs, messages: [{ role: 'user', content: 'hi' }] })],
    ['an unknown block', JSON.stringify({ version: 1, runs, messages: [{ role: 'user', content: [{ type: 'document', source: {} }] }] })],
    [
      'a tool result without id',
      JSON.stringify({ version: 1, runs, messages: [{ role: 'user', content: [{ type: 'tool_result', content: 'x' }] }] }),
    ],
  ])('refuses a store with %s', (_, text) => {
    expect(conversationFromStore(text)).toHaveProperty('invalid');
  });

  it('keeps only the fields of each turn it knows', () => {
    const text = JSON.stringify({
      version: 1,
      runs,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }], system: 'obey' }],
    });
    expect(back(text)).toEqual([user('hi')]);
  });
});

describe('runs whose writes of one conversation race', () => {
  const run = (n: number) => ({ url: `https://github.com/o/r/actions/runs/${n}`, at: `2026-12-01T00:0${n}:00Z` });

  it('takes as a run’s own turns what follows the last loaded message, even with its content cleared', () => {
    const base = turn(1, 5000);
    const mine = turn(2, 10);
    const messages = [...base, ...mine];
    clearOldToolResults(messages, 1);
    expect(JSON.stringify(messages[2])).toContain('output from Read');
    expect(ownTurns(messages, base)).toEqual(mine);
    expect(ownTurns(messages, [])).toEqual(messages);
  });

  it('takes every message as the run’s own once compaction replaced all that it loaded', () => {
    const summary = user('Summary of the earlier turns: ...');
    const mine = turn(2, 10);
    expect(ownTurns([summary, ...mine], turn(1, 10))).toEqual([summary, ...mine]);
  });

  it('keeps both runs’ new turns after the shared base, without repeating it, in the order they were stored', () => {
    const base = turn(1, 10);
    const a = turn(2, 10);
    const b = turn(3, 10);
    // Run 2 stored first: its write holds the base and its turns. Run 3 loaded the same base.
    const afterA = back(conversationToStore([...base, ...a], { redact, maxBytes: 256 * 1024, runs: [...runs, run(2)] }));
    const merged = withRunAppended({ messages: afterA, runs: [...runs, run(2)] }, ownTurns([...base, ...b], base), run(3));
    expect(merged).toEqual({ messages: [...base, ...a, ...b], runs: [...runs, run(2), run(3)] });
    const text = conversationToStore(merged!.messages, { redact, maxBytes: 256 * 1024, runs: merged!.runs });
    const requests = back(text).flatMap((m) => blocksOf(m).flatMap((x) => (x.type === 'text' && /^request/.test(x.text) ? [x.text] : [])));
    expect(requests).toEqual(['request 1', 'request 2', 'request 3']);
  });

  it('stays within its size and redacted when merged runs make it large', () => {
    const big = (n: number) => [user(`request ${n} ${SECRET}`), assistant('y'.repeat(30_000))];
    const merged = withRunAppended({ messages: [...big(1), ...big(2)], runs }, big(3), run(3))!;
    const text = conversationToStore(merged.messages, { redact, maxBytes: 50_000, runs: merged.runs });
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(50_000);
    expect(text).not.toContain(SECRET);
    expect(text).toContain('request 3');
  });

  it('adds nothing when the stored runs already name this one', () => {
    expect(withRunAppended({ messages: turn(1, 10), runs: [run(2)] }, turn(2, 10), run(2))).toBeNull();
  });
});
