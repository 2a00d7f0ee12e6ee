import Anthropic, { BadRequestError } from '@anthropic-ai/sdk';
import { waitsBefore } from '../../test-support/anthropic-server/pace.js';
import { startAnthropicServer, type AnthropicServer, type AnthropicServerOptions } from '../../test-support/anthropic-server.js';

const MODEL = 'claude-fake-1';
const servers: AnthropicServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(opts: AnthropicServerOptions): Promise<AnthropicServer> {
  const server = await startAnthropicServer(opts);
  servers.push(server);
  return server;
}

const PACE = { firstTokenMs: 40, tokensPerSecond: 2000 };
const client = (server: AnthropicServer) => new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 });
const hi = [{ role: 'user' as const, content: 'hi' }];

describe('a paced fake', () => {
  it('waits nothing for the response start, the first-token latency before the content, and each delta its tokens', () => {
    const delta = (text: string) => ({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } });
    const events = [
      { type: 'message_start' },
      { type: 'ping' },
      { type: 'content_block_start', index: 0 },
      delta('12345678'),
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"a"' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'signature_delta', signature: 'sig' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_stop' },
    ];
    expect(waitsBefore(events, { firstTokenMs: 500, tokensPerSecond: 50 })).toEqual([0, 0, 500, 40, 20, 0, 0, 0]);
  });

  it('sends the response start at once and the content later, in several writes', async () => {
    const server = await start({ pace: PACE, script: [{ content: [{ type: 'text', text: 'A paced answer, token by token.' }] }] });
    const response = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': 'k' },
      body: JSON.stringify({ model: MODEL, max_tokens: 64, stream: true, messages: hi }),
    });
    const reader = response.body!.getReader();
    const chunks: string[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(Buffer.from(r.value).toString('utf8'));
    expect(chunks[0]).toContain('event: message_start');
    expect(chunks[0]).not.toContain('content_block_start');
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.join('')).toContain('event: message_stop');
  });

  it('gives the same message as an unpaced fake, and still rejects what the API would', async () => {
    const content = [
      { type: 'text' as const, text: 'Searching.' },
      { type: 'tool_use' as const, id: 'toolu_p1', name: 'grep', input: { pattern: 'needle', path: 'src' } },
    ];
    const tools = [{ name: 'grep', description: 'search', input_schema: { type: 'object' as const } }];
    const ask = async (server: AnthropicServer) =>
      (await client(server).messages.stream({ model: MODEL, max_tokens: 64, messages: hi, tools }).finalMessage()).content;
    const paced = await start({ pace: PACE, script: [{ content }] });
    const plain = await start({ script: [{ content }] });
    expect(await ask(paced)).toEqual(await ask(plain));

    const unanswered = [...hi, { role: 'assistant' as const, content }, { role: 'user' as const, content: 'and?' }];
    const request = client(paced).messages.stream({ model: MODEL, max_tokens: 64, messages: unanswered, tools }).finalMessage();
    await expect(request).rejects.toBeInstanceOf(BadRequestError);
    expect(paced.validationErrors).toHaveLength(1);
  });

  it('cuts a paced stream after the same events as an unpaced one', async () => {
    const cut = { kind: 'cut' as const, content: [{ type: 'text' as const, text: 'never finished, this' }], afterEvents: 4 };
    const server = await start({ pace: PACE, script: [cut] });
    const stream = client(server).messages.stream({ model: MODEL, max_tokens: 64, messages: hi });
    const deltas: string[] = [];
    stream.on('text', (d) => deltas.push(d));
    await expect(stream.finalMessage()).rejects.toThrow();
    // message_start, ping, content_block_start and one delta: a third of the text.
    expect(deltas).toEqual(['never f']);
  });

  it('closes promptly in the middle of a slow reply', async () => {
    const server = await start({
      pace: { firstTokenMs: 60_000, tokensPerSecond: 1 },
      script: [{ content: [{ type: 'text', text: 'slow' }] }],
    });
    const pending = client(server).messages.stream({ model: MODEL, max_tokens: 64, messages: hi }).finalMessage();
    const failed = pending.catch((error: unknown) => error);
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await server.close();
    expect(await failed).toBeInstanceOf(Error);
  });
});
