import { APIError, APIUserAbortError } from '@anthropic-ai/sdk/error';
import { ModelError, type Billed } from '../../core/model.js';

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

function apiMessage(error: { error?: unknown; message: string }): string {
  const body = error.error as { error?: { message?: unknown } } | undefined;
  const inner = body?.error?.message;
  return typeof inner === 'string' ? inner : error.message;
}

function hintFor(status: number, detail: string, model: string): string {
  switch (status) {
    case 400:
      return 'The request was rejected as sent; this is a bug or an unsupported setting (check model and limits).';
    case 401:
      return 'Check anthropic-api-key / ANTHROPIC_API_KEY.';
    case 403:
      return `Check that the key may use model ${model}.`;
    case 404:
      return `Check the model id "${model}" and anthropic-base-url / ANTHROPIC_BASE_URL.`;
    case 413:
      return 'The request is larger than the API accepts; lower the tool output cap or start a new run.';
    default:
      return status === 429 && SPEND_LIMIT.test(detail)
        ? 'The organisation has hit its spend limit; raise it in the Anthropic console.'
        : 'Unexpected status.';
  }
}

/** Turns an SDK error into one the loop can act on, with a message that says what to fix. */
export function classifyError(error: unknown, model: string, maxRetries: number, billed: Billed | null): ModelError {
  if (error instanceof ModelError) return error;
  if (error instanceof APIUserAbortError) return new ModelError('the model call was aborted', 'aborted', billed);
  if (error instanceof APIError && typeof error.status === 'number') {
    const status = error.status;
    const detail = apiMessage(error);
    const spendLimit = status === 429 && SPEND_LIMIT.test(detail);
    if (!spendLimit && ([408, 409, 429].includes(status) || status >= 500)) {
      return new ModelError(
        `Anthropic API ${status} after ${maxRetries} retries: ${detail}. Try again later or raise max-retries.`,
        'exhausted',
        billed,
        status,
      );
    }
    // The loop can make room and try again; any other rejection is final.
    const kind = status === 400 && /prompt is too long/i.test(detail) ? 'too_long' : 'fatal';
    return new ModelError(`Anthropic API ${status}: ${detail}. ${hintFor(status, detail, model)}`, kind, billed, status);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ModelError(`model stream failed: ${message}`, 'stream', billed);
}
