/** The HTTP side: routing, auth, validation, the scripted reply as SSE chunks, start and close. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type {
  ChatRequestBody,
  OpenAIServer,
  OpenAIServerOptions,
  RecordedRequest,
  ScriptedCut,
  ScriptedSilence,
  ScriptedReply,
  ScriptedTurn,
} from './types.js';
import { validateBody } from './validate.js';

interface State {
  opts: OpenAIServerOptions;
  requests: RecordedRequest[];
  validationErrors: string[];
  valid: number;
  nextId: number;
}

function sendError(res: ServerResponse, status: number, message: string, code: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ error: { message, type: code, param: null, code } });
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
}

/** Split into up to `pieces` non-empty parts, so that a client must join fragments. */
function split(text: string, pieces: number): string[] {
  const chars = Array.from(text);
  const size = Math.max(1, Math.ceil(chars.length / pieces));
  const parts: string[] = [];
  for (let i = 0; i < chars.length; i += size) parts.push(chars.slice(i, i + size).join(''));
  return parts;
}

const estimate = (chars: number): number => Math.max(1, Math.ceil(chars / 4));

type Turn = Omit<ScriptedTurn, 'kind'>;

/** The data lines of a turn: role, text pieces, each call's fragments, the finish, then usage if asked. */
function buildChunks(state: State, record: RecordedRequest, turn: Turn): object[] {
  const id = `chatcmpl-${record.index}`;
  const { model } = record.body;
  const base = { id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model };
  const choice = (delta: object, finish: string | null = null) => ({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  const chunks: object[] = [choice({ role: 'assistant', content: '' })];
  for (const piece of split(turn.text ?? '', 3)) chunks.push(choice({ content: piece }));
  let outChars = (turn.text ?? '').length;
  for (const [index, call] of (turn.toolCalls ?? []).entries()) {
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
    outChars += args.length + call.name.length;
    const callId = call.id ?? `call_${state.nextId++}`;
    chunks.push(choice({ tool_calls: [{ index, id: callId, type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const piece of split(args, 4)) chunks.push(choice({ tool_calls: [{ index, function: { arguments: piece } }] }));
  }
  const finish = turn.finish ?? ((turn.toolCalls ?? []).length > 0 ? 'tool_calls' : 'stop');
  chunks.push(choice({}, finish));
  const promptTokens = turn.usage?.prompt_tokens ?? estimate(JSON.stringify(record.body.messages).length);
  const cached = Math.min(turn.usage?.cached_tokens ?? 0, promptTokens);
  const completion = turn.usage?.completion_tokens ?? estimate(outChars);
  record.usage = { prompt_tokens: promptTokens, completion_tokens: completion, cached_tokens: cached };
  if (record.body.stream_options?.include_usage === true && turn.usage !== null) {
    const usage = {
      prompt_tokens: promptTokens,
      completion_tokens: completion,
      total_tokens: promptTokens + completion,
      prompt_tokens_details: { cached_tokens: cached },
    };
    chunks.push({ ...base, choices: [], usage });
  }
  return chunks;
}

function stream(res: ServerResponse, chunks: object[], cut: ScriptedCut | ScriptedSilence | undefined): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const sent = cut ? chunks.slice(0, cut.afterChunks) : chunks;
  for (const chunk of sent) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
  // A silence keeps the connection open, sending nothing more, until the client leaves or the server closes.
  if (cut?.kind === 'silent') return;
  // A cut is a broken connection, not a clean end: the client must see the stream fail.
  if (cut) {
    setTimeout(() => res.destroy(), 5);
    return;
  }
  res.end('data: [DONE]\n\n');
}

function pick(state: State, record: RecordedRequest): ScriptedReply | undefined {
  const { script } = state.opts;
  const index = state.valid++;
  return typeof script === 'function' ? script(record, index) : script[index];
}

function authorised(state: State, req: IncomingMessage): boolean {
  const key = state.opts.requireApiKey;
  return key === undefined || req.headers.authorization === `Bearer ${key}`;
}

function reject(state: State, res: ServerResponse, record: RecordedRequest | undefined, status: number, message: string): void {
  state.validationErrors.push(message);
  if (record) {
    record.validationError = message;
    record.reply = 'invalid';
  }
  sendError(res, status, message, status === 401 ? 'invalid_api_key' : 'invalid_request_error');
}

function parse(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
}

function handle(state: State, req: IncomingMessage, res: ServerResponse, raw: Buffer): void {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  if (req.method !== 'POST' || (path !== '/v1/chat/completions' && path !== '/chat/completions')) {
    return reject(state, res, undefined, 404, `unsupported route: ${req.method ?? '?'} ${path}`);
  }
  const parsed = parse(raw);
  const body = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as ChatRequestBody;
  const record: RecordedRequest = { index: state.requests.length, body, headers: req.headers, reply: 'turn' };
  state.requests.push(record);
  if (!authorised(state, req)) return reject(state, res, record, 401, 'Incorrect API key provided.');
  const invalid = parsed === undefined ? 'the body is not valid JSON' : validateBody(parsed);
  if (invalid !== undefined) return reject(state, res, record, 400, invalid);

  const reply = pick(state, record);
  if (reply === undefined) {
    record.reply = 'error';
    state.validationErrors.push(`the script has no reply for request ${record.index}`);
    return sendError(res, 500, 'script exhausted', 'server_error', { 'x-should-retry': 'false' });
  }
  if (reply.kind === 'error') {
    record.reply = 'error';
    return sendError(res, reply.status, reply.message ?? `scripted ${reply.status}`, reply.code ?? 'server_error', reply.headers);
  }
  record.reply = reply.kind ?? 'turn';
  stream(res, buildChunks(state, record, reply), reply.kind === 'cut' || reply.kind === 'silent' ? reply : undefined);
}

/** A scripted OpenAI-compatible Chat Completions server on 127.0.0.1. */
export async function startOpenAIServer(opts: OpenAIServerOptions): Promise<OpenAIServer> {
  const state: State = { opts, requests: [], validationErrors: [], valid: 0, nextId: 1 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        handle(state, req, res, Buffer.concat(chunks));
      } catch (error) {
        const message = `fake server failure: ${error instanceof Error ? error.message : String(error)}`;
        state.validationErrors.push(message);
        if (!res.headersSent) sendError(res, 500, message, 'server_error');
        else res.destroy();
      }
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
  if (address === null || typeof address === 'string') throw new Error('fake OpenAI server has no TCP address');
  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${address.port}/v1`,
    requests: state.requests,
    validationErrors: state.validationErrors,
    close(): Promise<void> {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive connections would otherwise hold close() open.
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
