import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { httpFetch } from '../../src/http/fetch.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

const servers: Server[] = [];

/** A loopback server answering with `handler`; resolves with its base URL. */
async function serve(handler: Handler): Promise<string> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => handler(req, res, body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('httpFetch', () => {
  test('sends the method, headers and body, with a length and the defaults fetch adds', async () => {
    let seen: { method?: string; headers?: IncomingMessage['headers']; body?: string } = {};
    const url = await serve((req, res, body) => {
      seen = { method: req.method, headers: req.headers, body };
      res.writeHead(201, 'Made', { 'content-type': 'application/json', 'x-id': '7' }).end('{"ok":true}');
    });
    const response = await httpFetch(`${url}/v1/things`, {
      method: 'post',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k' },
      body: '{"a":1}',
    });
    expect(seen.method).toBe('POST');
    expect(seen.body).toBe('{"a":1}');
    expect(seen.headers).toMatchObject({ 'x-api-key': 'k', 'content-length': '7', 'user-agent': 'node', accept: '*/*' });
    expect([response.status, response.statusText, response.ok, response.headers.get('x-id')]).toEqual([201, 'Made', true, '7']);
    expect(await response.json()).toEqual({ ok: true });
    expect(response.url).toBe(`${url}/v1/things`);
  });

  test('takes headers as a record, as pairs (a repeated name joined as fetch joins it) or as a Headers object', async () => {
    const seen: IncomingMessage['headers'][] = [];
    const url = await serve((req, res) => {
      seen.push(req.headers);
      res.end('ok');
    });
    await httpFetch(url, { headers: { 'X-Mixed-Case': 'a' } });
    await httpFetch(url, {
      headers: [
        ['x-list', 'one'],
        ['X-List', 'two'],
      ],
    });
    await httpFetch(url, { headers: new Headers({ 'x-whatwg': 'w', accept: 'text/plain' }) });
    expect(seen.map((h) => [h['x-mixed-case'], h['x-list'], h['x-whatwg'], h.accept])).toEqual([
      ['a', undefined, undefined, '*/*'],
      [undefined, 'one, two', undefined, '*/*'],
      [undefined, undefined, 'w', 'text/plain'],
    ]);
  });

  test('hands over each chunk of a streamed body as it arrives', async () => {
    let second: () => void = () => undefined;
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: one\n\n');
      second = () => res.end('event: two\n\n');
    });
    const response = await httpFetch(url);
    const reader = response.body!.getReader();
    const decode = (chunk: unknown) => Buffer.from((chunk as Uint8Array | undefined) ?? []).toString();
    expect(decode((await reader.read()).value)).toBe('event: one\n\n');
    second();
    expect(decode((await reader.read()).value)).toBe('event: two\n\n');
    expect((await reader.read()).done).toBe(true);
  });

  test('undoes gzip, and a 204 has no body', async () => {
    const url = await serve((req, res) => {
      if (req.url === '/none') return void res.writeHead(204).end();
      res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('squeezed'));
    });
    expect(await (await httpFetch(`${url}/zip`)).text()).toBe('squeezed');
    const none = await httpFetch(`${url}/none`);
    expect([none.status, none.body]).toEqual([204, null]);
  });

  test('follows redirects, dropping credentials when they leave the origin and the body after a 303', async () => {
    const seen: { url?: string; auth?: string; method?: string; body: string }[] = [];
    const elsewhere = await serve((req, res, body) => {
      seen.push({ url: `elsewhere${req.url}`, auth: req.headers.authorization, method: req.method, body });
      res.end('logs');
    });
    const url = await serve((req, res, body) => {
      seen.push({ url: req.url, auth: req.headers.authorization, method: req.method, body });
      if (req.url === '/moved') return void res.writeHead(302, { location: '/here' }).end();
      if (req.url === '/here') return void res.writeHead(307, { location: `${elsewhere}/blob` }).end();
      if (req.url === '/posted') return void res.writeHead(303, { location: '/done' }).end();
      res.end('done');
    });
    const logs = await httpFetch(`${url}/moved`, { headers: { authorization: 'token t' } });
    expect(await logs.text()).toBe('logs');
    expect(logs.url).toBe(`${elsewhere}/blob`);
    await httpFetch(`${url}/posted`, { method: 'POST', body: 'form', headers: { authorization: 'token t' } });
    expect(seen).toEqual([
      { url: '/moved', auth: 'token t', method: 'GET', body: '' },
      { url: '/here', auth: 'token t', method: 'GET', body: '' },
      { url: 'elsewhere/blob', auth: undefined, method: 'GET', body: '' },
      { url: '/posted', auth: 'token t', method: 'POST', body: 'form' },
      { url: '/done', auth: 'token t', method: 'GET', body: '' },
    ]);
    const manual = await httpFetch(`${url}/moved`, { redirect: 'manual' });
    expect([manual.status, manual.headers.get('location')]).toEqual([302, '/here']);
  });

  test('a refused connection rejects as fetch does: TypeError "fetch failed" with the cause', async () => {
    const url = await serve((_req, res) => res.end());
    const [server] = servers.splice(0);
    await new Promise((resolve) => server!.close(resolve));
    const failure = await httpFetch(url).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as TypeError).message).toBe('fetch failed');
    expect(String((failure as TypeError).cause)).toMatch(/ECONNREFUSED/);
  });

  test('an abort rejects a pending request, and errors a body being read, with the signal reason', async () => {
    const url = await serve((req, res) => {
      if (req.url === '/slow') return; // never answers
      res.writeHead(200).write('partial');
    });
    const early = new AbortController();
    const pending = httpFetch(`${url}/slow`, { signal: early.signal });
    setTimeout(() => early.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });

    const late = new AbortController();
    const response = await httpFetch(`${url}/body`, { signal: late.signal });
    const reader = response.body!.getReader();
    await reader.read();
    late.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
  });

  test('a connection cut in the middle of a body errors it as "terminated"', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('only part', () => res.destroy());
    });
    const response = await httpFetch(url);
    await expect(response.text()).rejects.toThrow('terminated');
  });
});
