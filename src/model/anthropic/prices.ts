import type { Price } from '../../core/usage.js';

/** The date the built-in prices were last checked against Anthropic's published price list. */
export const PRICES_CHECKED = '2026-11-29';

/** Web search, the Messages API's server-side tool: $10 per 1,000 searches, whatever the model. */
export const WEB_SEARCH_USD_PER_USE = 10 / 1000;

function price(input: number, output: number, cacheReadShare: number): Price {
  return { input, output, cacheWrite: input * 1.25, cacheRead: input * cacheReadShare, webSearch: WEB_SEARCH_USD_PER_USE };
}

/**
 * Built-in prices, matched by model id prefix (longest prefix wins), so dated ids such as
 * `claude-sonnet-5-5-20260601` find their family. Override with `AGENT_ACTION_PRICES` or the
 * `prices` setting when a new model or a negotiated rate is in use.
 */
export const PRICE_TABLE: Readonly<Record<string, Price>> = Object.freeze({
  'claude-fable-5-1': price(10, 50, 0.025),
  'claude-mythos-5-1': price(10, 50, 0.025),
  'claude-fable-5': price(10, 50, 0.1),
  'claude-mythos-5': price(10, 50, 0.1),
  'claude-opus-5-5': price(4, 20, 0.05),
  'claude-opus-5': price(5, 25, 0.1),
  'claude-opus-4-5': price(5, 25, 0.1),
  'claude-opus-4': price(15, 75, 0.1),
  'claude-sonnet-5-5': price(2, 10, 0.05),
  'claude-sonnet-5': price(2, 10, 0.1),
  'claude-sonnet-4': price(3, 15, 0.1),
  'claude-haiku-5-5': price(0.1, 0.5, 0.1),
  'claude-haiku-4-5': price(1, 5, 0.1),
  'claude-3-5-haiku': price(0.8, 4, 0.1),
});

/** Unknown models are priced as the most expensive family so that a spend cap errs on the safe side. */
export const FALLBACK_PRICE: Price = price(10, 50, 0.1);

/**
 * The price of a model id: the longest matching prefix of the overrides and the built-in table; an
 * override that leaves out the search price keeps the published one.
 */
export function priceFor(model: string, overrides: Readonly<Record<string, Price>> = {}): Price {
  const table = { ...PRICE_TABLE, ...overrides };
  let best: string | undefined;
  for (const prefix of Object.keys(table)) {
    if (model.startsWith(prefix) && (best === undefined || prefix.length > best.length)) best = prefix;
  }
  return { webSearch: WEB_SEARCH_USD_PER_USE, ...(best === undefined ? FALLBACK_PRICE : (table[best] ?? FALLBACK_PRICE)) };
}
