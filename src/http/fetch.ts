/**
 * fetch over node:http and node:https, for the API clients (the model SDKs and Octokit). On Node 20
 * a process that used the global fetch (undici) lingers 100-200 ms after its last response while
 * V8 finishes compiling undici's WebAssembly HTTP parser; over node:http it exits at once. It does
 * what those clients rely on: streamed bodies both ways, AbortSignal, redirects (without the
 * credentials when they leave the origin), gzip/deflate/br, and Node's global agents, which keep
 * connections alive and carry Node's own proxy support where NODE_USE_ENV_PROXY turns it on.
 */
import { request as plainRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { pipeline, Readable } from 'node:stream';
import { abortReason, headerMap, requestBody, responseBody, type HeaderMap, type OutgoingBody } from './body.js';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
const MAX_REDIRECTS = 20;
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];
const ORIGIN_BOUND_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'host'];

interface Outgoing {
  url: URL;
  method: string;
  headers: HeaderMap;
  body: OutgoingBody;
  redirect: NonNullable<RequestInit['redirect']>;
  signal: AbortSignal | undefined;
}

/** What fetch rejects with when the network fails: a TypeError whose cause says what happened. */
function networkError(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

function outgoing(input: string | URL | Request, init: RequestInit): Outgoing {
  const request = typeof input === 'string' || input instanceof URL ? undefined : input;
  const url = new URL(request ? request.url : input);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw networkError(new Error(`unsupported protocol ${url.protocol}`));
  const headers = headerMap(init.headers ?? request?.headers);
  const body = requestBody(init.body !== undefined ? init.body : (request?.body ?? null), headers);
  // The defaults undici's fetch sends; GitHub refuses a request without a user agent.
  if (!headers.has('accept')) headers.set('accept', '*/*');
  if (!headers.has('user-agent')) headers.set('user-agent', 'node');
  if (!headers.has('accept-encoding')) headers.set('accept-encoding', url.protocol === 'https:' ? 'br, gzip, deflate' : 'gzip, deflate');
  return {
    url,
    method: (init.method ?? request?.method ?? 'GET').toUpperCase(),
    headers,
    body,
    redirect: init.redirect ?? request?.redirect ?? 'follow',
    signal: init.signal ?? request?.signal ?? undefined,
  };
}

/** Sends the request; resolves with the response once its head arrived. */
async function send(o: Outgoing): Promise<IncomingMessage> {
  const request = o.url.protocol === 'https:' ? (await import('node:https')).request : plainRequest;
  const headers: OutgoingHttpHeaders = Object.fromEntries(o.headers);
  if (Buffer.isBuffer(o.body)) headers['content-length'] = o.body.length;
  return new Promise((resolve, reject) => {
    const req = request(o.url, { method: o.method, headers });
    const abort = () => req.destroy(o.signal && abortReason(o.signal));
    o.signal?.addEventListener('abort', abort, { once: true });
    const release = () => o.signal?.removeEventListener('abort', abort);
    req.once('response', (res) => {
      release();
      resolve(res);
    });
    req.once('error', (error) => {
      release();
      reject(o.signal?.aborted ? abortReason(o.signal) : networkError(error));
    });
    if (o.body instanceof Readable) pipeline(o.body, req, () => undefined);
    else req.end(o.body ?? undefined);
  });
}

/** The request to make next when the response redirects and fetch would follow; null otherwise. */
function redirected(o: Outgoing, res: IncomingMessage): Outgoing | null {
  const status = res.statusCode ?? 0;
  const location = res.headers.location;
  if (!REDIRECTS.has(status) || location === undefined || o.redirect === 'manual') return null;
  if (o.redirect === 'error') throw networkError(new Error(`redirected to ${location}`));
  const url = new URL(location, o.url);
  const headers = new Map(o.headers);
  let { method, body } = o;
  if ((status === 303 && method !== 'GET' && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST')) {
    method = 'GET';
    body = null;
    for (const name of BODY_HEADERS) headers.delete(name);
  } else if (body instanceof Readable) {
    throw networkError(new Error('a streamed request body cannot follow a redirect'));
  }
  if (url.origin !== o.url.origin) for (const name of ORIGIN_BOUND_HEADERS) headers.delete(name);
  return { ...o, url, method, headers, body };
}

async function respond(o: Outgoing, res: IncomingMessage): Promise<Response> {
  const status = res.statusCode ?? 0;
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  const empty = o.method === 'HEAD' || NULL_BODY.has(status);
  if (empty) res.resume();
  const body = empty ? null : await responseBody(res, o.signal);
  const response = new Response(body, { status, statusText: res.statusMessage ?? '', headers });
  // Octokit reports the address a response came from; the constructor cannot set it.
  Object.defineProperty(response, 'url', { value: o.url.href });
  return response;
}

export const httpFetch: typeof fetch = async (input, init = {}) => {
  let o = outgoing(input, init);
  for (let redirects = 0; ; redirects++) {
    o.signal?.throwIfAborted();
    const res = await send(o);
    let next: Outgoing | null;
    try {
      next = redirected(o, res);
    } catch (error) {
      res.resume();
      throw error;
    }
    if (next === null) return respond(o, res);
    res.resume();
    if (redirects >= MAX_REDIRECTS) throw networkError(new Error(`more than ${MAX_REDIRECTS} redirects`));
    o = next;
  }
};
