/** Token counts of one model call or of a whole run, in the Messages API's own names. */
export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  /** Calls of the provider's own tools (web search), billed per use; absent when there were none. */
  server_tool_use?: { web_search_requests: number };
}

export const ZERO_USAGE: Usage = Object.freeze({
  input_tokens: 0,
  output_tokens: 0,
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 0,
});

/** The web searches a call or a run made. */
export function webSearches(u: Usage): number {
  return u.server_tool_use?.web_search_requests ?? 0;
}

export function addUsage(a: Usage, b: Usage): Usage {
  const searches = webSearches(a) + webSearches(b);
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    cache_read_input_tokens: a.cache_read_input_tokens + b.cache_read_input_tokens,
    cache_creation_input_tokens: a.cache_creation_input_tokens + b.cache_creation_input_tokens,
    ...(searches > 0 ? { server_tool_use: { web_search_requests: searches } } : {}),
  };
}

/** Everything counted as prompt for one call: what the context window holds. */
export function promptTokens(u: Usage): number {
  return u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
}

/** USD per million tokens. Cache writes are the 5-minute kind, the only one the loop asks for. */
export interface Price {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
  /** USD per web search (the provider's server-side tool); none counted when absent. */
  webSearch?: number;
}

/** What a call's tokens cost at a price, in USD. */
export function costOf(usage: Usage, p: Price): number {
  return (
    (usage.input_tokens * p.input +
      usage.output_tokens * p.output +
      usage.cache_creation_input_tokens * p.cacheWrite +
      usage.cache_read_input_tokens * p.cacheRead) /
      1_000_000 +
    webSearches(usage) * (p.webSearch ?? 0)
  );
}
