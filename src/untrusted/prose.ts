import { replaceHtmlComments } from './html.js';

/**
 * Finding a phrase the writer of a markdown text wrote themselves, as a word. Text that merely
 * shows or quotes it (code, quotes of someone else, hidden comments, URLs) does not count, so
 * mentioning a command is not the same as giving it.
 */

export interface PhraseMatch {
  start: number;
  end: number;
}

/** Where the phrase first appears in the writer's own prose, as indexes into `text`. */
export function findPhrase(text: string, phrase: string): PhraseMatch | null {
  const pattern = phraseRegex(phrase);
  if (!pattern) return null;
  const match = pattern.exec(maskNonProse(text));
  return match ? { start: match.index, end: match.index + match[0].length } : null;
}

// Letters, digits and the characters that make the phrase part of a path, URL, mention or word
// ("x/agent", "a.b/agent", "~/agent") on the left; word characters or a path on the right
// ("/agents", "/agent/x", "/agent.js"), while "/agent." ending a sentence still counts.
const BEFORE = String.raw`(?<![\p{L}\p{N}_/.~:@\\-])`;
const AFTER = String.raw`(?![\p{L}\p{N}_/-]|\.[\p{L}\p{N}_])`;

function phraseRegex(phrase: string): RegExp | null {
  const words = phrase
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  if (words.length === 0) return null;
  const body = words.map((w) => w.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join(String.raw`\s+`);
  return new RegExp(`${BEFORE}${body}${AFTER}`, 'iu');
}

/**
 * The text with what is not the writer's own prose blanked out (same length, so indexes still
 * point into the original): code, quotes of someone else, hidden comments and URLs.
 */
function maskNonProse(text: string): string {
  let masked = maskFencedCode(text);
  masked = maskPattern(masked, /^[ \t]*>.*$/gm);
  masked = maskCodeSpans(masked);
  masked = replaceHtmlComments(masked, blank);
  return maskPattern(masked, /\b[a-z][a-z0-9+.-]*:\/\/[^\s<>"'`]*|\bwww\.[^\s<>"'`]+/gi);
}

function blank(s: string): string {
  return s.replace(/[^\n]/g, ' ');
}

function maskPattern(text: string, pattern: RegExp): string {
  return text.replace(pattern, blank);
}

const FENCE = /^[ \t]*(`{3,}|~{3,})/;

/** Fenced blocks, any indentation (list items indent them); one left open runs to the end. */
function maskFencedCode(text: string): string {
  const lines = text.split('\n');
  let fence: string | null = null;
  const out = lines.map((line) => {
    if (fence === null) {
      const open = FENCE.exec(line)?.[1];
      // A backtick fence's info string may not contain a backtick.
      if (open === undefined || (open.startsWith('`') && line.slice(line.indexOf(open) + open.length).includes('`'))) {
        return line;
      }
      fence = open;
      return blank(line);
    }
    const close = FENCE.exec(line)?.[1];
    if (close !== undefined && close[0] === fence[0] && close.length >= fence.length && line.trim() === close) fence = null;
    return blank(line);
  });
  return out.join('\n');
}

/** `code` spans: a run of n backticks up to the next run of exactly n. */
function maskCodeSpans(text: string): string {
  const runs = [...text.matchAll(/`+/g)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
  // Later runs of each length, nearest last, so finding a closer is a pop rather than a scan.
  const later = new Map<number, number[]>();
  for (let i = runs.length - 1; i >= 0; i--) {
    const run = runs[i];
    if (!run) continue;
    const length = run.end - run.start;
    const list = later.get(length) ?? [];
    list.push(i);
    later.set(length, list);
  }
  let out = '';
  let pos = 0;
  for (let i = 0; i < runs.length; i++) {
    const open = runs[i];
    if (!open) continue;
    const sameLength = later.get(open.end - open.start) ?? [];
    while (sameLength.length > 0 && (sameLength.at(-1) ?? Infinity) <= i) sameLength.pop();
    const closeIndex = sameLength.pop();
    const close = closeIndex === undefined ? undefined : runs[closeIndex];
    if (closeIndex === undefined || !close) continue;
    out += text.slice(pos, open.start) + blank(text.slice(open.start, close.end));
    pos = close.end;
    i = closeIndex;
  }
  return out + text.slice(pos);
}
