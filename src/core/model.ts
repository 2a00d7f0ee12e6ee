import type { Block, Message, ToolUseBlock } from './messages.js';
import type { ToolSpec } from './tools.js';
import type { Usage } from './usage.js';

/** Why a model turn ended, in the loop's words; each adapter maps its provider's reasons. */
export type TurnStop = 'end' | 'tool_use' | 'max_tokens' | 'context_full' | 'pause' | 'refusal';

export interface ModelRequest {
  system: string;
  tools: readonly ToolSpec[];
  messages: readonly Message[];
  maxTokens: number;
  signal: AbortSignal;
  /** Text as it arrives, for live progress. */
  onText?: (delta: string) => void;
  /** The response has begun: the request is out and the model is working. */
  onConnect?: () => void;
  /**
   * A tool_use block is whole while the answer is still streaming: the model has gone on past it,
   * so no output limit can cut it any more. Called once per block, in order, so the caller may
   * start the call early; the block is in the turn's content as well. An adapter that never calls
   * it is still correct: the calls then start once the whole answer is back.
   */
  onToolUse?: (block: ToolUseBlock) => void;
}

export interface ModelTurn {
  content: Block[];
  stop: TurnStop;
  /** The provider's own word for the stop, kept for the transcript. */
  stopReason: string | null;
  usage: Usage;
  /** What this call cost, priced by the adapter. */
  costUsd: number;
  /** The model that answered, as the provider names it. */
  model: string;
}

/** What a call's worst-case cost is reckoned from. */
export type CostQuery = Pick<ModelRequest, 'system' | 'tools' | 'messages' | 'maxTokens'>;

/** One provider's model: request shaping, caching, stop reasons, errors, retries and prices. */
export interface Model {
  readonly id: string;
  send(request: ModelRequest): Promise<ModelTurn>;
  /**
   * The most this request can cost (all of max_tokens written, the input at its dearest rate),
   * reserved against the spend cap before the call starts. Without it the last call's cost stands in.
   */
  worstCaseCostUsd?(request: CostQuery): number;
}

/**
 * `stream`: the response broke after it began (the loop retries it). `fatal`: a request the API
 * will never accept as sent (bad key, unknown model, a spend limit). `exhausted`: retryable errors
 * outlived the retries. `aborted`: cancelled or out of time. `too_long`: the prompt does not fit.
 */
export type ModelErrorKind = 'stream' | 'fatal' | 'exhausted' | 'aborted' | 'too_long';

/** What a failed call was still billed for (a stream cut after it began still costs its input). */
export interface Billed {
  usage: Usage;
  costUsd: number;
}

/** Marks a ModelError whichever copy of this module made it. */
const MODEL_ERROR = Symbol.for('agent-action.ModelError');

export class ModelError extends Error {
  override name = 'ModelError';
  readonly [MODEL_ERROR] = true;

  /**
   * The Bedrock and Vertex adapters are bundled on their own (scripts/build.mjs), each with its
   * copy of this class: `instanceof` recognises the errors of every copy.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && MODEL_ERROR in value;
  }

  constructor(
    message: string,
    readonly kind: ModelErrorKind,
    readonly billed: Billed | null,
    readonly status?: number,
  ) {
    super(message);
  }
}
