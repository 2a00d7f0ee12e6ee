import type Anthropic from '@anthropic-ai/sdk';
import type { Usage } from '../agent/usage.js';

// The model interface and its errors, apart from the SDK client: the loop needs only these, and
// the action loads the SDK while GitHub answers instead of before its first request.

export type StopReason = Anthropic.StopReason;

export interface ModelRequest {
  system: Anthropic.TextBlockParam[];
  tools: Anthropic.Tool[];
  messages: (Anthropic.UserMessageParam | Anthropic.AssistantMessageParam)[];
  maxTokens: number;
  signal: AbortSignal;
  /** Text as it arrives, for live progress. */
  onText?: (delta: string) => void;
  /** The response has begun: the request is out and the model is working. */
  onConnect?: () => void;
}

export interface ModelResponse {
  content: Anthropic.ContentBlock[];
  stopReason: StopReason | null;
  usage: Usage;
  model: string;
}

/** The one thing the loop needs from a model: a streamed Messages call. */
export interface Model {
  readonly id: string;
  send(request: ModelRequest): Promise<ModelResponse>;
}

/**
 * `stream`: the response broke after a 200 (the loop retries it). `fatal`: a request the API will
 * never accept as sent (400/401/403/404/413, a spend limit). `exhausted`: retryable errors outlived
 * the retries. `aborted`: cancelled or out of time.
 */
export type ModelErrorKind = 'stream' | 'fatal' | 'exhausted' | 'aborted';

export class ModelError extends Error {
  override name = 'ModelError';
  constructor(
    message: string,
    readonly kind: ModelErrorKind,
    /** Tokens the failed call was billed for (a stream cut after message_start still costs its input). */
    readonly billed: Usage | null,
    readonly status?: number,
  ) {
    super(message);
  }
}

