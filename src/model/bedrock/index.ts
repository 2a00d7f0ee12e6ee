import AnthropicBedrock, { type ClientOptions } from '@anthropic-ai/bedrock-sdk';
import type { Model } from '../../core/model.js';
import { httpFetch } from '../../http/fetch.js';
import { AnthropicModel, spendLimitAwareFetch } from '../anthropic/index.js';
import { clientTiming, type ProviderOptions } from '../provider.js';
import { messagesClientOf, providerPrices } from './ids.js';

export { claudeIdOf, messagesClientOf, providerPrices } from './ids.js';

/**
 * Bedrock takes the API version from the body; the SDK copies the `anthropic-version` header
 * there, and left alone that header is the first-party API's version, which Bedrock rejects.
 */
export const BEDROCK_VERSION = 'bedrock-2023-05-31';

type Env = ProviderOptions['env'];

/** A variable, with an empty value (as an unset workflow input leaves it) counted as unset. */
function read(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** The Bedrock client from the injected environment; every value is passed so the SDK never reads process.env. */
export function bedrockClient(o: ProviderOptions): AnthropicBedrock {
  const env = o.env;
  const region = read(env, 'AWS_REGION') ?? read(env, 'AWS_DEFAULT_REGION') ?? 'us-east-1';
  const token = read(env, 'AWS_BEARER_TOKEN_BEDROCK');
  // Static keys are added below only when both are set, as the SDK's constructor overloads require.
  const common: Omit<ClientOptions, 'awsAccessKey' | 'awsSecretKey' | 'awsSessionToken'> = {
    awsRegion: region,
    baseURL: read(env, 'ANTHROPIC_BEDROCK_BASE_URL') ?? `https://bedrock-runtime.${region}.amazonaws.com`,
    // A Bedrock API key is sent as `Authorization: Bearer` by the SDK; null makes it sign with SigV4.
    apiKey: token ?? null,
    maxRetries: o.maxRetries,
    ...clientTiming(o, spendLimitAwareFetch(o.fetch ?? httpFetch)),
    defaultHeaders: { 'anthropic-version': BEDROCK_VERSION },
  };
  const awsAccessKey = read(env, 'AWS_ACCESS_KEY_ID');
  const awsSecretKey = read(env, 'AWS_SECRET_ACCESS_KEY');
  if (token === undefined && awsAccessKey !== undefined && awsSecretKey !== undefined) {
    // What aws-actions/configure-aws-credentials leaves in the environment, session token included.
    return new AnthropicBedrock({ ...common, awsAccessKey, awsSecretKey, awsSessionToken: read(env, 'AWS_SESSION_TOKEN') ?? null });
  }
  // No static keys: the SDK's default AWS chain (profiles, SSO, web identity, instance roles).
  return new AnthropicBedrock(common);
}

/** Claude on Amazon Bedrock, through the Anthropic adapter (request shaping, caching, errors, prices). */
export function bedrockModel(o: ProviderOptions): Model {
  return new AnthropicModel({
    model: o.model,
    maxRetries: o.maxRetries,
    prices: providerPrices(o.model, o.prices),
    client: messagesClientOf(bedrockClient(o), 'Bedrock'),
    // Bedrock has no server-side web search: WebSearch is not offered there (see webSearchOffered).
    serverTools: false,
  });
}
