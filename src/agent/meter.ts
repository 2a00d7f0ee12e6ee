/** Token counts of one model call or of a whole run, as the API reports them. */
export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

export const ZERO_USAGE: Usage = Object.freeze({
  input_tokens: 0,
  output_tokens: 0,
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 0,
});

/** USD per million tokens. Cache writes are the 5-minute kind, the only one the loop asks for. */
export interface Price {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

/** The date the built-in prices were last checked against Anthropic's published price list. */
export const PRICES_CHECKED = '2026-11-29';

function price(input: number, output: number, cacheReadShare: number): Price {
  return { input, output, cacheWrite: input * 1.25, cacheRead: input * cacheReadShare };
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

export function priceFor(model: string, overrides: Readonly<Record<string, Price>> = {}): Price {
  const table = { ...PRICE_TABLE, ...overrides };
  let best: string | undefined;
  for (const prefix of Object.keys(table)) {
    if (model.startsWith(prefix) && (best === undefined || prefix.length > best.length)) best = prefix;
  }
  return best === undefined ? FALLBACK_PRICE : (table[best] ?? FALLBACK_PRICE);
}

export function costOf(usage: Usage, p: Price): number {
  return (
    (usage.input_tokens * p.input +
      usage.output_tokens * p.output +
      usage.cache_creation_input_tokens * p.cacheWrite +
      usage.cache_read_input_tokens * p.cacheRead) /
    1_000_000
  );
}

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    cache_read_input_tokens: a.cache_read_input_tokens + b.cache_read_input_tokens,
    cache_creation_input_tokens: a.cache_creation_input_tokens + b.cache_creation_input_tokens,
  };
}

/** Everything the API counted as prompt for one call: what the context window holds. */
export function promptTokens(u: Usage): number {
  return u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
}

/** Running totals for a run: every billed call is added, failed and retried ones included. */
export class UsageMeter {
  total: Usage = { ...ZERO_USAGE };
  costUsd = 0;
  /** Prompt size of the newest call: how full the context window is. */
  lastPromptTokens = 0;
  billedCalls = 0;

  /** Price by model id, looked up once per model rather than on every call. */
  private readonly prices = new Map<string, Price>();

  constructor(private readonly priceOf: (model: string) => Price) {}

  add(model: string, usage: Usage): number {
    let price = this.prices.get(model);
    if (!price) this.prices.set(model, (price = this.priceOf(model)));
    const cost = costOf(usage, price);
    this.total = addUsage(this.total, usage);
    this.costUsd += cost;
    this.billedCalls += 1;
    const prompt = promptTokens(usage);
    if (prompt > 0) this.lastPromptTokens = prompt;
    return cost;
  }
}
