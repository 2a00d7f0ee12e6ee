// WebSearch, the Messages API's server-side tool, through a whole run against the scripted
// Anthropic server: what the request offers, the server blocks coming back unchanged in the next
// request, and the searches billed.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LoopSettingsSchema } from '../../src/config/loop-settings.js';
import { AnthropicModel } from '../../src/model/anthropic/index.js';
import { priceFor, WEB_SEARCH_USD_PER_USE } from '../../src/model/anthropic/prices.js';
import { toTools } from '../../src/model/anthropic/request.js';
import { toTools as openaiTools } from '../../src/model/openai/request.js';
import { webSearchOffered } from '../../src/model/registry.js';
import { worstCaseCost } from '../../src/model/worst-case.js';
import { costOf } from '../../src/core/usage.js';
import { runTask } from '../../src/session/run.js';
import type { TaskOptions } from '../../src/session/options.js';
import { webSearchSpec } from '../../src/tools/web-search.js';
import { startAnthropicServer, type AnthropicServer, type Script } from '../../test-support/anthropic-server.js';

const KEY = 'sk-ant-web-search';
const MODEL = 'claude-sonnet-5-5';
let server: AnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(script: Script, o: Partial<TaskOptions> & { allowedTools?: string; disallowedTools?: string } = {}) {
  await server?.close();
  server = await startAnthropicServer({ script, requireApiKey: KEY });
  const cwd = mkdtempSync(join(tmpdir(), 'websearch-'));
  writeFileSync(join(cwd, 'notes.txt'), 'local notes\n');
  const { allowedTools, disallowedTools, ...rest } = o;
  const settings = LoopSettingsSchema.parse({
    ...(allowedTools ? { allowedTools } : {}),
    ...(disallowedTools ? { disallowedTools } : {}),
  });
  const model = new AnthropicModel({ model: MODEL, apiKey: KEY, baseURL: server.url, maxRetries: 0 });
  const messages = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'what is new in node 24?' }] }];
  const result = await runTask({ settings, model, cwd, env: {}, messages, mode: 'cli', signal: new AbortController().signal, ...rest });
  return { result, requests: server.requests };
}

const hits = [
  { url: 'https://nodejs.org/en/blog/release/v24.0.0', title: 'Node.js 24.0.0', page_age: 'May 6, 2025' },
  { url: 'https://example.org/node-24', title: 'What is new' },
];

describe('WebSearch', () => {
  test('the request carries the server tool; its blocks come back unchanged; each search is billed', async () => {
    const { result, requests } = await run(
      [
        {
          content: [
            { type: 'text', text: 'Searching first.' },
            { type: 'web_search', query: 'node 24 release notes', results: hits },
            { type: 'web_search', query: 'node 24 permission model', results: hits.slice(0, 1) },
            { type: 'text', text: 'Now the local notes.' },
            { type: 'tool_use', name: 'Read', input: { file_path: 'notes.txt' } },
          ],
        },
        { content: [{ type: 'text', text: 'Node 24 shipped in May.' }] },
      ],
      { webSearch: true, allowedTools: 'Read,WebFetch,WebSearch' },
    );
    expect(result.conclusion).toBe('success');
    expect(result.result).toBe('Node 24 shipped in May.');
    const tools = requests[0]!.body.tools!;
    expect(tools).toContainEqual({ type: 'web_search_20250305', name: 'web_search', max_uses: 5 });
    expect(tools.map((t) => t.name)).toContain('WebFetch');

    // The second request holds the first answer's server blocks exactly as the server sent them
    // (the server refuses a changed result, so its acceptance checks the content too).
    expect(server!.validationErrors).toEqual([]);
    const assistant = requests[1]!.body.messages[1]!;
    expect(assistant.role).toBe('assistant');
    const blocks = assistant.content as { type: string; [k: string]: unknown }[];
    expect(blocks.map((b) => b.type)).toEqual([
      'text',
      'server_tool_use',
      'web_search_tool_result',
      'server_tool_use',
      'web_search_tool_result',
      'text',
      'tool_use',
    ]);
    const call = blocks[1]!;
    expect(call).toMatchObject({ type: 'server_tool_use', name: 'web_search', input: { query: 'node 24 release notes' } });
    expect(blocks[2]!['tool_use_id']).toBe(call['id']);
    const found = blocks[2]!['content'] as { type: string; url: string; encrypted_content: string }[];
    expect(found.map((r) => r.url)).toEqual(hits.map((h) => h.url));
    expect(found.every((r) => r.type === 'web_search_result' && r.encrypted_content.length > 0)).toBe(true);

    // Two searches: $0.02 on top of the tokens of both calls.
    expect(result.usage.server_tool_use).toEqual({ web_search_requests: 2 });
    const tokens = requests.reduce((sum, r) => sum + costOf({ ...r.usage! }, { ...priceFor(MODEL), webSearch: 0 }), 0);
    expect(result.costUsd).toBeCloseTo(tokens + 2 * WEB_SEARCH_USD_PER_USE, 10);
  });

  test('a changed search result is refused by the server (the round trip is checked, not assumed)', async () => {
    server = await startAnthropicServer({
      script: [
        {
          content: [
            { type: 'web_search', id: 'srvtoolu_x', query: 'q', results: hits },
            { type: 'text', text: 'ok' },
          ],
        },
      ],
      requireApiKey: KEY,
    });
    const model = new AnthropicModel({ model: MODEL, apiKey: KEY, baseURL: server.url, maxRetries: 0 });
    const first = await model.send({
      system: 's',
      tools: [webSearchSpec()],
      messages: [{ role: 'user', content: 'go' }],
      maxTokens: 100,
      signal: new AbortController().signal,
    });
    const result = first.content.find((b) => b.type === 'web_search_tool_result');
    expect(result).toBeDefined();
    const changed = first.content.map((b) => (b.type === 'web_search_tool_result' ? { ...b, content: [] } : b));
    await expect(
      model.send({
        system: 's',
        tools: [webSearchSpec()],
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: changed },
          { role: 'user', content: 'more' },
        ],
        maxTokens: 100,
        signal: new AbortController().signal,
      }),
    ).rejects.toThrow(/sent back as they were returned/);
  });

  test('not offered without the provider, nor when a rule denies it; a rule naming queries offers nothing', async () => {
    const say = { content: [{ type: 'text' as const, text: 'done' }] };
    const names = (r: { requests: AnthropicServer['requests'] }) => (r.requests[0]!.body.tools ?? []).map((t) => t.name);
    const unsupported: string[] = [];
    const elsewhere = await run([say], { allowedTools: 'Read,WebSearch', events: { onNotice: (m) => unsupported.push(m) } });
    expect(names(elsewhere)).toEqual(['Read']);
    expect(unsupported).toContain(
      'WebSearch is not offered: this provider has no server-side web search (the Anthropic API and Vertex AI do)',
    );
    // Billed per search and past the allowlist: not in the default allowed-tools, offered once named.
    expect(names(await run([say], { webSearch: true }))).not.toContain('web_search');
    expect(names(await run([say], { webSearch: true, disallowedTools: 'WebSearch' }))).not.toContain('web_search');
    expect(names(await run([say], { webSearch: true, disallowedTools: 'WebSearch(secret project)' }))).not.toContain('web_search');
    const notices: string[] = [];
    const narrowed = await run([say], {
      webSearch: true,
      allowedTools: 'Read,WebSearch(node)',
      events: { onNotice: (m) => notices.push(m) },
    });
    expect(names(narrowed)).toEqual(['Read']);
    expect(notices.join('\n')).toContain('WebSearch(node) (allowed-tools) offers it nothing');
    expect(names(await run([say], { webSearch: true, allowedTools: 'Read,WebSearch' }))).toEqual(['Read', 'web_search']);
  });

  test('providers: the Anthropic API and Vertex run it, Bedrock and OpenAI-compatible endpoints do not', () => {
    expect(['anthropic', 'vertex', 'bedrock', 'openai'].filter((p) => webSearchOffered(p as never))).toEqual(['anthropic', 'vertex']);
    const specs = [webSearchSpec(), { name: 'Read', description: 'r', readOnly: true, input_schema: { type: 'object' as const } }];
    expect(toTools(specs, false).map((t) => ('name' in t ? t.name : t.type))).toEqual(['Read']);
    expect(openaiTools(specs).map((t) => t.function.name)).toEqual(['Read']);
  });

  test('the spend check reserves the searches a call may make', () => {
    const price = priceFor(MODEL);
    const request = { system: 's', messages: [], maxTokens: 10 };
    const without = worstCaseCost({ ...request, tools: [] }, price);
    const withSearch = worstCaseCost({ ...request, tools: [webSearchSpec()] }, price);
    expect(withSearch - without).toBeGreaterThanOrEqual(5 * WEB_SEARCH_USD_PER_USE);
    expect(priceFor('some-unknown-model').webSearch).toBe(WEB_SEARCH_USD_PER_USE);
    expect(priceFor(MODEL, { [MODEL]: { input: 1, output: 1, cacheRead: 0.1, cacheWrite: 1.25 } }).webSearch).toBe(WEB_SEARCH_USD_PER_USE);
  });
});
