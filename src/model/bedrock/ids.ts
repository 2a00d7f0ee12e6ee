import { Messages } from '@anthropic-ai/sdk/resources/messages';
import type { Price } from '../../core/usage.js';
import type { MessagesClient } from '../anthropic/client.js';
import { priceFor } from '../anthropic/prices.js';

/**
 * The Claude model inside a cloud provider's id, so that it is priced as that model:
 * `us.anthropic.claude-sonnet-5-5-20260601-v1:0`, a foundation-model or inference-profile ARN
 * ending in such an id, or Vertex's `claude-sonnet-5-5@20260601` all become `claude-sonnet-5-5-20260601`.
 * Ids it cannot see into (application inference-profile ARNs) come back unchanged.
 */
export function claudeIdOf(id: string): string {
  const last = id.startsWith('arn:') ? (id.split('/').pop() ?? id) : id;
  return last
    .replace(/^(?:[a-z]{2,6}\.)?anthropic\./, '')
    .replace(/-v\d+(?::\d+)?$/, '')
    .replace('@', '-');
}

/**
 * The price overrides to hand the Anthropic adapter: the built-in table is keyed by Claude ids, and
 * the adapter prices by the provider's id (or the one the response names), so the configured id
 * gets an entry priced as the Claude model inside it, unless the user priced that id themselves.
 */
export function providerPrices(model: string, overrides: Readonly<Record<string, Price>> = {}): Record<string, Price> {
  const claude = claudeIdOf(model);
  const userPricedIt = Object.keys(overrides).some((prefix) => model.startsWith(prefix));
  if (claude === model || userPricedIt) return { ...overrides };
  return { ...overrides, [model]: priceFor(claude, overrides) };
}

/**
 * The cloud SDKs build their `messages` as the first-party `Messages` resource with the calls they
 * do not serve (batches, token counting) deleted, and type it without them; the adapter only
 * streams, so the resource itself is what it needs. The check makes that claim at run time too, so
 * two copies of `@anthropic-ai/sdk` (one not deduped) fail here with a clear message.
 */
export function messagesClientOf(client: { messages: object }, provider: string): MessagesClient {
  const messages = client.messages;
  if (!(messages instanceof Messages)) {
    throw new Error(`${provider}: its SDK does not share this build's @anthropic-ai/sdk (reinstall so that it is deduped)`);
  }
  return { messages };
}
