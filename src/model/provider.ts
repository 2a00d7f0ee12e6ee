import type { Price } from '../core/usage.js';
import { idleTimeoutFetch } from './idle-fetch.js';
import { sdkLogger } from './sdk-logger.js';

/** Where the model runs. */
export type Provider = 'anthropic' | 'bedrock' | 'vertex' | 'openai';

/** What every provider's adapter is built from; each reads its own variables from `env`. */
export interface ProviderOptions {
  model: string;
  /** Retries of one call on retryable errors, done by the provider's client. */
  maxRetries: number;
  /** Price overrides by model id prefix, on top of the built-in table. */
  prices?: Readonly<Record<string, Price>>;
  /** The action's or the CLI's environment (injected): credentials, regions, endpoints. */
  env: Readonly<Record<string, string | undefined>>;
  /** Anthropic: the key and endpoint from the inputs, else ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL. */
  apiKey?: string;
  baseURL?: string;
  /** OpenAI-compatible: from the inputs, else OPENAI_API_KEY / OPENAI_BASE_URL. */
  openaiApiKey?: string;
  openaiBaseURL?: string;
  fetch?: typeof fetch;
  /** How long a response may send nothing, before its headers or between events, before the attempt is retried. */
  streamIdleTimeoutMs?: number;
  /** Where the client's own messages go, one line each; the caller escapes them for its log. Dropped when absent. */
  log?: (line: string) => void;
}

/** The default of stream-idle-timeout-seconds, in ms. */
export const DEFAULT_STREAM_IDLE_MS = 60_000;

/** The options every SDK client gets for time and logging: the same waits and the same log for each provider. */
export function clientTiming(o: Pick<ProviderOptions, 'streamIdleTimeoutMs' | 'log'>, inner: typeof fetch) {
  const ms = o.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_MS;
  // The SDK's timeout covers the wait for the headers; the body's silences are the fetch's to catch.
  return { timeout: ms, fetch: idleTimeoutFetch(inner, ms), logger: sdkLogger(o.log) };
}
