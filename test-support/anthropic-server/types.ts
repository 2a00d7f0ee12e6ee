/** The fake's public shapes: the script, the requests it records and the server handle. */

export type StopReason =
  'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'pause_turn' | 'refusal' | 'model_context_window_exceeded';

export type ScriptedBlock =
  | { type: 'text'; text: string }
  /** `id` defaults to `toolu_<n>`, unique for the life of the server. */
  | { type: 'tool_use'; id?: string; name: string; input: unknown }
  /**
   * A `max_tokens` cut inside a tool call: `partialJson` is streamed as `input_json_delta` and never
   * completed (the block is still closed with `content_block_stop`, as the real API does).
   */
  | { type: 'tool_use_partial'; id?: string; name: string; partialJson: string }
  /** `signature` defaults to a base64 digest of the thinking text. */
  | { type: 'thinking'; thinking: string; signature?: string }
  | { type: 'redacted_thinking'; data: string }
  /**
   * One search of the API's own web search tool, as the real API streams it: a `server_tool_use`
   * block (id `srvtoolu_<n>` by default, its input `{ query }` in `input_json_delta`s) and the
   * `web_search_tool_result` block after it, whole in its `content_block_start`. `results` become
   * `web_search_result` entries (encrypted_content made up); `error` makes an error result instead.
   * Each counts one search in `usage.server_tool_use.web_search_requests`.
   */
  | { type: 'web_search'; id?: string; query: string; results?: WebSearchHit[]; error?: string };

export interface WebSearchHit {
  url: string;
  title: string;
  page_age?: string;
}

export interface ScriptedMessage {
  kind?: 'message';
  content: ScriptedBlock[];
  /** Default: `max_tokens` if a `tool_use_partial` is present, else `tool_use` if any tool call, else `end_turn`. */
  stop_reason?: StopReason;
  /** Overrides the estimated output tokens. */
  usage?: Partial<{ output_tokens: number }>;
  /** Wait this long before answering (before the status line). */
  delayMs?: number;
  /** Answer only once this settles (say, once another client did something), before delayMs. */
  waitFor?: Promise<unknown>;
}

export interface ScriptedError {
  kind: 'error';
  status: number;
  /** Error type in the envelope, e.g. `overloaded_error`, `rate_limit_error`, `invalid_request_error`. */
  type: string;
  message: string;
  /** Extra response headers, e.g. `{ 'retry-after': '1' }` or `{ 'x-should-retry': 'false' }`. */
  headers?: Record<string, string>;
}

/** A 200 whose SSE stream breaks: the first `afterEvents` events are sent, then the socket is destroyed. */
export interface ScriptedCut {
  kind: 'cut';
  content: ScriptedBlock[];
  afterEvents: number;
}

/**
 * A 200 whose SSE stream goes quiet: the first `afterEvents` events are sent (1: `message_start`
 * alone), then nothing more, with the connection left open until the client leaves or `server.close()`.
 */
export interface ScriptedSilence {
  kind: 'silent';
  content: ScriptedBlock[];
  afterEvents: number;
}

/**
 * A 200 whose stream carries, after the first `afterEvents` events, one event whose data is not
 * JSON (as a broken proxy might send), then ends. `data` may span lines: each goes out as its own
 * `data:` line, as SSE requires.
 */
export interface ScriptedGarbled {
  kind: 'garbled';
  content: ScriptedBlock[];
  afterEvents: number;
  data: string;
}

/** Accept the request and never answer; the connection is closed by `server.close()`. */
export interface ScriptedHang {
  kind: 'hang';
}

export type ScriptedReply = ScriptedMessage | ScriptedError | ScriptedCut | ScriptedSilence | ScriptedGarbled | ScriptedHang;

/** The replies that stream some events and then fail in their own way. */
export type ScriptedFault = ScriptedCut | ScriptedSilence | ScriptedGarbled;

/**
 * `index` is the position in the script: the number of valid requests before this one. Invalid
 * requests never reach the script.
 */
export type Script = ScriptedReply[] | ((req: RecordedRequest, index: number) => ScriptedReply);

export interface RequestBlock {
  type: string;
  [key: string]: unknown;
}

export interface RequestMessage {
  role: string;
  content: string | RequestBlock[];
}

export interface RequestTool {
  name: string;
  [key: string]: unknown;
}

/**
 * The request body as sent. For a valid request this is exactly the JSON that arrived; for an
 * invalid one, parts that did not have the declared shape are replaced by empty values (the
 * request's `validationError` says what was wrong).
 */
export interface MessagesRequestBody {
  model: string;
  max_tokens: number;
  stream: boolean;
  messages: RequestMessage[];
  system?: string | RequestBlock[];
  tools?: RequestTool[];
  [key: string]: unknown;
}

export interface SimUsage {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  output_tokens: number;
  /** Web searches the reply made, when it made some. */
  server_tool_use?: { web_search_requests: number };
}

export interface RecordedRequest {
  /** Position in `server.requests` (invalid requests included). */
  index: number;
  body: MessagesRequestBody;
  headers: Record<string, string | string[] | undefined>;
  /** Size of the request body in bytes. */
  bytes: number;
  /** `performance.now()` when the whole body had arrived, for start-up and latency figures. */
  receivedAt: number;
  /** `performance.now()` when the last byte of a streamed reply went out, for exit figures. */
  answeredAt?: number;
  /** Set for replies that produced a `message_start` (`message`, `cut`, `silent`, `garbled`). */
  usage?: SimUsage;
  validationError?: string;
  reply: NonNullable<ScriptedReply['kind']> | 'invalid';
}

export interface AnthropicServer {
  /** Base URL for the SDK's `baseURL`, e.g. `http://127.0.0.1:41234`. */
  url: string;
  requests: RecordedRequest[];
  /** Every rejection message, in order (validation failures, auth failures, unsupported routes). */
  validationErrors: string[];
  close(): Promise<void>;
}

/** How fast replies stream, as a real model does; without one every event goes out at once. */
export interface Pace {
  /** From the start of the response (`message_start`) to its first content event. */
  firstTokenMs: number;
  /** Output rate of the content deltas, in the server's tokens (4 characters each). */
  tokensPerSecond: number;
}

export interface AnthropicServerOptions {
  script: Script;
  /** Stream every reply (a cut's events included) at this pace. */
  pace?: Pace;
  /** Input tokens allowed per request. Default 200000. */
  contextWindow?: number;
  /** If set, the key (`x-api-key`, or `Authorization: Bearer` as SDKs since 1.0 send it) must equal it. */
  requireApiKey?: string;
}
