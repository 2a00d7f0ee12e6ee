import type { Message } from '../core/messages.js';
import type { CostQuery } from '../core/model.js';
import type { Price } from '../core/usage.js';

/** Room for what the request's JSON leaves out: role markers, tool-use framing, the API's own preamble. */
const OVERHEAD_TOKENS = 1000;

const utf8 = (json: string | undefined): number => (json === undefined ? 4 : Buffer.byteLength(json, 'utf8')); // `null`

/**
 * The JSON size of each block and tool spec seen, kept while the object lives. A block in the
 * history is never changed in place: a change replaces it (compaction's cleared results, a hook's
 * added context, a merged turn are new blocks in a new content array), and so is a spec (a new
 * array of new specs when an MCP server's tools change). So a block is serialised once, when it
 * joins the history, not again at every later step as the history grows.
 */
const sizes = new WeakMap<object, number>();

/** Characters JSON writes as `\u00XX`, and surrogates (a lone one is written that way too): a string holding any is serialised to be sized. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const RARE_ESCAPES = /[\u0000-\u0007\u000b\u000e-\u001f\ud800-\udfff]/;
/** Characters JSON writes as two: a backslash and a letter or themselves. */
const SHORT_ESCAPES = ['"', '\\', '\n', '\t', '\r', '\b', '\f'];

function occurrences(text: string, char: string): number {
  let n = 0;
  for (let i = text.indexOf(char); i !== -1; i = text.indexOf(char, i + 1)) n++;
  return n;
}

/** `utf8(JSON.stringify(text))`, for the usual text, without making the JSON: a tool's output can be a megabyte. */
function stringBytes(text: string): number {
  if (RARE_ESCAPES.test(text)) return utf8(JSON.stringify(text));
  let escapes = 0;
  for (const char of SHORT_ESCAPES) escapes += occurrences(text, char);
  return 2 + Buffer.byteLength(text, 'utf8') + escapes;
}

/** Strings up to this long are sized by serialising them with their block. */
const SHORT_TEXT = 1024;

function blockBytes(value: object): number {
  // A tool result's text, most of a request, is sized where it lies; its block's other fields are few.
  const content = (value as { content?: unknown }).content;
  if (typeof content !== 'string' || content.length <= SHORT_TEXT) return utf8(JSON.stringify(value));
  return utf8(JSON.stringify({ ...value, content: '' })) - 2 + stringBytes(content);
}

function elementBytes(value: unknown): number {
  if (typeof value !== 'object' || value === null) return utf8(JSON.stringify(value));
  let size = sizes.get(value);
  if (size === undefined) sizes.set(value, (size = blockBytes(value)));
  return size;
}

/** `[a,b,...]`: the brackets, the commas and each element. */
function arrayBytes<T>(values: readonly T[], each: (value: T) => number): number {
  let total = 2 + Math.max(0, values.length - 1);
  for (const value of values) total += each(value);
  return total;
}

/** A message: its own fields (role...) with a one-byte stand-in for the content, less that byte, plus the content. */
function messageBytes(message: Message): number {
  if (!Array.isArray(message.content)) return utf8(JSON.stringify(message));
  return utf8(JSON.stringify({ ...message, content: 0 })) - 1 + arrayBytes(message.content, elementBytes);
}

/** Exactly `Buffer.byteLength(JSON.stringify([system, tools, messages]))`, without serialising again what an earlier step did. */
export function requestJsonBytes(request: Pick<CostQuery, 'system' | 'tools' | 'messages'>): number {
  const system = utf8(JSON.stringify(request.system));
  const tools = arrayBytes(request.tools, elementBytes);
  const messages = arrayBytes(request.messages, messageBytes);
  return 2 + system + 1 + tools + 1 + messages;
}

/**
 * The most a request can cost at a price: every max_tokens token written, and every input token
 * at the dearest input rate (a cache write). A token is never shorter than one UTF-8 byte of the
 * request's JSON (an image's base64 is far longer than its tokens), so the byte count bounds the
 * input from above whatever the tokenizer: the reservation errs on the side of the cap.
 */
export function worstCaseCost(request: CostQuery, price: Price): number {
  const bytes = requestJsonBytes(request);
  const inputRate = Math.max(price.input, price.cacheWrite, price.cacheRead);
  // Each web search the tool allows is billed on top of the tokens.
  const searches = request.tools.reduce((n, t) => n + (t.server ? (t.server.max_uses ?? 0) : 0), 0);
  return ((bytes + OVERHEAD_TOKENS) * inputRate + request.maxTokens * price.output) / 1_000_000 + searches * (price.webSearch ?? 0);
}
