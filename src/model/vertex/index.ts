import { readFileSync } from 'node:fs';
import AnthropicVertex from '@anthropic-ai/vertex-sdk';
import { GoogleAuth, type GoogleAuthOptions } from 'google-auth-library';
import type { Model } from '../../core/model.js';
import { httpFetch } from '../../http/fetch.js';
import { AnthropicModel, spendLimitAwareFetch } from '../anthropic/index.js';
import { messagesClientOf, providerPrices } from '../bedrock/ids.js';
import { clientTiming, type ProviderOptions } from '../provider.js';

/** Vertex takes the API version from the body; the SDK copies the `anthropic-version` header there. */
export const VERTEX_VERSION = 'vertex-2023-10-16';
export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';

type Env = ProviderOptions['env'];

function read(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

/**
 * The SDK starts resolving credentials when it is constructed and only awaits that on the first
 * request, so a missing or broken key file would surface as an unhandled rejection in between:
 * check it here, where the error can say which variable to fix.
 */
function checkKeyFile(path: string): void {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`GOOGLE_APPLICATION_CREDENTIALS: cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    JSON.parse(text);
  } catch {
    throw new Error(`GOOGLE_APPLICATION_CREDENTIALS: ${path} is not a JSON credentials file`);
  }
}

/** Google application default credentials, from the key file named in the injected environment when there is one. */
export function googleAuthFor(o: ProviderOptions): GoogleAuth {
  const keyFilename = read(o.env, 'GOOGLE_APPLICATION_CREDENTIALS');
  if (keyFilename !== undefined) checkKeyFile(keyFilename);
  const options: GoogleAuthOptions = { scopes: [CLOUD_PLATFORM_SCOPE] };
  if (keyFilename !== undefined) options.keyFilename = keyFilename;
  // The token exchange goes through the same fetch as the API calls (a proxy, or a test's fake).
  options.clientOptions = { transporterOptions: { fetchImplementation: o.fetch ?? httpFetch } };
  return new GoogleAuth(options);
}

/** The Vertex client from the injected environment; every value is passed so the SDK never reads process.env. */
export function vertexClient(o: ProviderOptions): AnthropicVertex {
  const region = read(o.env, 'CLOUD_ML_REGION');
  if (region === undefined) throw new Error('Vertex AI needs CLOUD_ML_REGION (e.g. us-east5 or global)');
  return new AnthropicVertex({
    region,
    // null, not undefined: undefined would make the SDK read these from process.env.
    projectId: read(o.env, 'ANTHROPIC_VERTEX_PROJECT_ID') ?? null,
    baseURL: read(o.env, 'ANTHROPIC_VERTEX_BASE_URL') ?? null,
    googleAuth: googleAuthFor(o),
    maxRetries: o.maxRetries,
    ...clientTiming(o, spendLimitAwareFetch(o.fetch ?? httpFetch)),
    defaultHeaders: { 'anthropic-version': VERTEX_VERSION },
  });
}

/** Claude on Google Vertex AI, through the Anthropic adapter (request shaping, caching, errors, prices). */
export function vertexModel(o: ProviderOptions): Model {
  return new AnthropicModel({
    model: o.model,
    maxRetries: o.maxRetries,
    prices: providerPrices(o.model, o.prices),
    client: messagesClientOf(vertexClient(o), 'Vertex AI'),
  });
}
