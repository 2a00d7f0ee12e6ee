import type { ThreadComment } from '../github/context.js';
import { quoteUntrusted } from '../untrusted/fence.js';

/**
 * The thread's share of the first request. With the diff (60,000 characters), the instructions
 * and the check logs beside it, a 200k-token window keeps most of itself for the work.
 */
export const THREAD_TOKENS = 20_000;

/**
 * Tokens a text will cost, erring high: English and code run 3.5-4.5 bytes a token, other scripts
 * fewer bytes a token but more bytes a character, so bytes / 3.5 stays on the safe side for both.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, 'utf8') / 3.5);
}

function rendered(c: ThreadComment, body = c.body): string {
  return `@${c.author} at ${c.createdAt}:\n${quoteUntrusted('comment', body)}`;
}

/** The newest comment alone over the budget keeps its beginning: the start of a long comment says what it is about. */
function cutToBudget(c: ThreadComment, budget: number): string {
  const chars = Math.max(0, Math.floor(budget * 3.5) - 200);
  return rendered(c, `${c.body.slice(0, chars)}\n[comment cut: ${c.body.length - chars} more characters]`);
}

/**
 * The conversation as the task shows it: the newest comments that fit in `budget` tokens, in
 * order, the older ones counted. Kept by size, not by count: ten pasted logs weigh more than a
 * hundred "+1"s. The trigger and the issue or pull request body are elsewhere in the task and
 * always there; the newest comment always is too.
 */
export function threadSection(comments: readonly ThreadComment[], budget = THREAD_TOKENS): string {
  const kept: string[] = [];
  let used = 0;
  for (let i = comments.length - 1; i >= 0; i--) {
    const text = rendered(comments[i]!);
    const cost = estimateTokens(text);
    if (used + cost > budget) {
      if (kept.length === 0) kept.push(cutToBudget(comments[i]!, budget));
      break;
    }
    kept.push(text);
    used += cost;
  }
  const left = comments.length - kept.length;
  const note =
    left > 0 ? `[${left} older comments left out to keep the task within the context window; the newest ${kept.length} follow]\n\n` : '';
  return note + kept.reverse().join('\n\n');
}
