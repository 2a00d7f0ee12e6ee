import Anthropic, { APIUserAbortError, AuthenticationError, BadRequestError, InternalServerError } from '@anthropic-ai/sdk';
import {
  estimateTokens,
  startAnthropicServer,
  type AnthropicServer,
  type AnthropicServerOptions,
} from '../../test-support/anthropic-server.js';

const MODEL = 'claude-fake-1';
const servers: AnthropicServer[] = [];

async function start(opts: AnthropicServerOptions): Promise<AnthropicServer> {
  const server = await startAnthropicServer(opts);
  servers.push(server);
  return server;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function clientFor(server: AnthropicServer, maxRetries = 0): Anthropic {
  return new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries });
}

type Turn = Anthropic.UserMessageParam | Anthropic.AssistantMessageParam;

function ask(
  client: Anthropic,
  messages: Turn[],
  extra: { system?: Anthropic.TextBlockParam[]; tools?: Anthropic.Tool[]; signal?: AbortSignal } = {},
): Promise<Anthropic.Message> {
  const { signal, ...rest } = extra;
  return client.messages.stream({ model: MODEL, max_tokens: 1024, messages, ...rest }, signal ? { signal } : {}).finalMessage();
}

async function rawPost(server: AnthropicServer, body: object, headers: Record<string, string>): Promise<Response> {
  return fetch(`${server.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

const userSays = (text: string): Turn => ({ role: 'user', content: text });
const readFile: Anthropic.Tool = {
  name: 'read_file',
  description: 'Read a file',
  input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

describe('streaming replies', () => {
  it('streams text in several deltas and finalMessage equals the script', async () => {
    const server = await start({ script: [{ content: [{ type: 'text', text: 'Hello from the fake API, streamed.' }] }] });
    const deltas: string[] = [];
    const stream = clientFor(server).messages.stream({ model: MODEL, max_tokens: 64, messages: [userSays('hi')] });
    stream.on('text', (delta) => deltas.push(delta));
    const message = await stream.finalMessage();

    expect(message.content).toEqual([{ type: 'text', text: 'Hello from the fake API, streamed.' }]);
    expect(message).toMatchObject({ id: 'msg_1', model: MODEL, role: 'assistant', stop_reason: 'end_turn', stop_sequence: null });
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('Hello from the fake API, streamed.');
    expect(message.usage.output_tokens).toBe(estimateTokens([{ type: 'text', text: 'Hello from the fake API, streamed.' }]));
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ index: 0, reply: 'message', body: { model: MODEL, stream: true } });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer test-key');
    expect(server.requests[0]?.bytes).toBeGreaterThan(0);
    expect(server.validationErrors).toEqual([]);
  });

  it('delivers tool_use input intact through input_json_delta chunks and stops for tool_use', async () => {
    const input = { path: 'src/ünïcode 🚀.ts', lines: [1, 2, 3], nested: { ok: true } };
    const server = await start({
      script: [
        {
          content: [
            { type: 'text', text: 'Reading.' },
            { type: 'tool_use', name: 'read_file', input },
          ],
        },
      ],
    });
    const partials: string[] = [];
    const stream = clientFor(server).messages.stream({ model: MODEL, max_tokens: 64, tools: [readFile], messages: [userSays('read it')] });
    stream.on('inputJson', (partial) => partials.push(partial));
    const message = await stream.finalMessage();

    expect(partials.length).toBeGreaterThanOrEqual(2);
    expect(partials.join('')).toBe(JSON.stringify(input));
    expect(message.content[1]).toEqual({ type: 'tool_use', id: 'toolu_1', name: 'read_file', input });
    expect(message.stop_reason).toBe('tool_use');
  });

  it('round-trips thinking with its signature and rejects tampered thinking', async () => {
    const server = await start({
      script: [
        {
          content: [
            { type: 'thinking', thinking: 'Let me consider this.' },
            { type: 'text', text: 'Done.' },
          ],
        },
        { content: [{ type: 'text', text: 'Again.' }] },
      ],
    });
    const client = clientFor(server);
    const first = await ask(client, [userSays('think')]);
    const thinking = first.content[0];
    if (thinking?.type !== 'thinking') throw new Error('expected a thinking block first');
    expect(thinking.thinking).toBe('Let me consider this.');
    expect(thinking.signature).toMatch(/^[A-Za-z0-9+/]+=*$/);

    const history: Turn[] = [
      userSays('think'),
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: thinking.thinking, signature: thinking.signature },
          { type: 'text', text: 'Done.' },
        ],
      },
      userSays('more'),
    ];
    await expect(ask(client, history)).resolves.toMatchObject({ content: [{ type: 'text', text: 'Again.' }] });

    const tampered: Turn[] = [
      userSays('think'),
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'Something else.', signature: thinking.signature }] },
      userSays('more'),
    ];
    await expect(ask(client, tampered)).rejects.toBeInstanceOf(BadRequestError);
    expect(server.validationErrors.at(-1)).toContain('blocks in the latest assistant message cannot be modified');
  });

  it('streams a redacted_thinking block whole', async () => {
    const server = await start({
      script: [
        {
          content: [
            { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
            { type: 'text', text: 'ok' },
          ],
        },
      ],
    });
    const message = await ask(clientFor(server), [userSays('hi')]);
    expect(message.content[0]).toEqual({ type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' });
  });

  it('streams a partial tool_use JSON when the script stops for max_tokens', async () => {
    const server = await start({
      script: [
        { content: [{ type: 'tool_use_partial', name: 'read_file', partialJson: '{"path": "src/very/lo' }], stop_reason: 'max_tokens' },
      ],
    });
    const partials: string[] = [];
    const stream = clientFor(server).messages.stream({ model: MODEL, max_tokens: 16, tools: [readFile], messages: [userSays('go')] });
    stream.on('inputJson', (partial) => partials.push(partial));
    const message = await stream.finalMessage();

    expect(message.stop_reason).toBe('max_tokens');
    expect(partials.join('')).toBe('{"path": "src/very/lo');
    expect(message.content[0]).toMatchObject({ type: 'tool_use', name: 'read_file' });
  });

  it('lets a function script see each request and its position', async () => {
    const seen: number[] = [];
    const server = await start({
      script: (req, index) => {
        seen.push(index);
        return { content: [{ type: 'text', text: `turn ${req.body.messages.length}` }] };
      },
    });
    const client = clientFor(server);
    await ask(client, [userSays('a')]);
    const second = await ask(client, [userSays('a'), { role: 'assistant', content: 'turn 1' }, userSays('b')]);
    expect(second.content).toEqual([{ type: 'text', text: 'turn 3' }]);
    expect(seen).toEqual([0, 1]);
  });
});

describe('request validation', () => {
  it('rejects a tool_use left unanswered with 400, records it, and does not consume the script', async () => {
    const server = await start({ script: [{ content: [{ type: 'text', text: 'first entry' }] }] });
    const client = clientFor(server);
    const unanswered: Turn[] = [
      userSays('read it'),
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_a', name: 'read_file', input: { path: 'x' } }] },
      userSays('never mind'),
    ];
    await expect(ask(client, unanswered, { tools: [readFile] })).rejects.toBeInstanceOf(BadRequestError);
    expect(server.validationErrors).toHaveLength(1);
    expect(server.validationErrors[0]).toContain('`tool_use` ids were found without `tool_result` blocks immediately after: toolu_a');
    expect(server.requests[0]).toMatchObject({ reply: 'invalid', validationError: server.validationErrors[0] });

    await expect(ask(client, [userSays('hi')])).resolves.toMatchObject({ content: [{ type: 'text', text: 'first entry' }] });
  });

  it('requires tool_result blocks to come first and to answer the previous tool_use', async () => {
    const server = await start({ script: [] });
    const client = clientFor(server);
    const call: Turn = { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_a', name: 'read_file', input: {} }] };
    const textFirst: Turn[] = [
      userSays('go'),
      call,
      {
        role: 'user',
        content: [
          { type: 'text', text: 'here:' },
          { type: 'tool_result', tool_use_id: 'toolu_a', content: 'data' },
        ],
      },
    ];
    const strayResult: Turn[] = [
      userSays('go'),
      call,
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_a' },
          { type: 'tool_result', tool_use_id: 'toolu_zzz' },
        ],
      },
    ];
    await expect(ask(client, textFirst, { tools: [readFile] })).rejects.toBeInstanceOf(BadRequestError);
    await expect(ask(client, strayResult, { tools: [readFile] })).rejects.toBeInstanceOf(BadRequestError);
    expect(server.validationErrors[0]).toContain('without `tool_result` blocks immediately after: toolu_a');
    expect(server.validationErrors[1]).toContain('unexpected `tool_use_id` found in `tool_result` blocks: toolu_zzz');
  });

  it('rejects roles that do not alternate', async () => {
    const server = await start({ script: [] });
    await expect(ask(clientFor(server), [userSays('a'), userSays('b')])).rejects.toBeInstanceOf(BadRequestError);
    expect(server.validationErrors[0]).toContain('roles must alternate');
  });

  it('rejects empty text blocks and duplicate tool names', async () => {
    const server = await start({ script: [] });
    const client = clientFor(server);
    await expect(ask(client, [{ role: 'user', content: [{ type: 'text', text: '' }] }])).rejects.toBeInstanceOf(BadRequestError);
    await expect(ask(client, [userSays('a')], { tools: [readFile, readFile] })).rejects.toBeInstanceOf(BadRequestError);
    expect(server.validationErrors).toEqual([
      expect.stringContaining('text content blocks must be non-empty'),
      'tools: Tool names must be unique.',
    ]);
  });

  it('rejects a fifth cache_control block', async () => {
    const server = await start({ script: [] });
    const cached = (text: string): Anthropic.TextBlockParam => ({ type: 'text', text, cache_control: { type: 'ephemeral' } });
    const messages: Turn[] = [{ role: 'user', content: [cached('a'), cached('b'), cached('c')] }];
    await expect(ask(clientFor(server), messages, { system: [cached('s1'), cached('s2')] })).rejects.toBeInstanceOf(BadRequestError);
    expect(server.validationErrors).toEqual(['A maximum of 4 blocks with cache_control may be provided. Found 5.']);
  });

  it('rejects a prompt longer than the context window', async () => {
    const server = await start({ script: [{ content: [{ type: 'text', text: 'unused' }] }], contextWindow: 100 });
    await expect(ask(clientFor(server), [userSays('x'.repeat(1000))])).rejects.toBeInstanceOf(BadRequestError);
    expect(server.validationErrors[0]).toMatch(/^prompt is too long: \d+ tokens > 100 maximum$/);
  });

  it('answers 401 without a key or with the wrong one, and accepts x-api-key as well as a bearer key', async () => {
    const server = await start({ script: [{ content: [{ type: 'text', text: 'hi' }] }], requireApiKey: 'right-key' });
    const body = { model: MODEL, max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'hi' }] };
    const raw = await rawPost(server, body, { 'anthropic-version': '2023-06-01' });
    expect(raw.status).toBe(401);
    expect(raw.headers.get('request-id')).toMatch(/^req_/);
    expect(await raw.json()).toMatchObject({
      type: 'error',
      error: { type: 'authentication_error', message: 'x-api-key header is required' },
    });

    await expect(ask(clientFor(server), [userSays('hi')])).rejects.toBeInstanceOf(AuthenticationError);
    expect(server.validationErrors).toEqual(['x-api-key header is required', 'invalid x-api-key']);

    const viaHeader = await rawPost(server, body, { 'anthropic-version': '2023-06-01', 'x-api-key': 'right-key' });
    expect(viaHeader.status).toBe(200);
    expect(viaHeader.headers.get('content-type')).toContain('text/event-stream');
    expect(await viaHeader.text()).toContain('event: message_stop');
  });

  it('rejects sampling parameters under API version 2026-10-21 but not under 2023-06-01', async () => {
    const server = await start({ script: [{ content: [{ type: 'text', text: 'ok' }] }] });
    const body = { model: MODEL, max_tokens: 10, stream: true, temperature: 0.2, messages: [{ role: 'user', content: 'hi' }] };
    const auth = { authorization: 'Bearer k' };
    expect((await rawPost(server, body, { ...auth, 'anthropic-version': '2026-10-21' })).status).toBe(400);
    expect((await rawPost(server, body, { ...auth })).status).toBe(400);
    const legacy = await rawPost(server, body, { ...auth, 'anthropic-version': '2023-06-01' });
    expect(legacy.status).toBe(200);
    await legacy.text();
    expect(server.validationErrors).toEqual([
      expect.stringContaining('temperature: Extra inputs are not permitted'),
      'anthropic-version: header is required',
    ]);
  });
});

describe('prompt-cache simulation', () => {
  const tokensOf = (...blocks: object[]): number => blocks.reduce((sum: number, b) => sum + estimateTokens(b), 0);
  const system = (text: string): Anthropic.TextBlockParam[] => [{ type: 'text', text, cache_control: { type: 'ephemeral' } }];
  const SYSTEM = 'You are a careful coding agent. '.repeat(20);

  it('writes a prefix on the first request and reads it on the next one sharing it', async () => {
    const server = await start({ script: [{ content: [{ type: 'text', text: 'one' }] }, { content: [{ type: 'text', text: 'two' }] }] });
    const client = clientFor(server);
    const prefix = tokensOf(readFile, { type: 'text', text: SYSTEM });

    const first = await ask(client, [userSays('first question')], { system: system(SYSTEM), tools: [readFile] });
    const second = await ask(client, [userSays('a different question')], { system: system(SYSTEM), tools: [readFile] });

    expect(first.usage).toMatchObject({
      cache_creation_input_tokens: prefix,
      cache_read_input_tokens: 0,
      input_tokens: tokensOf({ type: 'text', text: 'first question' }),
    });
    expect(second.usage).toMatchObject({
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: prefix,
      input_tokens: tokensOf({ type: 'text', text: 'a different question' }),
    });
    expect(server.requests[1]?.usage).toEqual({
      input_tokens: second.usage.input_tokens,
      cache_read_input_tokens: prefix,
      cache_creation_input_tokens: 0,
      output_tokens: second.usage.output_tokens,
    });
  });

  it('drops the hit when the system prompt changes', async () => {
    const server = await start({ script: [{ content: [{ type: 'text', text: 'one' }] }, { content: [{ type: 'text', text: 'two' }] }] });
    const client = clientFor(server);
    await ask(client, [userSays('q')], { system: system(SYSTEM), tools: [readFile] });
    const changed = await ask(client, [userSays('q')], { system: system(`${SYSTEM} Today is Tuesday.`), tools: [readFile] });

    expect(changed.usage.cache_read_input_tokens).toBe(0);
    expect(changed.usage.cache_creation_input_tokens).toBe(tokensOf(readFile, { type: 'text', text: `${SYSTEM} Today is Tuesday.` }));
  });

  it('finds the previous breakpoint by lookback when the breakpoint moves to the end of a growing conversation', async () => {
    const server = await start({ script: [{ content: [{ type: 'text', text: 'one' }] }, { content: [{ type: 'text', text: 'two' }] }] });
    const client = clientFor(server);
    const task = { type: 'text' as const, text: 'fix the bug' };
    const call = { type: 'tool_use' as const, id: 'toolu_x', name: 'read_file', input: { path: 'a.ts' } };
    const result = { type: 'tool_result' as const, tool_use_id: 'toolu_x', content: 'export const a = 1;' };

    await ask(client, [{ role: 'user', content: [{ ...task, cache_control: { type: 'ephemeral' } }] }], { system: system(SYSTEM) });
    const next = await ask(
      client,
      [
        { role: 'user', content: [task] },
        { role: 'assistant', content: [call] },
        { role: 'user', content: [{ ...result, cache_control: { type: 'ephemeral' } }] },
      ],
      { system: system(SYSTEM) },
    );

    expect(next.usage).toMatchObject({
      cache_read_input_tokens: tokensOf({ type: 'text', text: SYSTEM }, task),
      cache_creation_input_tokens: tokensOf(call, result),
      input_tokens: 0,
    });
  });
});

describe('failures on the wire', () => {
  it('survives two 529s within SDK maxRetries 2', async () => {
    const overloaded = { kind: 'error', status: 529, type: 'overloaded_error', message: 'Overloaded' } as const;
    const server = await start({ script: [overloaded, overloaded, { content: [{ type: 'text', text: 'finally' }] }] });
    const message = await ask(clientFor(server, 2), [userSays('hi')]);
    expect(message.content).toEqual([{ type: 'text', text: 'finally' }]);
    expect(server.requests.map((r) => r.reply)).toEqual(['error', 'error', 'message']);
  });

  it('makes the SDK honour retry-after on a 429', async () => {
    const server = await start({
      script: [
        { kind: 'error', status: 429, type: 'rate_limit_error', message: 'Rate limited', headers: { 'retry-after': '1' } },
        { content: [{ type: 'text', text: 'ok' }] },
      ],
    });
    const started = Date.now();
    await expect(ask(clientFor(server, 1), [userSays('hi')])).resolves.toMatchObject({ content: [{ type: 'text', text: 'ok' }] });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(server.requests).toHaveLength(2);
  });

  it('passes x-should-retry through so the SDK gives up at once', async () => {
    const server = await start({
      script: [{ kind: 'error', status: 500, type: 'api_error', message: 'nope', headers: { 'x-should-retry': 'false' } }],
    });
    await expect(ask(clientFor(server, 3), [userSays('hi')])).rejects.toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(1);
  });

  it('cuts a 200 stream mid-way so the SDK stream rejects, after reporting the input usage', async () => {
    const server = await start({
      script: [{ kind: 'cut', content: [{ type: 'text', text: 'a long answer that never ends' }], afterEvents: 4 }],
    });
    const stream = clientFor(server).messages.stream({ model: MODEL, max_tokens: 64, messages: [userSays('hi')] });
    let started = false;
    stream.on('streamEvent', (event) => {
      if (event.type === 'message_start') started = true;
    });
    await expect(stream.finalMessage()).rejects.toThrow();
    expect(started).toBe(true);
    expect(server.requests[0]).toMatchObject({ reply: 'cut', usage: { input_tokens: estimateTokens({ type: 'text', text: 'hi' }) } });
  });

  it('answers 500 "script exhausted" once the script runs out', async () => {
    const server = await start({ script: [] });
    await expect(ask(clientFor(server), [userSays('hi')])).rejects.toThrow(/script exhausted/);
    expect(server.requests[0]?.reply).toBe('error');
  });

  it('hangs until the client aborts, and close() still returns promptly', async () => {
    const server = await start({ script: [{ kind: 'hang' }] });
    const controller = new AbortController();
    const pending = ask(clientFor(server), [userSays('hi')], { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
    expect(server.requests[0]?.reply).toBe('hang');

    const other = await start({ script: [{ kind: 'hang' }] });
    const neverAnswered = ask(clientFor(other), [userSays('hi')]).catch((error: unknown) => error);
    while (other.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const closing = Date.now();
    await other.close();
    expect(Date.now() - closing).toBeLessThan(1000);
    expect(await neverAnswered).toBeInstanceOf(Error);
  });
});

describe('system-role messages', () => {
  it('accepts a system message mid-conversation outside the alternation, and rejects one with non-text content', async () => {
    const { startAnthropicServer: start } = await import('../../test-support/anthropic-server.js');
    const { default: Anthropic } = await import('@anthropic-ai/sdk');
    const server = await start({ script: [{ content: [{ type: 'text', text: 'ok' }] }] });
    try {
      const client = new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 });
      const ok = await client.messages
        .stream({
          model: 'm',
          max_tokens: 10,
          messages: [
            { role: 'user', content: 'hi' },
            { role: 'system', content: 'Be brief.' },
            { role: 'assistant', content: 'Sure' },
            { role: 'user', content: 'go' },
          ],
        })
        .finalMessage();
      expect(ok.content).toEqual([expect.objectContaining({ type: 'text', text: 'ok' })]);
      await expect(
        client.messages
          .stream({
            model: 'm',
            max_tokens: 10,
            messages: [
              { role: 'user', content: 'hi' },
              { role: 'system', content: [] },
            ],
          })
          .finalMessage(),
      ).rejects.toThrow(/system messages take non-empty text only/);
    } finally {
      await server.close();
    }
  });
});
