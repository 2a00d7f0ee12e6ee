import type { Model } from '../core/model.js';
import type { Provider, ProviderOptions } from './provider.js';
import { priceFor } from './anthropic/prices.js';
import { worstCaseCost } from './worst-case.js';

export type { Provider, ProviderOptions } from './provider.js';

/**
 * The provider's adapter, loaded when chosen: a run on the Anthropic API never loads the AWS,
 * Google or OpenAI clients.
 */
export async function createModel(provider: Provider, o: ProviderOptions): Promise<Model> {
  switch (provider) {
    case 'anthropic': {
      const { AnthropicModel } = await import('./anthropic/index.js');
      const apiKey = o.apiKey || o.env['ANTHROPIC_API_KEY'] || undefined;
      const baseURL = o.baseURL || o.env['ANTHROPIC_BASE_URL'] || undefined;
      const { streamIdleTimeoutMs, log } = o;
      return new AnthropicModel({
        model: o.model,
        apiKey,
        baseURL,
        maxRetries: o.maxRetries,
        ...(o.prices ? { prices: o.prices } : {}),
        ...(streamIdleTimeoutMs ? { streamIdleTimeoutMs } : {}),
        ...(log ? { log } : {}),
      });
    }
    // Bundled on their own (scripts/build.mjs): their SDKs build the full Anthropic client, whose
    // every resource would otherwise load on the Anthropic API's path as well.
    case 'bedrock':
      return (await import(/* webpackIgnore: true */ './bedrock/index.js')).bedrockModel(o);
    case 'vertex':
      return (await import(/* webpackIgnore: true */ './vertex/index.js')).vertexModel(o);
    case 'openai':
      return (await import('./openai/index.js')).openaiModel(o);
  }
}

/** The provider the settings name, else the one Claude Code's variables select, else Anthropic. */
export function providerFrom(setting: string, env: Readonly<Record<string, string | undefined>>): Provider {
  if (setting === 'anthropic' || setting === 'bedrock' || setting === 'vertex' || setting === 'openai') return setting;
  if (env['CLAUDE_CODE_USE_BEDROCK'] === '1') return 'bedrock';
  if (env['CLAUDE_CODE_USE_VERTEX'] === '1') return 'vertex';
  return 'anthropic';
}

/**
 * Whether the provider runs the Messages API's web search tool, so WebSearch can be offered: the
 * Anthropic API and Vertex AI do; Bedrock and OpenAI-compatible endpoints do not.
 */
export function webSearchOffered(provider: Provider): boolean {
  return provider === 'anthropic' || provider === 'vertex';
}

/** Variables that hold a provider's credentials: their values are redacted from everything posted. */
export const PROVIDER_SECRET_VARIABLES = [
  'ANTHROPIC_API_KEY',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_BEARER_TOKEN_BEDROCK',
  'OPENAI_API_KEY',
];

/** A model made on its first call: a subagent or command that names another model costs nothing until used. */
export function lazyModel(id: string, make: () => Promise<Model>): Model {
  let made: Promise<Model> | undefined;
  let ready: Model | undefined;
  return {
    id,
    send: async (request) => (ready = await (made ??= make())).send(request),
    // Until the client is made its price overrides are unknown: the built-in table, whose unknown
    // models are priced as the dearest, errs on the side of the cap.
    worstCaseCostUsd: (request) => ready?.worstCaseCostUsd?.(request) ?? worstCaseCost(request, priceFor(id)),
  };
}
