// server-everything over stdio, started the way a `.mcp.json` entry would start it.
import path from 'node:path';
import { startMcpServers, type McpToolSet, type ResolvedServer } from '../../../src/tools/mcp/index.js';
import { outcomeText, type ToolOutcome } from '../../../src/core/tools.js';

const EVERYTHING = path.join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const SECRET = 'sk-ant-test-0123456789-secret';
const logs: string[] = [];
let tools: McpToolSet;

const server: ResolvedServer = {
  name: 'everything',
  source: '.mcp.json',
  type: 'stdio',
  command: 'node',
  args: [EVERYTHING, 'stdio'],
  env: { CONFIGURED_FOR_SERVER: 'from-config' },
};

function call(name: string, input: unknown = {}, signal = new AbortController().signal): Promise<ToolOutcome> {
  return tools.execute({ id: 'call-1', name, input }, signal);
}

beforeAll(async () => {
  const env = { ...process.env, ANTHROPIC_API_KEY: SECRET, MY_SERVICE_TOKEN: SECRET, MCP_TOOL_TIMEOUT: '1500' };
  tools = await startMcpServers([server], { env, log: (m) => logs.push(m), outputLimit: 5000, cwd: process.cwd() });
});

afterAll(async () => {
  await tools.close();
});

describe('server-everything over stdio', () => {
  it('offers its tools as mcp__everything__<tool> with descriptions and object schemas', () => {
    expect(tools.failures).toEqual([]);
    const names = tools.specs().map((s) => s.name);
    const expected = ['mcp__everything__echo', 'mcp__everything__get-sum', 'mcp__everything__get-tiny-image'];
    expect(names).toEqual(expect.arrayContaining(expected));
    const echo = tools.specs().find((s) => s.name === 'mcp__everything__echo');
    expect(echo?.description).toMatch(/echo/i);
    expect(echo?.input_schema).toMatchObject({ type: 'object', properties: { message: { type: 'string' } } });
    for (const spec of tools.specs()) expect(spec.input_schema.type).toBe('object');
    expect(logs).toContain('MCP server "everything": ' + `${names.length} tool(s), offered as mcp__everything__<tool>`);
  });

  it('lists its tools again when it announces a change (it does once initialized)', async () => {
    const deadline = Date.now() + 3000;
    while (!logs.some((line) => line.includes('tool list changed')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(logs).toContainEqual(expect.stringMatching(/^MCP server "everything": tool list changed; now \d+ tool\(s\)/));
    expect(tools.specs().map((s) => s.name)).toContain('mcp__everything__echo');
  });

  it('leaves out tools that can only be called as tasks', () => {
    expect(tools.specs().map((s) => s.name)).not.toContain('mcp__everything__simulate-research-query');
    expect(logs.join('\n')).toMatch(/left out .*simulate-research-query/);
  });

  it('reads read-only from the readOnlyHint annotation only', () => {
    expect(tools.isReadOnly('mcp__everything__echo')).toBe(true);
    expect(tools.isReadOnly('mcp__everything__toggle-simulated-logging')).toBe(false);
    expect(tools.isReadOnly('mcp__everything__nope')).toBe(false);
    expect(tools.specs().find((s) => s.name === 'mcp__everything__get-sum')?.readOnly).toBe(true);
  });
});

describe('calls to server-everything over stdio', () => {
  it('calls tools and gives their text', async () => {
    expect(await call('mcp__everything__echo', { message: 'hello there' })).toEqual({ content: 'Echo: hello there', isError: false });
    const sum = await call('mcp__everything__get-sum', { a: 2, b: 40 });
    expect(sum.isError).toBe(false);
    expect(outcomeText(sum)).toContain('42');
  });

  it('turns an image result into an image block between its texts', async () => {
    const outcome = await call('mcp__everything__get-tiny-image');
    expect(outcome.isError).toBe(false);
    if (!Array.isArray(outcome.content)) throw new Error('expected blocks');
    expect(outcome.content.map((b) => b.type)).toEqual(['text', 'image', 'text']);
    const image = outcome.content[1];
    expect(image?.type === 'image' && image.source.media_type).toBe('image/png');
    expect(image?.type === 'image' && image.source.data).toMatch(/^iVBORw0KGgo/);
  });

  it('gives an embedded resource as its text and resource links as lines', async () => {
    const reference = outcomeText(await call('mcp__everything__get-resource-reference', { resourceType: 'Text', resourceId: 2 }));
    expect(reference).toMatch(/Resource 2/);
    expect(reference.split('\n')).toContainEqual(expect.stringMatching(/^Resource 2: This is a plaintext resource created at /));
    const blob = outcomeText(await call('mcp__everything__get-resource-reference', { resourceType: 'Blob', resourceId: 1 }));
    // Its blob is base64 of text/plain: decoded, not just noted.
    expect(blob.split('\n')).toContainEqual(expect.stringMatching(/^Resource 1: This is a base64 blob created at /));
    const links = outcomeText(await call('mcp__everything__get-resource-links', { count: 2 }));
    expect(links.split('\n').filter((line) => line.startsWith('Resource link: '))).toHaveLength(2);
  });

  it('reports invalid input as an is_error result, not a throw', async () => {
    const outcome = await call('mcp__everything__get-sum', { a: 'two' });
    expect(outcome.isError).toBe(true);
    expect(await call('mcp__everything__echo', 'not an object')).toEqual({
      content: 'MCP server "everything": the input of echo must be a JSON object',
      isError: true,
    });
  });

  it('gives the server its configured env and the allowlist, never the secrets of the injected env', async () => {
    const printed = outcomeText(await call('mcp__everything__get-env'));
    const env = JSON.parse(printed) as Record<string, string>;
    expect(env.CONFIGURED_FOR_SERVER).toBe('from-config');
    expect(env.PATH).toBe(process.env.PATH);
    expect(env.ANTHROPIC_API_KEY).toBeUndefined();
    expect(env.MY_SERVICE_TOKEN).toBeUndefined();
    expect(printed).not.toContain(SECRET);
    expect(env.MCP_TOOL_TIMEOUT).toBeUndefined();
  });
});

describe('failures and limits of calls to server-everything over stdio', () => {
  it('names the server for an unknown tool', async () => {
    const outcome = await call('mcp__everything__does-not-exist');
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toMatch(
      /^MCP server "everything" has no tool mcp__everything__does-not-exist; its tools: mcp__everything__echo, /,
    );
    expect(await call('mcp__other__x')).toEqual({ content: 'No MCP tool is named mcp__other__x', isError: true });
  });

  it('times out a call after MCP_TOOL_TIMEOUT ms with an is_error result, and the server still works', async () => {
    const started = Date.now();
    const outcome = await call('mcp__everything__trigger-long-running-operation', { duration: 10, steps: 2 });
    expect(Date.now() - started).toBeLessThan(4000);
    expect(outcome).toEqual({
      content:
        'MCP server "everything": trigger-long-running-operation timed out after 1500 ms (MCP_TOOL_TIMEOUT); ' + 'the call was cancelled',
      isError: true,
    });
    expect((await call('mcp__everything__echo', { message: 'still here' })).content).toBe('Echo: still here');
  });

  it('cancels a call when the signal aborts', async () => {
    const controller = new AbortController();
    const pending = call('mcp__everything__trigger-long-running-operation', { duration: 10, steps: 2 }, controller.signal);
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    expect(await pending).toEqual({ content: 'MCP server "everything": trigger-long-running-operation was cancelled', isError: true });
    expect(Date.now() - started).toBeLessThan(1000);
    const aborted = await call('mcp__everything__echo', { message: 'x' }, AbortSignal.abort());
    expect(aborted).toEqual({ content: 'MCP server "everything": echo was cancelled before it started', isError: true });
  });
});
