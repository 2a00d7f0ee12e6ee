/** The HTTP side: routing, admission (auth, validation, context window), the scripted reply, start and close. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { segmentsOf, simulateCache, type Segment } from './cache.js';
import { invalid, Rejection } from './common.js';
import { buildEvents, defaultStopReason, sendError, writeStream } from './render.js';
import { ServerState } from './state.js';
import type { AnthropicServer, AnthropicServerOptions, Pace, RecordedRequest, ScriptedFault, ScriptedMessage } from './types.js';
import { checkHeaders, validateBody } from './validate.js';

interface Admission {
  state: ServerState;
  opts: AnthropicServerOptions;
  contextWindow: number;
}

interface ParsedBody {
  parsed: unknown;
  parseError: string | undefined;
}

function parseBody(raw: Buffer): ParsedBody {
  try {
    return { parsed: JSON.parse(raw.toString('utf8')), parseError: undefined };
  } catch (error) {
    const parseError = `There was an error parsing the body of your request: ${error instanceof Error ? error.message : String(error)}`;
    return { parsed: undefined, parseError };
  }
}

/** The request's cache segments once it is accepted; undefined once it has been answered with a rejection. */
function admit(a: Admission, req: IncomingMessage, res: ServerResponse, record: RecordedRequest, body: ParsedBody): Segment[] | undefined {
  const { parsed, parseError } = body;
  try {
    const version = checkHeaders(req.headers, a.opts.requireApiKey);
    if (parseError !== undefined) invalid(parseError);
    validateBody(parsed, version, a.state.signatures, a.state.searchResults);
    const segments = segmentsOf(record.body);
    const total = segments.reduce((sum, s) => sum + s.tokens, 0);
    if (total > a.contextWindow) invalid(`prompt is too long: ${total} tokens > ${a.contextWindow} maximum`);
    return segments;
  } catch (error) {
    if (!(error instanceof Rejection)) throw error;
    record.validationError = error.message;
    a.state.validationErrors.push(error.message);
    sendError(a.state, res, error.status, error.type, error.message);
    return undefined;
  }
}

async function streamTurn(
  state: ServerState,
  res: ServerResponse,
  record: RecordedRequest,
  reply: ScriptedMessage | ScriptedFault,
  segments: Segment[],
  pace: Pace | undefined,
): Promise<void> {
  const scripted = reply.kind === undefined || reply.kind === 'message' ? reply : undefined;
  const stopReason = scripted?.stop_reason ?? defaultStopReason(reply.content);
  const outputOverride = scripted?.usage?.output_tokens;
  // Caching happens once the request is accepted, so a stream cut later still wrote its entries.
  const cacheResult = simulateCache(record.body.model, segments, state.cache);
  const model = record.body.model;
  const { events, usage } = buildEvents(state, { model, content: reply.content, stopReason, outputOverride, cacheResult });
  record.usage = usage;

  if (scripted?.waitFor) await scripted.waitFor.catch(() => undefined);
  if (scripted?.delayMs !== undefined && scripted.delayMs > 0) await state.sleep(scripted.delayMs);
  if (state.closing || res.destroyed) return;
  res.once('finish', () => (record.answeredAt = performance.now()));
  await writeStream(state, res, events, scripted ? undefined : (reply as ScriptedFault), pace);
}

async function handle(a: Admission, req: IncomingMessage, res: ServerResponse, raw: Buffer, arrivedAt: number): Promise<void> {
  const { state } = a;
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (req.method !== 'POST' || url.pathname !== '/v1/messages') {
    const message = `unsupported route: ${req.method ?? '?'} ${url.pathname}`;
    state.validationErrors.push(message);
    sendError(state, res, 404, 'not_found_error', message);
    return;
  }

  const body = parseBody(raw);
  const record = state.record(req.headers, raw, body.parsed, arrivedAt);
  const segments = admit(a, req, res, record, body);
  if (segments === undefined) return;

  const reply = state.pickReply(record);
  if (reply instanceof Rejection) {
    record.reply = 'error';
    sendError(state, res, reply.status, reply.type, reply.message);
    return;
  }
  record.reply = reply.kind ?? 'message';
  switch (reply.kind) {
    case 'error':
      sendError(state, res, reply.status, reply.type, reply.message, reply.headers);
      return;
    case 'hang':
      return;
    case 'cut':
    case 'silent':
    case 'garbled':
    case 'message':
    case undefined:
      await streamTurn(state, res, record, reply, segments, a.opts.pace);
      return;
  }
}

export async function startAnthropicServer(opts: AnthropicServerOptions): Promise<AnthropicServer> {
  const state = new ServerState(opts.script);
  const admission: Admission = { state, opts, contextWindow: opts.contextWindow ?? 200_000 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      // Before the fake parses the body: what it spends on that is its own work, not the client's.
      const arrivedAt = performance.now();
      handle(admission, req, res, Buffer.concat(chunks), arrivedAt).catch((error: unknown) => {
        const message = `fake server failure: ${error instanceof Error ? error.message : String(error)}`;
        state.validationErrors.push(message);
        if (!res.headersSent) sendError(state, res, 500, 'api_error', message);
        else res.destroy();
      });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fake Anthropic server has no TCP address');

  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests: state.requests,
    validationErrors: state.validationErrors,
    close(): Promise<void> {
      closed ??= new Promise<void>((resolve) => {
        state.closing = true;
        state.wakeAll();
        server.close(() => resolve());
        // Keep-alive and hanging connections would otherwise hold close() open.
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
