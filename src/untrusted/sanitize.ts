import { stripComments, stripHiddenHtml } from './html.js';
import { stripHiddenMarkdown } from './markdown.js';

/**
 * Hidden-content stripping for text taken from GitHub before a model reads it.
 *
 * The threat is text a human reviewer does not see when they write `/agent ...` under it: HTML
 * comments, invisible characters, image alt text, link titles, hidden attributes and elements.
 * Every pass errs towards removing too much: dropping some visible text costs the model a little
 * context, keeping hidden text hands an attacker the prompt. For that reason code blocks get no
 * special treatment: a fence inside an HTML block is raw HTML on GitHub, so without a full
 * CommonMark parser "this looks like code" cannot be trusted to mean "a reader saw it".
 */

// Format characters (\p{Cf}: zero-width, bidi, soft hyphen, tag characters, ...), control
// characters other than tab and newline, variation selectors (used to smuggle bytes after an
// emoji), the combining grapheme joiner and the Hangul fillers that render as nothing.
// The class lists single code points on purpose, combining ones included: each is removed alone.
/* eslint-disable no-misleading-character-class */
const INVISIBLE = new RegExp(
  [
    '[',
    String.raw`\u00AD\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}\p{Cf}`,
    String.raw`\u0000-\u0008\u000B-\u001F\u007F-\u009F\u034F\u115F\u1160\u3164\uFFA0\uFE00-\uFE0F\u{E0100}-\u{E01EF}`,
    ']',
  ].join(''),
  'gu',
);
/* eslint-enable no-misleading-character-class */

// Browsers decode these without the trailing semicolon too.
const NUMERIC_ENTITY = /&#(?:[xX]([0-9a-fA-F]{1,8})|([0-9]{1,10}));?/g;
// Named entities that render as nothing; used to break words apart so filters miss them.
const INVISIBLE_NAMES = [
  'shy',
  'zwj',
  'zwnj',
  'lrm',
  'rlm',
  'ZeroWidthSpace',
  'NegativeVeryThinSpace',
  'NegativeThinSpace',
  'NegativeMediumSpace',
  'NegativeThickSpace',
  'NoBreak',
  'InvisibleTimes',
  'InvisibleComma',
  'ApplyFunction',
  'it',
  'ic',
  'af',
];
const INVISIBLE_NAMED_ENTITY = new RegExp(`&(?:${INVISIBLE_NAMES.join('|')});`, 'g');

/** For markdown written by people (titles, bodies, comments, reviews). */
export function sanitizeUntrusted(text: string): string {
  let out = sanitizeVerbatim(text);
  out = decodeEntities(out);
  out = stripInvisible(out);
  out = stripComments(out);
  out = stripHiddenHtml(out);
  return stripHiddenMarkdown(out);
}

/**
 * For text GitHub shows verbatim (diffs, diff hunks, logs, file contents): no markup is rendered
 * there, so only the characters nobody can see are removed and code keeps every visible character.
 */
export function sanitizeVerbatim(text: string): string {
  return stripInvisible(text.replace(/\r\n?|[\u2028\u2029]/g, '\n'));
}

function stripInvisible(text: string): string {
  return text.replace(INVISIBLE, '');
}

function decodeEntities(text: string): string {
  return text.replace(INVISIBLE_NAMED_ENTITY, '').replace(NUMERIC_ENTITY, (_match, hex?: string, dec?: string) => {
    const code = hex === undefined ? Number(dec) : parseInt(hex, 16);
    return code >= 0x20 && code <= 0x7e ? String.fromCharCode(code) : '';
  });
}
