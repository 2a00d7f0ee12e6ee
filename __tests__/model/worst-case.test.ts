import type { Message } from '../../src/core/messages.js';
import type { ToolSpec } from '../../src/core/tools.js';
import { priceFor } from '../../src/model/anthropic/prices.js';
import { requestJsonBytes, worstCaseCost } from '../../src/model/worst-case.js';

const whole = (r: { system: string; tools: readonly ToolSpec[]; messages: readonly Message[] }) =>
  Buffer.byteLength(JSON.stringify([r.system, r.tools, r.messages]), 'utf8');

const tools: ToolSpec[] = [
  { name: 'Read', description: 'Reads a file: "quoted", tabbed\tand ünïcode', readOnly: true, input_schema: { type: 'object' } },
  {
    name: 'WebSearch',
    description: 'search',
    readOnly: true,
    input_schema: { type: 'object' },
    server: { type: 'web_search_20250305', name: 'web_search', max_uses: 5 },
  },
];

describe('requestJsonBytes', () => {
  it('sizes long tool output without serialising it, to the byte, whatever characters it holds', () => {
    const alphabet = [
      'a',
      'Z',
      ' ',
      '"',
      '\\',
      '\n',
      '\t',
      '\r',
      '\b',
      '\f',
      '\u000b',
      '\u0000',
      '\u001f',
      '\u007f',
      'é',
      '€',
      '\u2028',
      '🎉',
      '\ud800',
      '\udfff',
    ];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 200; round++) {
      // Mostly ordinary characters, as source files are; some rounds with none of the rare ones.
      const pool = round % 3 === 0 ? alphabet.slice(0, 10) : alphabet;
      const content = Array.from({ length: 1100 + round * 7 }, () => (next() < 0.8 ? 'x' : pool[Math.floor(next() * pool.length)]!)).join(
        '',
      );
      const messages: Message[] = [
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: `toolu_${round}`, content, ...(round % 2 ? { is_error: true } : {}) }],
        },
      ];
      const request = { system: 's', tools, messages };
      expect(requestJsonBytes(request)).toBe(whole(request));
    }
  });

  it('is the byte length of the request as JSON, whatever the messages hold', () => {
    const messages: Message[] = [
      { role: 'user', content: 'a prompt with "quotes", \\ backslashes, \u0001 control characters and emoji 🎉' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'reading\n' },
          { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'src/ä.ts' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: '     1\texport const x = "é";\n'.repeat(50) },
          { type: 'tool_result', tool_use_id: 'toolu_2', is_error: true, content: [{ type: 'text', text: 'failed' }] },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
        ],
      },
      { role: 'assistant', content: [] },
    ];
    for (const request of [
      { system: '', tools: [], messages: [] },
      { system: 'You are "helpful".\n', tools, messages },
      { system: 'sys', tools: [], messages: messages.slice(0, 1) },
    ]) {
      expect(requestJsonBytes(request)).toBe(whole(request));
      // Asked again (the sizes kept), the answer is the same.
      expect(requestJsonBytes(request)).toBe(whole(request));
    }
  });

  it('counts what a message carries besides its role and content', () => {
    const messages = [{ role: 'user', content: [{ type: 'text', text: 'hi' }], extra: 'x'.repeat(100) } as Message];
    expect(requestJsonBytes({ system: 's', tools: [], messages })).toBe(whole({ system: 's', tools: [], messages }));
  });

  it('follows the history as the loop changes it: new turns, a turn whose content is replaced, cleared results', () => {
    const messages: Message[] = [{ role: 'user', content: 'go' }];
    const request = { system: 's', tools, messages };
    for (let step = 0; step < 5; step++) {
      messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `t${step}`, name: 'Read', input: { file_path: `f${step}` } }] });
      messages.push({
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: `t${step}`, content: `text ${step}\n`.repeat(step * 100) }],
      });
      expect(requestJsonBytes(request)).toBe(whole(request));
    }
    // A turn merged with a note (a new content array, the old blocks in it) grows.
    const last = messages[messages.length - 1]!;
    last.content = [...(last.content as []), { type: 'text', text: 'a note added to the turn, longer than before' }];
    expect(requestJsonBytes(request)).toBe(whole(request));
    // Compaction replaces old results with new, shorter blocks.
    const first = messages[2]!;
    first.content = [{ type: 'tool_result', tool_use_id: 't0', content: '[cleared]' }];
    expect(requestJsonBytes(request)).toBe(whole(request));
  });
});

describe('worstCaseCost', () => {
  it('never reserves less than the whole request serialised once more would', () => {
    const price = priceFor('claude-sonnet-5-5');
    const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'ü\t"x"\n'.repeat(5000) }] }];
    const request = { system: 'sys', tools, messages, maxTokens: 1000 };
    const rate = Math.max(price.input, price.cacheWrite, price.cacheRead);
    const byWhole = ((whole(request) + 1000) * rate + 1000 * price.output) / 1e6 + 5 * (price.webSearch ?? 0);
    expect(worstCaseCost(request, price)).toBeCloseTo(byWhole, 12);
  });
});
