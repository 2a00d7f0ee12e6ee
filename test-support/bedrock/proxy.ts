/**
 * What the Bedrock and Vertex fakes share: they check their provider's wire shape and auth, then
 * hand the request, turned back into a first-party Messages request, to the scripted Anthropic
 * fake, so scripting, validation, caching, usage and SSE rendering are exactly those of that fake.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { startAnthropicServer, type AnthropicServer, type Script } from '../anthropic-server.js';

/** The key between a cloud fake and its inner Anthropic fake; it never leaves the process. */
const INNER_KEY = 'sk-ant-inner-proxy';
/** Bedrock's and Vertex's body versions are the 2023-06-01 Messages API. */
const INNER_VERSION = '2023-06-01';

/** A request as the cloud endpoint saw it. */
export interface CloudRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown> | undefined;
  raw: string;
  /** Why the cloud layer refused it (auth, route, body shape); the inner fake never saw it then. */
  rejection?: string;
}

export class CloudRejection extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errorType: string,
  ) {
    super(message);
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseJsonBody(raw: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(raw);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Checks a cloud body (its version in the body, no `model`; Bedrock takes no `stream` either, as
 * the route decides, while Vertex's streamRawPredict wants `stream: true`) and sends it to the
 * inner fake as a Messages request.
 */
export async function forward(
  inner: AnthropicServer,
  model: string,
  body: Record<string, unknown>,
  want: { version: string; stream: 'absent' | 'true' },
): Promise<Response> {
  const { anthropic_version: bodyVersion, stream, ...rest } = body;
  const fail = (message: string): never => {
    throw new CloudRejection(400, message, 'ValidationException');
  };
  if (bodyVersion !== want.version) fail(`anthropic_version: expected "${want.version}", got ${JSON.stringify(bodyVersion)}`);
  if ('model' in rest) fail('model: the model goes in the path, not the body');
  if (want.stream === 'absent' && stream !== undefined) fail('stream: not accepted in the body; the route decides');
  if (want.stream === 'true' && stream !== true) fail('stream: streamRawPredict needs "stream": true');
  return fetch(`${inner.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': INNER_KEY, 'anthropic-version': INNER_VERSION },
    body: JSON.stringify({ model, stream: true, ...rest }),
  });
}

/** The inner response's headers the client acts on (retry hints, request id). */
export function passHeaders(response: Response): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['retry-after', 'retry-after-ms', 'x-should-retry', 'request-id']) {
    const value = response.headers.get(name);
    if (value !== null) out[name] = value;
  }
  return out;
}

export type CloudHandler = (req: IncomingMessage, res: ServerResponse, record: CloudRequest) => Promise<void>;

export interface CloudServer {
  url: string;
  /** The scripted Anthropic fake behind the cloud layer: its requests, usage and validation errors. */
  inner: AnthropicServer;
  requests: CloudRequest[];
  close(): Promise<void>;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') reject(new Error('fake cloud server has no TCP address'));
      else resolve(address.port);
    });
  });
}

/** An HTTP server that records each request and hands it to `handle`; a handler failure is a 500 or a cut. */
export async function startCloudServer(
  script: Script,
  handle: CloudHandler,
  reject: (res: ServerResponse, error: CloudRejection) => void,
): Promise<CloudServer> {
  const inner = await startAnthropicServer({ script, requireApiKey: INNER_KEY });
  const requests: CloudRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://localhost');
      const record: CloudRequest = {
        method: req.method ?? '?',
        path: url.pathname,
        headers: { ...req.headers },
        body: parseJsonBody(raw),
        raw,
      };
      requests.push(record);
      handle(req, res, record).catch((error: unknown) => {
        if (error instanceof CloudRejection) {
          record.rejection = error.message;
          if (!res.headersSent) return reject(res, error);
        }
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ message: String(error) }));
        else res.destroy();
      });
    });
  });
  const port = await listen(server);
  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    inner,
    requests,
    close() {
      closed ??= (async () => {
        // The inner fake first, so that proxied hangs end and this server's connections drain.
        await inner.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      })();
      return closed;
    },
  };
}

/** Reads an SSE body event by event, as its `data:` JSON texts. */
export async function* sseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = frame
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n');
      if (data !== '') yield data;
    }
  }
}
