import { createServer, type Server, type ServerResponse } from 'node:http';
import { idleTimeoutFetch, StreamIdleError } from '../../src/model/idle-fetch.js';
import { sdkLogger } from '../../src/model/sdk-logger.js';
import { worstCaseCost } from '../../src/model/worst-case.js';
import { priceFor } from '../../src/model/anthropic/prices.js';
import { httpFetch } from '../../src/http/fetch.js';

let server: Server | undefined;
const open: ServerResponse[] = [];
afterEach(async () => {
  for (const res of open.splice(0)) res.destroy();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** A server that sends `first`, then each of `later` after its delay in ms, then holds the response open. */
async function serve(first: string, later: Array<[number, string]> = []): Promise<string> {
  server = createServer((_req, res) => {
    open.push(res);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(first);
    let at = 0;
    for (const [delay, text] of later) setTimeout(() => res.write(text), (at += delay));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '';
}

async function readAll(body: ReadableStream<Uint8Array>, each?: () => Promise<void>): Promise<string> {
  const reader = body.getReader();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += Buffer.from(value).toString();
    if (each) await each();
  }
}

describe('idleTimeoutFetch', () => {
  it('errors the body once the server sends nothing for the idle time, keeping what came before', async () => {
    const url = await serve('event: message_start\n\n');
    const response = await idleTimeoutFetch(httpFetch, 200)(`${url}/v1/messages`);
    expect(response.url).toBe(`${url}/v1/messages`);
    const reader = response.body!.getReader();
    expect(Buffer.from((await reader.read()).value).toString()).toContain('message_start');
    const started = Date.now();
    await expect(reader.read()).rejects.toBeInstanceOf(StreamIdleError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('lets a stream run as long as each wait for the server stays under the idle time', async () => {
    const url = await serve('a', [
      [120, 'b'],
      [120, 'c'],
      [120, 'd'],
    ]);
    const response = await idleTimeoutFetch(httpFetch, 250)(url);
    const reader = response.body!.getReader();
    let text = '';
    while (text.length < 4) text += Buffer.from((await reader.read()).value).toString();
    expect(text).toBe('abcd');
    await reader.cancel();
  });

  it('does not count a slow reader as a silent server', async () => {
    const url = await serve('a', [[10, 'b']]);
    const response = await idleTimeoutFetch(httpFetch, 100)(url);
    const reader = response.body!.getReader();
    await reader.read();
    // The reader dawdles past the idle time; 'b' came while it did.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(Buffer.from((await reader.read()).value).toString()).toBe('b');
    await reader.cancel();
  });

  it('still stops at once when the request is aborted during a wait', async () => {
    const url = await serve('a');
    const stop = new AbortController();
    const response = await idleTimeoutFetch(httpFetch, 60_000)(url, { signal: stop.signal });
    setTimeout(() => stop.abort(), 100);
    const started = Date.now();
    await expect(readAll(response.body!)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('sdkLogger', () => {
  it('hands the SDK lines to the sink, and drops them without one', () => {
    const lines: string[] = [];
    sdkLogger((l) => lines.push(l)).error('Could not parse message into JSON:', '::add-mask::x');
    expect(lines).toEqual(['model client error: Could not parse message into JSON: ::add-mask::x']);
    expect(() => sdkLogger(undefined).error('dropped')).not.toThrow();
  });
});

describe('worstCaseCost', () => {
  it('bounds a call by max_tokens of output and every request byte at the cache-write rate', () => {
    const price = priceFor('claude-sonnet-5-5');
    const request = { system: 's', tools: [], messages: [{ role: 'user' as const, content: 'x'.repeat(10_000) }], maxTokens: 16_000 };
    const cost = worstCaseCost(request, price);
    expect(cost).toBeGreaterThan((16_000 * price.output + 10_000 * price.cacheWrite) / 1e6);
    expect(cost).toBeLessThan((16_000 * price.output + 12_000 * price.cacheWrite) / 1e6);
  });
});
