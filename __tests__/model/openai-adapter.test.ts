import { BadRequestError } from 'openai';
import { ModelError } from '../../src/core/model.js';
import { classifyError, openaiModel, parseArguments, toMessages } from '../../src/model/openai/index.js';
import { startOpenAIServer, type OpenAIServer } from '../../test-support/openai-server.js';

let server: OpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const request = (signal = new AbortController().signal) => ({
  system: 's',
  tools: [],
  messages: [{ role: 'user' as const, content: 'hi' }],
  maxTokens: 100,
  signal,
});

async function sendTo(script: Parameters<typeof startOpenAIServer>[0]['script']): Promise<ModelError> {
  server = await startOpenAIServer({ script });
  const model = openaiModel({ model: 'gpt-x', maxRetries: 2, env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'k' } });
  return model.send(request()).then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => {
      if (!(e instanceof ModelError)) throw e;
      return e;
    },
  );
}

describe('OpenAI request shaping', () => {
  it('maps images, tool results, errors and thinking as Chat Completions expects', () => {
    const image = { type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png' as const, data: 'AAAA' } };
    const out = toMessages('sys', [
      { role: 'user', content: [{ type: 'text', text: 'look' }, image] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'hmm', signature: 'x' },
          { type: 'tool_use', id: 'c1', name: 'Read', input: { file_path: 'a' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'c1', content: [{ type: 'text', text: 'seen' }, image], is_error: true },
          { type: 'text', text: 'note' },
        ],
      },
    ]);
    expect(out).toEqual([
      { role: 'system', content: 'sys' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'Read', arguments: '{"file_path":"a"}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'Error: seen\n[image: image/png, 3 bytes]' },
      { role: 'user', content: 'note' },
    ]);
  });

  it('keeps arguments that are not a JSON object as raw text, so tool validation rejects them', () => {
    expect(parseArguments('{"a":1}')).toEqual({ a: 1 });
    expect(parseArguments('')).toEqual({});
    expect(parseArguments('{"a":')).toBe('{"a":');
    expect(parseArguments('[1]')).toBe('[1]');
  });
});

describe('OpenAI error classification', () => {
  it('takes a context-length 400 for too_long and another 400 for fatal', () => {
    const body = { message: "This model's maximum context length is 128000 tokens" };
    const tooLong = new BadRequestError(400, body, undefined, new Headers());
    expect(classifyError(tooLong, 'm', 2, null).kind).toBe('too_long');
    const other = new BadRequestError(400, { message: 'bad tools' }, undefined, new Headers());
    expect(classifyError(other, 'm', 2, null).kind).toBe('fatal');
  });

  it('gives up at once on insufficient_quota, without the client retrying', async () => {
    const e = await sendTo([{ kind: 'error', status: 429, code: 'insufficient_quota', message: 'You exceeded your current quota' }]);
    expect(e.kind).toBe('fatal');
    expect(server!.requests).toHaveLength(1);
  });

  it('reports exhausted after retried 429s', async () => {
    const busy = { kind: 'error' as const, status: 429, message: 'slow down', headers: { 'retry-after-ms': '5' } };
    const e = await sendTo([busy, busy, busy]);
    expect(e.kind).toBe('exhausted');
    expect(server!.requests).toHaveLength(3);
  });

  it('names the endpoint setting on a 404', async () => {
    const e = await sendTo([{ kind: 'error', status: 404, message: 'model not found' }]);
    expect(e.kind).toBe('fatal');
    expect(e.message).toMatch(/OPENAI_BASE_URL/);
  });

  it('reports aborted when the signal fires', async () => {
    server = await startOpenAIServer({ script: [{ text: 'x' }] });
    const model = openaiModel({ model: 'gpt-x', maxRetries: 0, env: {}, openaiBaseURL: server.url });
    const controller = new AbortController();
    controller.abort();
    await expect(model.send(request(controller.signal))).rejects.toMatchObject({ kind: 'aborted' });
  });
});

describe('the fake OpenAI server', () => {
  it('rejects a tool call left unanswered and a tool message with no call', async () => {
    server = await startOpenAIServer({ script: [] });
    const post = (messages: object[]) =>
      fetch(`${server!.url}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', stream: true, messages }) });
    const call = { id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } };
    expect(
      (
        await post([
          { role: 'user', content: 'a' },
          { role: 'assistant', content: null, tool_calls: [call] },
          { role: 'user', content: 'b' },
        ])
      ).status,
    ).toBe(400);
    expect(
      (
        await post([
          { role: 'user', content: 'a' },
          { role: 'tool', tool_call_id: 'zz', content: 'r' },
        ])
      ).status,
    ).toBe(400);
    expect(server.validationErrors).toHaveLength(2);
    expect(server.validationErrors[0]).toMatch(/missing: c1/);
  });
});
