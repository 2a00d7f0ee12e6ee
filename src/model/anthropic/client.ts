import type Anthropic from '@anthropic-ai/sdk';
import { BaseAnthropic } from '@anthropic-ai/sdk/client';
import { Messages } from '@anthropic-ai/sdk/resources/messages';
import { ModelError, type Billed, type CostQuery, type Model, type ModelRequest, type ModelTurn } from '../../core/model.js';
import type { Price } from '../../core/usage.js';
import { httpFetch } from '../../http/fetch.js';
import { classifyError, spendLimitAwareFetch } from './errors.js';
import { Billing } from '../billing.js';
import { toMessages, toSystem, toTools } from './request.js';
import { fromContent, fromStopReason, usageOf } from './response.js';
import { StreamedAnswer } from './tool-use.js';
import { clientTiming } from '../provider.js';

export interface AnthropicModelOptions {
  model: string;
  apiKey?: string | undefined;
  baseURL?: string | undefined;
  /** Retries of one call on 408/409/429/5xx/529 and dropped connections, done by the SDK. */
  maxRetries: number;
  /** How long a response may send nothing (headers or events) before the attempt is retried. */
  streamIdleTimeoutMs?: number;
  /** Where the SDK's own messages go, one line each (see sdkLogger). */
  log?: (line: string) => void;
  /** Price overrides by model id prefix, on top of the built-in table. */
  prices?: Readonly<Record<string, Price>>;
  fetch?: typeof fetch;
  /**
   * Another client with the same Messages API (Bedrock's or Vertex's SDK): requests, streaming,
   * errors and retries are then shaped exactly as for the Anthropic API.
   */
  client?: MessagesClient;
  /** Whether the provider runs the API's server tools (web search): false for Bedrock, which has none. Default true. */
  serverTools?: boolean;
}

/** What the adapter needs of a client: the Messages API's streaming call. */
export type MessagesClient = Pick<Anthropic, 'messages'>;

/**
 * The SDK's client with the Messages API alone: the full client also builds files, models, skills,
 * beta and the rest, code a run never calls but would evaluate before its first request.
 */
class MessagesApiClient extends BaseAnthropic {
  messages = new Messages(this);
}

/** Claude through the Anthropic Messages API, streamed. */
export class AnthropicModel implements Model {
  readonly id: string;
  private readonly client: MessagesClient;
  private readonly billing: Billing;

  constructor(private readonly options: AnthropicModelOptions) {
    this.id = options.model;
    this.billing = new Billing(options.model, options.prices);
    this.client =
      options.client ??
      new MessagesApiClient({
        apiKey: options.apiKey ?? null,
        baseURL: options.baseURL ?? null,
        maxRetries: options.maxRetries,
        ...clientTiming(options, spendLimitAwareFetch(options.fetch ?? httpFetch)),
      });
  }

  worstCaseCostUsd(request: CostQuery): number {
    return this.billing.worstCase(request);
  }

  async send(request: ModelRequest): Promise<ModelTurn> {
    // What message_start reported: a stream that breaks later was still billed for it.
    let started: Billed | null = null;
    let connected = false;
    const answer = new StreamedAnswer({ onText: request.onText, onToolUse: request.onToolUse });
    try {
      const params = {
        model: this.id,
        max_tokens: request.maxTokens,
        system: toSystem(request.system),
        tools: toTools(request.tools, this.options.serverTools !== false),
        messages: toMessages(request.messages),
        stream: true as const,
      };
      // The raw events, built into the answer here (see StreamedAnswer), not by the SDK's MessageStream.
      const { data: events } = await this.client.messages.create(params, { signal: request.signal }).withResponse();
      connected = true;
      request.onConnect?.();
      for await (const event of events) {
        answer.add(event);
        if (event.type === 'message_start') started = this.billing.bill(event.message.model || this.id, usageOf(event.message.usage));
      }
      // The SDK ends a stream it aborted quietly.
      if (request.signal.aborted) throw new ModelError('the model call was aborted', 'aborted', started);
      const message = answer.message;
      if (!message || !answer.complete) throw new Error('the stream ended before the answer did');
      const { usage, costUsd } = this.billing.bill(message.model || this.id, usageOf(message.usage));
      const stopReason = message.stop_reason;
      return { content: fromContent(message.content), stop: fromStopReason(stopReason), stopReason, usage, costUsd, model: message.model };
    } catch (error) {
      if (request.signal.aborted) throw new ModelError('the model call was aborted', 'aborted', started);
      const classified = classifyError(error, this.id, this.options.maxRetries, started);
      // A connection that fails before any response is the SDK's to retry; once a 200 arrived the
      // SDK no longer retries, so a break is a stream failure whatever error it surfaced as.
      if (connected && classified.kind !== 'fatal' && classified.kind !== 'too_long' && classified.status === undefined) {
        throw new ModelError(classified.message, 'stream', started);
      }
      throw classified;
    }
  }
}
