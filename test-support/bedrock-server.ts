/**
 * A fake Amazon Bedrock runtime for Claude: `POST /model/<id>/invoke-with-response-stream`, signed
 * with SigV4 (checked in full) or a Bedrock API key (`Authorization: Bearer`), with the Bedrock body
 * (`anthropic_version: "bedrock-2023-05-31"`, no `model` or `stream`). The turn itself comes from the
 * scripted Anthropic fake behind it, re-framed as AWS event-stream `chunk` events the way Bedrock sends it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import type { Script } from './anthropic-server.js';
import {
  CloudRejection,
  forward,
  isRecord,
  passHeaders,
  sseData,
  startCloudServer,
  type CloudRequest,
  type CloudServer,
} from './bedrock/proxy.js';
import { verifySigV4, type AwsCredentials } from './bedrock/sigv4.js';

export type { CloudRequest } from './bedrock/proxy.js';
export type { AwsCredentials } from './bedrock/sigv4.js';

export const BEDROCK_VERSION = 'bedrock-2023-05-31';

export interface BedrockServerOptions {
  script: Script;
  /** The region requests must be signed for. Default `us-east-1`. */
  region?: string;
  /** The keys SigV4 signatures are checked against. */
  credentials?: AwsCredentials;
  /** A Bedrock API key accepted as `Authorization: Bearer <key>` instead of a signature. */
  bearerToken?: string;
}

export type BedrockServer = CloudServer;

const ROUTE = /^\/model\/([^/]+)\/invoke-with-response-stream$/;
const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** One Messages SSE event as Bedrock's `chunk` frame: the event's JSON, base64, in `{"bytes": ...}`. */
export function chunkFrame(eventJson: string): Uint8Array {
  return codec.encode({
    headers: {
      ':event-type': { type: 'string', value: 'chunk' },
      ':message-type': { type: 'string', value: 'event' },
      ':content-type': { type: 'string', value: 'application/json' },
    },
    body: fromUtf8(JSON.stringify({ bytes: Buffer.from(eventJson, 'utf8').toString('base64') })),
  });
}

/** Bedrock's error shape: `{"message"}` with the exception named in `x-amzn-ErrorType`. */
function sendAwsError(res: ServerResponse, status: number, type: string, message: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
    ...extra,
  });
  res.end(JSON.stringify({ message }));
}

function awsTypeOf(status: number): string {
  if (status === 429) return 'ThrottlingException';
  if (status === 400 || status === 413) return 'ValidationException';
  if (status === 403) return 'AccessDeniedException';
  if (status === 404) return 'ResourceNotFoundException';
  return status === 503 || status === 529 ? 'ServiceUnavailableException' : 'InternalServerException';
}

async function authenticate(req: IncomingMessage, raw: string, o: BedrockServerOptions): Promise<void> {
  const auth = req.headers.authorization ?? '';
  if (auth.startsWith('Bearer ')) {
    if (o.bearerToken === undefined || auth.slice(7) !== o.bearerToken) {
      throw new CloudRejection(403, 'Invalid API Key format: Must start with pre-defined prefix', 'AccessDeniedException');
    }
    return;
  }
  if (o.credentials === undefined) throw new CloudRejection(403, 'Missing Authentication Token', 'MissingAuthenticationTokenException');
  await verifySigV4(req, raw, o.region ?? 'us-east-1', o.credentials);
}

async function relay(res: ServerResponse, response: Response): Promise<void> {
  if (response.status !== 200 || !response.body) {
    const text = await response.text();
    const envelope: unknown = JSON.parse(text);
    const inner = isRecord(envelope) && isRecord(envelope['error']) ? envelope['error'] : {};
    const message = typeof inner['message'] === 'string' ? inner['message'] : text;
    sendAwsError(res, response.status, awsTypeOf(response.status), message, passHeaders(response));
    return;
  }
  res.writeHead(200, {
    'content-type': 'application/vnd.amazon.eventstream',
    'x-amzn-requestid': passHeaders(response)['request-id'] ?? 'req',
  });
  try {
    for await (const data of sseData(response.body)) res.write(chunkFrame(data));
    res.end();
  } catch {
    // The inner stream was cut (a scripted `cut`, or close()): cut this one the same way.
    res.destroy();
  }
}

export async function startBedrockServer(o: BedrockServerOptions): Promise<BedrockServer> {
  const handle = async (req: IncomingMessage, res: ServerResponse, record: CloudRequest): Promise<void> => {
    const route = ROUTE.exec(record.path);
    if (req.method !== 'POST' || !route)
      throw new CloudRejection(404, `unsupported route: ${record.method} ${record.path}`, 'UnknownOperationException');
    await authenticate(req, record.raw, o);
    if (record.body === undefined)
      throw new CloudRejection(400, 'Malformed input request: body is not a JSON object', 'ValidationException');
    const modelId = decodeURIComponent(route[1] ?? '');
    await relay(res, await forward(server.inner, modelId, record.body, { version: BEDROCK_VERSION, stream: 'absent' }));
  };
  const server = await startCloudServer(o.script, handle, (res, e) => sendAwsError(res, e.status, e.errorType, e.message));
  return server;
}
