/** The fake's public shapes: the script, the requests it records and the server handle. */

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter';

export interface ScriptedToolCall {
  /** Default `call_<n>`, unique for the life of the server. */
  id?: string;
  name: string;
  /** An object is sent as its JSON; a string is sent as is (a call cut by `length`, or invalid JSON). */
  arguments: object | string;
}

export interface ScriptedUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  cached_tokens?: number;
}

export interface ScriptedTurn {
  kind?: 'turn';
  text?: string;
  toolCalls?: ScriptedToolCall[];
  /** Default: `tool_calls` when there are calls, else `stop`. */
  finish?: FinishReason;
  /** Overrides the estimated counts; `null` sends no usage chunk even when asked for. */
  usage?: ScriptedUsage | null;
}

/** A status and an error envelope before any stream; the client retries 408/409/429/5xx itself. */
export interface ScriptedError {
  kind: 'error';
  status: number;
  message?: string;
  /** `error.type` / `error.code` in the envelope, e.g. `insufficient_quota`, `context_length_exceeded`. */
  code?: string;
  headers?: Record<string, string>;
}

/** A 200 whose stream breaks: `afterChunks` data lines are sent, then the socket is destroyed. */
export interface ScriptedCut extends Omit<ScriptedTurn, 'kind'> {
  kind: 'cut';
  afterChunks: number;
}

/** A 200 whose stream goes quiet: `afterChunks` data lines are sent, then nothing, the connection left open. */
export interface ScriptedSilence extends Omit<ScriptedTurn, 'kind'> {
  kind: 'silent';
  afterChunks: number;
}

export type ScriptedReply = ScriptedTurn | ScriptedError | ScriptedCut | ScriptedSilence;

/** `index` counts the valid requests before this one; invalid requests never reach the script. */
export type Script = ScriptedReply[] | ((req: RecordedRequest, index: number) => ScriptedReply);

export interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
  [key: string]: unknown;
}

export interface ChatRequestBody {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  tools?: { type: string; function: { name: string; description?: string; parameters: Record<string, unknown> } }[];
  max_tokens?: number;
  max_completion_tokens?: number;
  [key: string]: unknown;
}

export interface RecordedRequest {
  index: number;
  /** The JSON as it arrived (unchecked when `validationError` is set). */
  body: ChatRequestBody;
  headers: Record<string, string | string[] | undefined>;
  validationError?: string;
  reply: 'turn' | 'error' | 'cut' | 'silent' | 'invalid';
  /** The usage the server reported (or would have, for a cut). */
  usage?: { prompt_tokens: number; completion_tokens: number; cached_tokens: number };
}

export interface OpenAIServer {
  /** Base URL for the client's `baseURL`, e.g. `http://127.0.0.1:41234/v1`. */
  url: string;
  requests: RecordedRequest[];
  /** Every rejection message, in order (validation failures, auth failures, unsupported routes). */
  validationErrors: string[];
  close(): Promise<void>;
}

export interface OpenAIServerOptions {
  script: Script;
  /** If set, `Authorization: Bearer <key>` must carry it. */
  requireApiKey?: string;
}
