import { mcpResultToOutcome } from '../../../src/tools/mcp/index.js';

const PNG = 'iVBORw0KGgo=';

describe('mcpResultToOutcome', () => {
  it('gives a lone text as a string and keeps isError', () => {
    expect(mcpResultToOutcome({ content: [{ type: 'text', text: 'hello' }] }, 100)).toEqual({ content: 'hello', isError: false });
    const failed = mcpResultToOutcome({ content: [{ type: 'text', text: 'bad' }], isError: true }, 100);
    expect(failed).toEqual({ content: 'bad', isError: true });
  });

  it('turns accepted images into image blocks and says what others were', () => {
    const outcome = mcpResultToOutcome(
      {
        content: [
          { type: 'text', text: 'before' },
          { type: 'image', data: PNG, mimeType: 'image/png' },
          { type: 'image', data: PNG, mimeType: 'image/svg+xml' },
          { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
          { type: 'text', text: 'after' },
        ],
      },
      1000,
    );
    expect(outcome.content).toEqual([
      { type: 'text', text: 'before' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
      {
        type: 'text',
        text: [
          '[image of type image/svg+xml not shown: only PNG, JPEG, GIF and WebP are]',
          '[audio of type audio/wav not shown: only PNG, JPEG, GIF and WebP are]',
          'after',
        ].join('\n'),
      },
    ]);
  });

  it('says so instead of sending an image over the API limit', () => {
    const big = 'A'.repeat(8 * 1024 * 1024);
    const outcome = mcpResultToOutcome({ content: [{ type: 'image', data: big, mimeType: 'image/png' }] }, 1000);
    expect(outcome.content).toBe('[image not shown: 6291456 bytes, over 5 MB]');
  });

  it('keeps at most five images of one result', () => {
    const content = Array.from({ length: 7 }, () => ({ type: 'image', data: PNG, mimeType: 'image/gif' }));
    const outcome = mcpResultToOutcome({ content }, 1000);
    expect(Array.isArray(outcome.content) && outcome.content.filter((b) => b.type === 'image').length).toBe(5);
  });
});

describe('mcpResultToOutcome for resources and fallbacks', () => {
  it('gives embedded resources as their text, blobs as a note, links as a line', () => {
    const outcome = mcpResultToOutcome(
      {
        content: [
          { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'file text' } },
          { type: 'resource', resource: { uri: 'file:///a.bin', mimeType: 'application/zip', blob: 'AAAAAAAA' } },
          {
            type: 'resource',
            resource: { uri: 'file:///c.json', mimeType: 'application/json', blob: Buffer.from('{"c":1}').toString('base64') },
          },
          { type: 'resource_link', uri: 'file:///b.md', name: 'B', mimeType: 'text/markdown', description: 'the b file' },
          { type: 'something-new', value: 1 },
        ],
      },
      1000,
    );
    expect(outcome.content).toBe(
      [
        'file text',
        '[resource file:///a.bin (application/zip, 6 bytes) not shown]',
        '{"c":1}',
        'Resource link: B <file:///b.md> (text/markdown): the b file',
        '[content of type "something-new" not shown]',
      ].join('\n'),
    );
  });

  it('shows an image resource as an image', () => {
    const outcome = mcpResultToOutcome(
      { content: [{ type: 'resource', resource: { uri: 'x:/i', mimeType: 'image/webp', blob: PNG } }] },
      10,
    );
    expect(outcome.content).toEqual([{ type: 'image', source: { type: 'base64', media_type: 'image/webp', data: PNG } }]);
  });

  it('falls back to structured content, then to a placeholder', () => {
    expect(mcpResultToOutcome({ content: [], structuredContent: { sum: 3 } }, 100).content).toBe('{\n  "sum": 3\n}');
    expect(mcpResultToOutcome({ toolResult: 'old style' }, 100).content).toBe('old style');
    expect(mcpResultToOutcome({}, 100).content).toBe('(no output)');
  });
});

describe('mcpResultToOutcome limits', () => {
  it('caps text to the limit, head and tail, and shares the limit among texts around images', () => {
    const long = `HEAD${'x'.repeat(10_000)}TAIL`;
    const single = mcpResultToOutcome({ content: [{ type: 'text', text: long }] }, 200);
    expect(typeof single.content).toBe('string');
    expect(single.content).toMatch(/^HEAD[\s\S]*characters cut from the middle[\s\S]*TAIL$/);
    expect(single.content.length).toBeLessThan(300);

    const mixed = mcpResultToOutcome(
      {
        content: [
          { type: 'text', text: long },
          { type: 'image', data: PNG, mimeType: 'image/jpeg' },
          { type: 'text', text: long },
        ],
      },
      400,
    );
    if (!Array.isArray(mixed.content)) throw new Error('expected blocks');
    const texts = mixed.content.flatMap((b) => (b.type === 'text' ? [b.text] : []));
    expect(texts).toHaveLength(2);
    for (const text of texts) expect(text).toMatch(/^HEAD[\s\S]*TAIL$/);
    expect(texts.join('').length).toBeLessThan(600);
  });
});
