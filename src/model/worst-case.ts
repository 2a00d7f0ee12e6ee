import type { CostQuery } from '../core/model.js';
import type { Price } from '../core/usage.js';

/** Room for what the request's JSON leaves out: role markers, tool-use framing, the API's own preamble. */
const OVERHEAD_TOKENS = 1000;

/**
 * The most a request can cost at a price: every max_tokens token written, and every input token
 * at the dearest input rate (a cache write). A token is never shorter than one UTF-8 byte of the
 * request's JSON (an image's base64 is far longer than its tokens), so the byte count bounds the
 * input from above whatever the tokenizer: the reservation errs on the side of the cap.
 */
export function worstCaseCost(request: CostQuery, price: Price): number {
  const bytes = Buffer.byteLength(JSON.stringify([request.system, request.tools, request.messages]), 'utf8');
  const inputRate = Math.max(price.input, price.cacheWrite, price.cacheRead);
  // Each web search the tool allows is billed on top of the tokens.
  const searches = request.tools.reduce((n, t) => n + (t.server ? (t.server.max_uses ?? 0) : 0), 0);
  return ((bytes + OVERHEAD_TOKENS) * inputRate + request.maxTokens * price.output) / 1_000_000 + searches * (price.webSearch ?? 0);
}
