import type { Model, ToolUseBlock } from '../../src/core/index.js';
import { AnthropicModel } from '../../src/model/anthropic/index.js';
import { bedrockModel } from '../../src/model/bedrock/index.js';
import { startAnthropicServer, type Script, type ScriptedBlock } from '../../test-support/anthropic-server.js';
import { startBedrockServer } from '../../test-support/bedrock-server.js';

const KEY = 'sk-ant-stream-test';
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function anthropic(script: Script): Promise<Model> {
  const server = await startAnthropicServer({ script, requireApiKey: KEY });
  closers.push(() => server.close());
  return new AnthropicModel({ model: 'claude-sonnet-5-5', apiKey: KEY, baseURL: server.url, maxRetries: 0 });
}

async function bedrock(script: Script): Promise<Model> {
  const credentials = { accessKeyId: 'AKIAFAKE000000000000', secretAccessKey: 'fake-secret-key' };
  const server = await startBedrockServer({ script, region: 'us-east-1', credentials });
  closers.push(() => server.close());
  const env = {
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    ANTHROPIC_BEDROCK_BASE_URL: server.url,
  };
  return bedrockModel({ model: 'us.anthropic.claude-sonnet-5-5-20260601-v1:0', maxRetries: 0, env });
}

/** One call, logging text deltas and reported blocks in the order they came, and the turn's end. */
async function streamed(model: Model): Promise<{ log: string[]; reported: ToolUseBlock[]; content: unknown[] }> {
  const log: string[] = [];
  const reported: ToolUseBlock[] = [];
  const tools = [{ name: 'Grep', description: 'search', readOnly: true, input_schema: { type: 'object' as const } }];
  const turn = await model.send({
    system: 'test',
    tools,
    messages: [{ role: 'user', content: 'go' }],
    maxTokens: 1000,
    signal: new AbortController().signal,
    onText: (d) => log.push(`text ${d}`),
    onToolUse: (block) => {
      reported.push(block);
      log.push(`tool ${block.id}`);
    },
  });
  log.push(`end ${turn.stop}`);
  return { log, reported, content: turn.content };
}

const grep = (id: string, pattern: string): ScriptedBlock => ({ type: 'tool_use', id, name: 'Grep', input: { pattern } });
const text = (t: string): ScriptedBlock => ({ type: 'text', text: t });

describe('the Anthropic adapter reports tool_use blocks while the answer streams', () => {
  it('reports each block, with its whole input, once the next block begins', async () => {
    const { log, reported, content } = await streamed(
      await anthropic([{ content: [text('Looking.'), grep('toolu_a', 'alpha'), grep('toolu_b', 'beta'), text('Then more.')] }]),
    );
    expect(reported).toEqual([
      { type: 'tool_use', id: 'toolu_a', name: 'Grep', input: { pattern: 'alpha' } },
      { type: 'tool_use', id: 'toolu_b', name: 'Grep', input: { pattern: 'beta' } },
    ]);
    // Both before any text of the block after them: tools can start while the model writes on.
    const textAfter = (entry: string) =>
      log
        .slice(log.indexOf(entry) + 1)
        .filter((l) => l.startsWith('text '))
        .map((l) => l.slice(5))
        .join('');
    expect(textAfter('tool toolu_b')).toBe('Then more.');
    expect(log.at(-1)).toBe('end tool_use');
    expect(content.filter((b) => (b as { type: string }).type === 'tool_use')).toEqual(reported);
  });

  it("reports an answer's last block when it stops for its calls", async () => {
    const { log } = await streamed(await anthropic([{ content: [text('One search.'), grep('toolu_last', 'x')] }]));
    expect(log.slice(-2)).toEqual(['tool toolu_last', 'end tool_use']);
  });

  it('never reports the block a max_tokens cut may have left half-written, whole JSON or not', async () => {
    const partial = await streamed(
      await anthropic([
        { content: [grep('toolu_whole', 'x'), { type: 'tool_use_partial', id: 'toolu_half', name: 'Grep', partialJson: '{"pat' }] },
      ]),
    );
    expect(partial.reported.map((b) => b.id)).toEqual(['toolu_whole']);
    expect(partial.log.at(-1)).toBe('end max_tokens');
    const cut = await streamed(await anthropic([{ content: [text('Hm.'), grep('toolu_cut', 'y')], stop_reason: 'max_tokens' }]));
    expect(cut.reported).toEqual([]);
  });

  it('gives each call its streamed input, escapes and all, and a half-written one as far as it goes', async () => {
    const odd = 'a "quoted" \\ back\tslash, ü and 🎉\n';
    const { reported, content } = await streamed(
      await anthropic([
        {
          content: [
            grep('toolu_odd', odd),
            { type: 'tool_use', id: 'toolu_empty', name: 'Grep', input: {} },
            { type: 'tool_use_partial', id: 'toolu_half', name: 'Grep', partialJson: '{"pattern": "ab", "pa' },
          ],
        },
      ]),
    );
    expect(reported.map((b) => [b.id, b.input])).toEqual([
      ['toolu_odd', { pattern: odd }],
      ['toolu_empty', {}],
    ]);
    expect(content).toEqual([
      { type: 'tool_use', id: 'toolu_odd', name: 'Grep', input: { pattern: odd } },
      { type: 'tool_use', id: 'toolu_empty', name: 'Grep', input: {} },
      // The SDK's partial reading of a cut input.
      { type: 'tool_use', id: 'toolu_half', name: 'Grep', input: { pattern: 'ab' } },
    ]);
  });

  it('does not report the last block of a paused or refused answer', async () => {
    for (const stop_reason of ['pause_turn', 'refusal'] as const) {
      const { reported } = await streamed(await anthropic([{ content: [grep('toolu_p', 'z')], stop_reason }]));
      expect(reported).toEqual([]);
    }
  });

  it('reports blocks the same way on Bedrock, whose stream is framed differently', async () => {
    const { log, reported } = await streamed(await bedrock([{ content: [grep('toolu_br', 'q'), text('After the call.')] }]));
    expect(reported.map((b) => b.id)).toEqual(['toolu_br']);
    expect(log[0]).toBe('tool toolu_br');
    expect(log.at(-1)).toBe('end tool_use');
  });
});
