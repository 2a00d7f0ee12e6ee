import { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import { ModelError, type Billed } from '../../core/model.js';

/** OpenAI's code for an account out of credit; waiting does not help. */
const QUOTA = /insufficient_quota|exceeded your current quota|billing/i;
const TOO_LONG = /context[ _]length|maximum context|context window|too many tokens|prompt is too long/i;

/**
 * A 429 that means "out of quota" will not get better by waiting: mark it so the client's own retry
 * logic gives up at once instead of backing off through every retry.
 */
export function quotaAwareFetch(inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (response.status !== 429) return response;
    const body = await response.clone().text();
    if (!QUOTA.test(body)) return response;
    const headers = new Headers(response.headers);
    headers.set('x-should-retry', 'false');
    return new Response(body, { status: 429, statusText: response.statusText, headers });
  };
}

/** The error's own words: the body's `error.message`, its code, else the client's summary. */
function detailOf(error: { error: unknown; message: string }): string {
  const body: unknown = error.error;
  if (typeof body === 'object' && body !== null) {
    const message: unknown = 'message' in body ? body.message : undefined;
    const code: unknown = 'code' in body ? body.code : 'type' in body ? body.type : undefined;
    if (typeof message === 'string') return typeof code === 'string' ? `${message} (${code})` : message;
  }
  return error.message;
}

function hintFor(status: number, model: string): string {
  switch (status) {
    case 400:
      return 'The request was rejected as sent; check the model and that the endpoint supports tools and streaming.';
    case 401:
      return 'Check openai-api-key / OPENAI_API_KEY.';
    case 403:
      return `Check that the key may use model ${model}.`;
    case 404:
      return `Check the model id "${model}" and openai-base-url / OPENAI_BASE_URL (it usually ends in /v1).`;
    case 429:
      return 'The account is out of quota; add credit or raise its limits.';
    default:
      return 'Unexpected status.';
  }
}

/** Turns a client error into one the loop can act on, with a message that says what to fix. */
export function classifyError(error: unknown, model: string, maxRetries: number, billed: Billed | null): ModelError {
  if (error instanceof ModelError) return error;
  if (error instanceof APIUserAbortError) return new ModelError('the model call was aborted', 'aborted', billed);
  if (error instanceof APIError && typeof error.status === 'number') {
    const status = error.status;
    const detail = detailOf(error);
    const quota = status === 429 && QUOTA.test(detail);
    if (!quota && ([408, 409, 429].includes(status) || status >= 500)) {
      return new ModelError(
        `OpenAI-compatible API ${status} after ${maxRetries} retries: ${detail}. Try again later or raise max-retries.`,
        'exhausted',
        billed,
        status,
      );
    }
    // The loop can make room and try again; any other rejection is final.
    const kind = (status === 400 || status === 413) && TOO_LONG.test(detail) ? 'too_long' : 'fatal';
    return new ModelError(`OpenAI-compatible API ${status}: ${detail}. ${hintFor(status, model)}`, kind, billed, status);
  }
  if (error instanceof APIConnectionError) {
    // The client already retried the connection; nothing answered at all.
    return new ModelError(`could not reach the model endpoint after ${maxRetries} retries: ${error.message}`, 'exhausted', billed);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ModelError(`model stream failed: ${message}`, 'stream', billed);
}
