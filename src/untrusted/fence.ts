import { sanitizeUntrusted, sanitizeVerbatim } from './sanitize.js';

/**
 * Sanitized text inside a delimited block, so the prompt can tell the model where untrusted text
 * starts and ends. Any `<untrusted_…>` tag inside is escaped so the text cannot close the block.
 * `verbatim` is for diffs and logs (see sanitizeVerbatim).
 */
export function quoteUntrusted(label: string, text: string, options: { verbatim?: boolean } = {}): string {
  const tag = `untrusted_${label.toLowerCase().replace(/[^a-z0-9_]+/g, '_')}`;
  const clean = options.verbatim ? sanitizeVerbatim(text) : sanitizeUntrusted(text);
  return `<${tag}>\n${escapeFences(clean)}\n</${tag}>`;
}

/** Text placed inside a block already open (a command's output in the task): its `<untrusted_…>` tags escaped. */
export function escapeFences(text: string): string {
  return text.replace(/<(\s*\/?\s*untrusted_)/gi, '&lt;$1');
}
