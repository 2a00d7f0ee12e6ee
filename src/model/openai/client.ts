import OpenAI from 'openai';
import { ModelError, type CostQuery, type Model, type ModelRequest, type ModelTurn } from '../../core/model.js';
import { httpFetch } from '../../http/fetch.js';
import { Billing } from '../billing.js';
import { clientTiming, type ProviderOptions } from '../provider.js';
import { classifyError, quotaAwareFetch } from './errors.js';
import { toMessages, toTools } from './request.js';
import { estimateUsage, fromFinishReason, TurnAccumulator, usageOf } from './response.js';

type StreamingParams = OpenAI.Chat.ChatCompletionCreateParamsStreaming;

/** What the adapter needs of a client: the streaming Chat Completions call. */
export type ChatClient = Pick<OpenAI, 'chat'>;

export interface OpenAIModelOptions extends ProviderOptions {
  /** A ready client (tests, proxies); otherwise one is built from the key and endpoint. */
  client?: ChatClient;
}

/**
 * OpenAI's own API wants `max_completion_tokens` (its reasoning models reject `max_tokens`), while
 * many compatible servers know only `max_tokens`; the endpoint decides which one is sent.
 */
function isOfficial(baseURL: string | undefined): boolean {
  if (baseURL === undefined) return true;
  try {
    return new URL(baseURL).hostname === 'api.openai.com';
  } catch {
    return false;
  }
}

/** A model behind an OpenAI-compatible Chat Completions endpoint, streamed. */
export class OpenAIModel implements Model {
  readonly id: string;
  private readonly client: ChatClient;
  private readonly official: boolean;
  private readonly billing: Billing;

  constructor(private readonly options: OpenAIModelOptions) {
    this.id = options.model;
    this.billing = new Billing(options.model, options.prices);
    // Empty inputs mean unset, as an action's defaults are.
    const baseURL = options.openaiBaseURL || options.env['OPENAI_BASE_URL'] || undefined;
    this.official = isOfficial(baseURL);
    this.client =
      options.client ??
      new OpenAI({
        // The client refuses to start without a key (and would read process.env for one); a local
        // server may need none, and the real API answers a placeholder with a 401 whose hint names the setting.
        apiKey: options.openaiApiKey || options.env['OPENAI_API_KEY'] || 'no-key-set',
        baseURL: baseURL ?? null,
        // Given explicitly so the client reads them from the injected environment, not process.env.
        adminAPIKey: null,
        organization: options.env['OPENAI_ORG_ID'] || null,
        project: options.env['OPENAI_PROJECT_ID'] || null,
        webhookSecret: null,
        maxRetries: options.maxRetries,
        ...clientTiming(options, quotaAwareFetch(options.fetch ?? httpFetch)),
      });
  }

  worstCaseCostUsd(request: CostQuery): number {
    return this.billing.worstCase(request);
  }

  private params(request: ModelRequest): StreamingParams {
    const tools = toTools(request.tools);
    return {
      model: this.id,
      messages: toMessages(request.system, request.messages),
      ...(tools.length > 0 ? { tools } : {}),
      stream: true,
      stream_options: { include_usage: true },
      ...(this.official ? { max_completion_tokens: request.maxTokens } : { max_tokens: request.maxTokens }),
    };
  }

  async send(request: ModelRequest): Promise<ModelTurn> {
    const params = this.params(request);
    const requestChars = JSON.stringify(params.messages).length + JSON.stringify(params.tools ?? []).length;
    const acc = new TurnAccumulator();
    let connected = false;
    try {
      const stream = await this.client.chat.completions.create(params, { signal: request.signal });
      connected = true;
      request.onConnect?.();
      for await (const chunk of stream) {
        const text = acc.add(chunk);
        if (text.length > 0) request.onText?.(text);
      }
    } catch (error) {
      throw this.failure(error, request.signal, connected, requestChars, acc);
    }
    const model = acc.model ?? this.id;
    const content = acc.content();
    const usage = acc.usage ? usageOf(acc.usage) : estimateUsage(requestChars, acc);
    const { costUsd } = this.billing.bill(model, usage);
    const stop = fromFinishReason(
      acc.finish,
      content.some((b) => b.type === 'tool_use'),
    );
    return { content, stop, stopReason: acc.finish, usage, costUsd, model };
  }

  private failure(error: unknown, signal: AbortSignal, connected: boolean, requestChars: number, acc: TurnAccumulator): ModelError {
    // Once the response began the prompt was read, and is billed; only an estimate is known then.
    const billed = connected ? this.billing.bill(acc.model ?? this.id, { ...estimateUsage(requestChars, acc), output_tokens: 0 }) : null;
    if (signal.aborted) return new ModelError('the model call was aborted', 'aborted', billed);
    const classified = classifyError(error, this.id, this.options.maxRetries, billed);
    // Before the response the client retries by itself; once a 200 arrived it no longer does, so
    // a break is a stream failure whatever error it surfaced as, and the loop retries it.
    if (connected && classified.kind !== 'fatal' && classified.kind !== 'too_long' && classified.status === undefined) {
      return new ModelError(classified.message, 'stream', billed);
    }
    return classified;
  }
}

/** The OpenAI-compatible provider's model. */
export function openaiModel(o: OpenAIModelOptions): Model {
  return new OpenAIModel(o);
}
