import Anthropic, { APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import type { Usage } from '../agent/usage.js';
import { ModelError, type Model, type ModelRequest, type ModelResponse } from './model.js';

export { ModelError, type Model, type ModelErrorKind, type ModelRequest, type ModelResponse, type StopReason } from './model.js';

export interface AnthropicModelOptions {
  model: string;
  apiKey?: string | undefined;
  baseURL?: string | undefined;
  /** Retries of one call on 408/409/429/5xx/529 and dropped connections, done by the SDK. */
  maxRetries: number;
  /** Per-request timeout in ms. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const SPEND_LIMIT = /spend(ing)? limit|credit balance|billing|usage limit|quota/i;

/**
 * A 429 that means "out of money" will not get better by waiting: mark it so the SDK's own retry
 * logic gives up at once instead of backing off five times.
 */
export function spendLimitAwareFetch(inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (response.status !== 429) return response;
    const body = await response.clone().text();
    if (!SPEND_LIMIT.test(body)) return response;
    const headers = new Headers(response.headers);
    headers.set('x-should-retry', 'false');
    return new Response(body, { status: 429, statusText: response.statusText, headers });
  };
}

function usageOf(u: Partial<Anthropic.Usage> | undefined | null): Usage {
  return {
    input_tokens: u?.input_tokens ?? 0,
    output_tokens: u?.output_tokens ?? 0,
    cache_read_input_tokens: u?.cache_read_input_tokens ?? 0,
    cache_creation_input_tokens: u?.cache_creation_input_tokens ?? 0,
  };
}

function apiMessage(error: APIError): string {
  const body = error.error as { error?: { message?: unknown } } | undefined;
  const inner = body?.error?.message;
  return typeof inner === 'string' ? inner : error.message;
}

/** Turns an SDK error into one the loop can act on, with a message that says what to fix. */
export function classifyError(error: unknown, model: string, maxRetries: number, billed: Usage | null): ModelError {
  if (error instanceof ModelError) return error;
  if (error instanceof APIUserAbortError) return new ModelError('the model call was aborted', 'aborted', billed);
  if (error instanceof APIError && typeof error.status === 'number') {
    const status = error.status;
    const detail = apiMessage(error);
    const fatal = (hint: string) => new ModelError(`Anthropic API ${status}: ${detail}. ${hint}`, 'fatal', billed, status);
    if (status === 400) return fatal('The request was rejected as sent; this is a bug or an unsupported setting (check model and limits).');
    if (status === 401) return fatal('Check anthropic-api-key / ANTHROPIC_API_KEY.');
    if (status === 403) return fatal(`Check that the key may use model ${model}.`);
    if (status === 404) return fatal(`Check the model id "${model}" and anthropic-base-url / ANTHROPIC_BASE_URL.`);
    if (status === 413) return fatal('The request is larger than the API accepts; lower the tool output cap or start a new run.');
    if (status === 429 && SPEND_LIMIT.test(detail)) return fatal('The organisation has hit its spend limit; raise it in the Anthropic console.');
    if ([408, 409, 429].includes(status) || status >= 500) {
      return new ModelError(`Anthropic API ${status} after ${maxRetries} retries: ${detail}. Try again later or raise max-retries.`, 'exhausted', billed, status);
    }
    return fatal('Unexpected status.');
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ModelError(`model stream failed: ${message}`, 'stream', billed);
}

export class AnthropicModel implements Model {
  readonly id: string;
  private readonly client: Anthropic;

  constructor(private readonly options: AnthropicModelOptions) {
    this.id = options.model;
    this.client = new Anthropic({
      apiKey: options.apiKey ?? null,
      baseURL: options.baseURL ?? null,
      maxRetries: options.maxRetries,
      timeout: options.timeoutMs ?? 10 * 60_000,
      fetch: spendLimitAwareFetch(options.fetch ?? globalThis.fetch),
    });
  }

  async send(request: ModelRequest): Promise<ModelResponse> {
    // What message_start reported: a stream that breaks later was still billed for it.
    let started: Usage | null = null;
    let connected = false;
    const stream = this.client.messages.stream(
      {
        model: this.id,
        max_tokens: request.maxTokens,
        system: request.system,
        tools: request.tools,
        messages: request.messages,
      },
      { signal: request.signal },
    );
    stream.on('connect', () => {
      connected = true;
      request.onConnect?.();
    });
    stream.on('streamEvent', (event) => {
      if (event.type === 'message_start') started = usageOf(event.message.usage);
    });
    if (request.onText) stream.on('text', request.onText);
    try {
      const message = await stream.finalMessage();
      return { content: message.content, stopReason: message.stop_reason, usage: usageOf(message.usage), model: message.model };
    } catch (error) {
      if (request.signal.aborted) throw new ModelError('the model call was aborted', 'aborted', started);
      const classified = classifyError(error, this.id, this.options.maxRetries, started);
      // A connection that fails before any response is the SDK's to retry; once a 200 arrived the
      // SDK no longer retries, so a break is a stream failure whatever error it surfaced as.
      if (connected && classified.kind !== 'fatal' && classified.status === undefined) {
        return Promise.reject(new ModelError(classified.message, 'stream', started));
      }
      throw classified;
    }
  }
}
