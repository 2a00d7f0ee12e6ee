import type { Price } from '../core/usage.js';

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
}
