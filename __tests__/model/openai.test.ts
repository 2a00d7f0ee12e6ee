import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoop, type LoopResult } from '../../src/agent/loop.js';
import { openaiModel } from '../../src/model/openai/index.js';
import { Workspace } from '../../src/tools/workspace.js';
import { loopConfig } from '../../test-support/harness.js';
import { startOpenAIServer, type ChatMessage, type OpenAIServer, type Script } from '../../test-support/openai-server.js';

const KEY = 'sk-openai-test-0000';
const PRICE = { input: 1, output: 2, cacheRead: 0.5, cacheWrite: 0 };

interface World {
  server: OpenAIServer;
  dir: string;
  run(): Promise<LoopResult>;
}

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** The real loop and tools, the adapter pointed at the fake; keys and endpoints come through env only. */
async function world(script: Script): Promise<World> {
  const server = await startOpenAIServer({ script, requireApiKey: KEY });
  const dir = await mkdtemp(join(tmpdir(), 'agent-openai-'));
  const workspace = await Workspace.open(dir);
  cleanup = async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  };
  const model = openaiModel({
    model: 'gpt-test-1',
    maxRetries: 2,
    prices: { 'gpt-test': PRICE },
    env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: server.url },
  });
  const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.min(ms, 20)));
  const run = () => runLoop(loopConfig(model, workspace, { sleep }), [{ role: 'user', content: 'do the task' }]);
  return { server, dir, run };
}

const toolMessages = (server: OpenAIServer, index: number): ChatMessage[] =>
  (server.requests[index]?.body.messages ?? []).filter((m) => m.role === 'tool');

describe('the OpenAI-compatible adapter in the real loop', () => {
  it('ends with a direct answer, the system prompt sent first and usage counted', async () => {
    const w = await world([{ text: 'All done.', usage: { prompt_tokens: 1000, completion_tokens: 10 } }]);
    const r = await w.run();
    expect(r.conclusion).toBe('success');
    expect(r.result).toBe('All done.');
    expect(r.usage).toEqual({ input_tokens: 1000, output_tokens: 10, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
    expect(r.costUsd).toBeCloseTo((1000 * 1 + 10 * 2) / 1e6, 12);
    const body = w.server.requests[0]!.body;
    expect(body.messages[0]).toEqual({ role: 'system', content: 'You are a test agent.' });
    expect(body.stream_options).toEqual({ include_usage: true });
    expect(body.max_tokens).toBe(4096);
    expect(body.tools?.every((t) => t.type === 'function' && typeof t.function.parameters === 'object')).toBe(true);
    expect(w.server.validationErrors).toEqual([]);
  });

  it('runs a tool whose arguments arrive in fragments, then answers', async () => {
    const w = await world([
      { text: 'Writing.', toolCalls: [{ id: 'call_w', name: 'Write', arguments: { file_path: 'hello.txt', content: 'hi there\n' } }] },
      { text: 'Wrote it.' },
    ]);
    const r = await w.run();
    expect(r.conclusion).toBe('success');
    expect(r.result).toBe('Wrote it.');
    expect(await readFile(join(w.dir, 'hello.txt'), 'utf8')).toBe('hi there\n');
    const second = w.server.requests[1]!.body.messages;
    const assistant = second.find((m) => m.role === 'assistant');
    expect(assistant?.content).toBe('Writing.');
    expect(assistant?.tool_calls?.[0]).toMatchObject({ id: 'call_w', type: 'function', function: { name: 'Write' } });
    expect(JSON.parse(assistant!.tool_calls![0]!.function.arguments)).toEqual({ file_path: 'hello.txt', content: 'hi there\n' });
    expect(toolMessages(w.server, 1)).toEqual([expect.objectContaining({ tool_call_id: 'call_w' })]);
    expect(w.server.validationErrors).toEqual([]);
  });

  it('runs two parallel calls of one turn and answers both', async () => {
    const w = await world([
      {
        toolCalls: [
          { name: 'Write', arguments: { file_path: 'a.txt', content: 'A' } },
          { name: 'Write', arguments: { file_path: 'b.txt', content: 'B' } },
        ],
      },
      { text: 'Both written.' },
    ]);
    const r = await w.run();
    expect(r.conclusion).toBe('success');
    expect(await readFile(join(w.dir, 'a.txt'), 'utf8')).toBe('A');
    expect(await readFile(join(w.dir, 'b.txt'), 'utf8')).toBe('B');
    const ids = w.server.requests[1]!.body.messages.find((m) => m.role === 'assistant')!.tool_calls!.map((c) => c.id);
    expect(ids).toHaveLength(2);
    expect(toolMessages(w.server, 1).map((m) => m.tool_call_id)).toEqual(ids);
    expect(w.server.validationErrors).toEqual([]);
  });

  it('does not run a call cut by the length limit, and says so to the model', async () => {
    const w = await world([
      { text: 'Starting.', toolCalls: [{ name: 'Write', arguments: '{"file_path": "cut.txt", "cont' }], finish: 'length' },
      { text: 'Gave up.' },
    ]);
    const r = await w.run();
    expect(r.conclusion).toBe('success');
    expect(existsSync(join(w.dir, 'cut.txt'))).toBe(false);
    const second = w.server.requests[1]!.body.messages;
    expect(second.some((m) => m.tool_calls !== undefined)).toBe(false);
    expect(JSON.stringify(second[second.length - 1])).toMatch(/output limit/);
    expect(w.server.validationErrors).toEqual([]);
  });

  it('hands a call with invalid JSON arguments to the tool, which rejects it', async () => {
    const w = await world([{ toolCalls: [{ id: 'call_bad', name: 'Write', arguments: '{"file_path": oops}' }] }, { text: 'Sorry.' }]);
    const r = await w.run();
    expect(r.conclusion).toBe('success');
    const [result] = toolMessages(w.server, 1);
    expect(result?.tool_call_id).toBe('call_bad');
    expect(String(result?.content)).toMatch(/^Error: Invalid input for Write/);
    expect(w.server.validationErrors).toEqual([]);
  });

  it('ends with refusal on content_filter', async () => {
    const w = await world([{ text: 'I cannot', finish: 'content_filter' }]);
    const r = await w.run();
    expect(r.conclusion).toBe('refusal');
  });

  it('survives a 500 retried by the client', async () => {
    const w = await world([{ kind: 'error', status: 500, message: 'boom', headers: { 'retry-after-ms': '10' } }, { text: 'Recovered.' }]);
    const r = await w.run();
    expect(r.conclusion).toBe('success');
    expect(r.result).toBe('Recovered.');
    expect(w.server.requests.map((q) => q.reply)).toEqual(['error', 'turn']);
  });

  it('retries a stream cut after it began', async () => {
    const w = await world([{ kind: 'cut', text: 'Partial answer that will break', afterChunks: 2 }, { text: 'Whole answer.' }]);
    const r = await w.run();
    expect(r.conclusion).toBe('success');
    expect(r.result).toBe('Whole answer.');
    expect(w.server.requests.map((q) => q.reply)).toEqual(['cut', 'turn']);
    // The cut call is billed for its prompt (estimated) on top of the whole one's reported usage.
    expect(r.usage.input_tokens).toBeGreaterThan(w.server.requests[1]!.usage!.prompt_tokens);
  });

  it('counts cached prompt tokens as cache reads, apart from input', async () => {
    const w = await world([{ text: 'Cached.', usage: { prompt_tokens: 5000, completion_tokens: 20, cached_tokens: 4000 } }]);
    const r = await w.run();
    expect(r.usage).toMatchObject({ input_tokens: 1000, cache_read_input_tokens: 4000, output_tokens: 20 });
    expect(r.costUsd).toBeCloseTo((1000 * 1 + 4000 * 0.5 + 20 * 2) / 1e6, 12);
  });

  it('estimates usage when the server sends none', async () => {
    const w = await world([{ text: 'No usage here.', usage: null }]);
    const r = await w.run();
    expect(r.conclusion).toBe('success');
    expect(r.usage.input_tokens).toBeGreaterThan(0);
    expect(r.usage.output_tokens).toBe(Math.ceil('No usage here.'.length / 4));
  });

  it('stops with a fatal error naming the key on a 401', async () => {
    const server = await startOpenAIServer({ script: [], requireApiKey: 'another-key' });
    const dir = await mkdtemp(join(tmpdir(), 'agent-openai-'));
    cleanup = async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    };
    const model = openaiModel({ model: 'gpt-test-1', maxRetries: 2, env: {}, openaiApiKey: KEY, openaiBaseURL: server.url });
    const r = await runLoop(loopConfig(model, await Workspace.open(dir)), [{ role: 'user', content: 'go' }]);
    expect(r.conclusion).toBe('error');
    expect(r.reason).toMatch(/401.*openai-api-key/);
    expect(server.requests).toHaveLength(1);
  });
});
