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
const INVISIBLE =
  /[\u00AD\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}\p{Cf}\u0000-\u0008\u000B-\u001F\u007F-\u009F\u034F\u115F\u1160\u3164\uFFA0\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/gu;

// Browsers decode these without the trailing semicolon too.
const NUMERIC_ENTITY = /&#(?:[xX]([0-9a-fA-F]{1,8})|([0-9]{1,10}));?/g;
// Named entities that render as nothing; used to break words apart so filters miss them.
const INVISIBLE_NAMED_ENTITY =
  /&(?:shy|zwj|zwnj|lrm|rlm|ZeroWidthSpace|NegativeVeryThinSpace|NegativeThinSpace|NegativeMediumSpace|NegativeThickSpace|NoBreak|InvisibleTimes|InvisibleComma|ApplyFunction|it|ic|af);/g;

// An unterminated comment hides everything after it, so it runs to the end of the text.
const HTML_COMMENT = /<!--(?:-?>|[\s\S]*?(?:--!?>|$))/g;
// Processing instructions, declarations, CDATA and `</3 ...>` all become bogus comments in a browser.
const BOGUS_COMMENT = /<\?[^>]*>|<![A-Za-z[][^>]*>|<\/[^A-Za-z>\s][^>]*>/g;

const HIDDEN_ATTRIBUTE = /^(?:alt|title|placeholder|longdesc|aria-[^\s=]*|data-[^\s=]*)$/i;
const HIDDEN_ELEMENT = new Set(['script', 'style', 'template', 'noscript']);
const VOID_ELEMENT = new Set([
  'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr',
]);
const HIDDEN_STYLE =
  /(?:^|[;\s])(?:display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse)|(?:font-size|opacity|(?:max-)?(?:height|width))\s*:\s*(?:0+(?:\.0*)?|\.0+)(?![.\d])|color\s*:\s*transparent|text-indent\s*:\s*-|(?:left|top)\s*:\s*-\d{3,})/i;

const HTML_SPACE = /[\t\n\f\r ]/;

/** For markdown written by people (titles, bodies, comments, reviews). */
export function sanitizeUntrusted(text: string): string {
  let out = sanitizeVerbatim(text);
  out = decodeEntities(out);
  out = stripInvisible(out);
  out = out.replace(HTML_COMMENT, '').replace(BOGUS_COMMENT, '');
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

/**
 * Sanitized text inside a delimited block, so the prompt can tell the model where untrusted text
 * starts and ends. Any `<untrusted_…>` tag inside is escaped so the text cannot close the block.
 * `verbatim` is for diffs and logs (see sanitizeVerbatim).
 */
export function quoteUntrusted(label: string, text: string, options: { verbatim?: boolean } = {}): string {
  const tag = `untrusted_${label.toLowerCase().replace(/[^a-z0-9_]+/g, '_')}`;
  const clean = options.verbatim ? sanitizeVerbatim(text) : sanitizeUntrusted(text);
  const body = clean.replace(/<(\s*\/?\s*untrusted_)/gi, '&lt;$1');
  return `<${tag}>\n${body}\n</${tag}>`;
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

// ---------------------------------------------------------------------------------------------
// HTML

interface Attribute {
  name: string;
  value: string;
  /** Where the whitespace before the attribute starts, so removing it leaves no gap. */
  start: number;
  end: number;
}

interface Tag {
  name: string;
  closing: boolean;
  selfClosing: boolean;
  start: number;
  /** Past the `>`, or the end of the text when there is none. */
  end: number;
  /** False when the text ends inside the tag: a browser then drops the whole tag, text and all. */
  terminated: boolean;
  attributes: Attribute[];
}

// A browser's tag name runs to whitespace, '/' or '>' (so `</untrusted_x>` is one name).
const TAG_OPEN = /<(\/?)([A-Za-z][^\t\n\f\r />]*)/y;
const TAG_START = /<\/?[A-Za-z]/g;

/** A tag read the lenient way a browser's tokenizer does (no space needed between attributes). */
function readTag(text: string, start: number): Tag | null {
  TAG_OPEN.lastIndex = start;
  const open = TAG_OPEN.exec(text);
  if (!open) return null;
  const tag: Tag = {
    name: (open[2] ?? '').toLowerCase(),
    closing: open[1] === '/',
    selfClosing: false,
    start,
    end: text.length,
    terminated: false,
    attributes: [],
  };
  let pos = TAG_OPEN.lastIndex;
  while (pos < text.length) {
    const before = pos;
    pos = skipWhile(text, pos, (c) => HTML_SPACE.test(c) || c === '/');
    if (text[pos] === '>') {
      tag.selfClosing = text[pos - 1] === '/';
      tag.end = pos + 1;
      tag.terminated = true;
      break;
    }
    if (pos >= text.length) break;
    pos = readAttribute(text, before, pos, tag.attributes);
  }
  return tag;
}

function readAttribute(text: string, start: number, nameStart: number, into: Attribute[]): number {
  // A leading '=' belongs to the name, as in a browser.
  let pos = skipWhile(text, nameStart + 1, (c) => !HTML_SPACE.test(c) && c !== '/' && c !== '>' && c !== '=');
  const name = text.slice(nameStart, pos);
  let value = '';
  const afterName = skipWhile(text, pos, (c) => HTML_SPACE.test(c));
  if (text[afterName] === '=') {
    const valueStart = skipWhile(text, afterName + 1, (c) => HTML_SPACE.test(c));
    const quote = text[valueStart];
    if (quote === '"' || quote === "'") {
      const close = text.indexOf(quote, valueStart + 1);
      pos = close === -1 ? text.length : close + 1;
      value = text.slice(valueStart + 1, close === -1 ? text.length : close);
    } else {
      pos = skipWhile(text, valueStart, (c) => !HTML_SPACE.test(c) && c !== '>');
      value = text.slice(valueStart, pos);
    }
  }
  into.push({ name: name.toLowerCase(), value, start, end: pos });
  return pos;
}

function skipWhile(text: string, pos: number, test: (c: string) => boolean): number {
  let i = pos;
  while (i < text.length && test(text.charAt(i))) i++;
  return i;
}

function stripHiddenHtml(text: string): string {
  let out = '';
  let pos = 0;
  for (;;) {
    TAG_START.lastIndex = pos;
    const found = TAG_START.exec(text);
    const tag = found ? readTag(text, found.index) : null;
    if (!tag) break;
    out += text.slice(pos, tag.start);
    if (isHiddenElement(tag)) {
      pos = elementEnd(text, tag);
      continue;
    }
    out += visibleTag(text, tag);
    pos = tag.end;
  }
  return out + text.slice(pos);
}

/**
 * Whether the paragraph holding `pos` starts with a tag, making it raw HTML on GitHub: there a
 * tag left open at the end is dropped with all its text, while in prose (`if a<b then`) it shows.
 */
function inHtmlBlock(text: string, pos: number): boolean {
  const blankLine = /\n[ \t]*\n/g;
  let blockStart = 0;
  for (let m = blankLine.exec(text); m && m.index < pos; m = blankLine.exec(text)) blockStart = m.index + m[0].length;
  return /^ {0,3}<[A-Za-z/!?]/.test(text.slice(blockStart, pos + 2));
}

function isHiddenElement(tag: Tag): boolean {
  if (tag.closing) return false;
  if (HIDDEN_ELEMENT.has(tag.name)) return true;
  return tag.attributes.some(
    (a) =>
      a.name === 'hidden' ||
      (a.name === 'style' && HIDDEN_STYLE.test(a.value)) ||
      (a.name === 'type' && tag.name === 'input' && a.value.trim().toLowerCase() === 'hidden'),
  );
}

/** Past the element's matching end tag; an element never closed hides the rest of the text. */
function elementEnd(text: string, open: Tag): number {
  if (open.selfClosing || VOID_ELEMENT.has(open.name)) return open.end;
  let depth = 1;
  let pos = open.end;
  for (;;) {
    TAG_START.lastIndex = pos;
    const found = TAG_START.exec(text);
    const tag = found ? readTag(text, found.index) : null;
    if (!tag) return text.length;
    pos = tag.end;
    if (tag.name !== open.name || tag.selfClosing) continue;
    depth += tag.closing ? -1 : 1;
    if (depth === 0) return tag.end;
  }
}

/** The tag without its hidden attributes; every other byte is kept so code samples survive. */
function visibleTag(text: string, tag: Tag): string {
  if (!tag.terminated) return inHtmlBlock(text, tag.start) ? '' : text.slice(tag.start, tag.end);
  // A browser ignores attributes on an end tag, so nothing in them is ever seen.
  if (tag.closing) return `</${tag.name}>`;
  let out = '';
  let pos = tag.start;
  for (const attribute of tag.attributes) {
    if (!HIDDEN_ATTRIBUTE.test(attribute.name)) continue;
    out += text.slice(pos, attribute.start);
    pos = attribute.end;
  }
  return out + text.slice(pos, tag.end);
}

// ---------------------------------------------------------------------------------------------
// Markdown

// A link reference definition: `[label]: destination "title"` (title optional, may sit on the next line).
const DEFINITION =
  /^ {0,3}\[((?:[^[\]\\]|\\.){1,999})\]:[ \t]*\n?[ \t]*(<[^<>\n]*>|[^\s<>]\S*)(?:[ \t]*\n?[ \t]*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\((?:[^()\\]|\\.)*\)))?[ \t]*$/gm;
// `](destination "title")`: the title is dropped, the destination kept.
const INLINE_LINK_TITLE =
  /(\]\(\s*)(<(?:[^<>\n\\]|\\.)*>|(?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))*)\s+(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\((?:[^()\\]|\\.)*\))\s*\)/g;
const BRACKETED = /\[((?:[^[\]\\]|\\.)+)\]/g;

interface Definition {
  label: string;
  destination: string;
}

function stripHiddenMarkdown(text: string): string {
  const definitions = new Map<string, Definition>();
  const withoutTitles = text.replace(DEFINITION, (_match, label: string, destination: string) => {
    const key = normalizeLabel(label);
    if (!definitions.has(key)) definitions.set(key, { label, destination });
    return `[${label}]: ${destination}`;
  });
  const out = rewriteImages(withoutTitles, definitions).replace(INLINE_LINK_TITLE, '$1$2)');
  return dropUnusedDefinitions(out);
}

function normalizeLabel(label: string): string {
  return label.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * Every image becomes `![](destination)`: alt text is never shown unless the image fails to load.
 * Reference images are inlined so the label (which doubles as alt text) disappears with the alt.
 */
function rewriteImages(text: string, definitions: Map<string, Definition>): string {
  const closing = bracketPairs(text);
  let out = '';
  let pos = 0;
  for (let start = text.indexOf('![', pos); start !== -1; start = text.indexOf('![', pos)) {
    out += text.slice(pos, start);
    const image = imageReplacement(text, start, closing, definitions);
    out += image.text;
    pos = image.end;
  }
  return out + text.slice(pos);
}

function imageReplacement(
  text: string,
  start: number,
  closing: Map<number, number>,
  definitions: Map<string, Definition>,
): { text: string; end: number } {
  // Not an image (yet): step over the "![" so images inside it are still found.
  const notImage = { text: '![', end: start + 2 };
  const altEnd = closing.get(start + 1);
  if (altEnd === undefined) return notImage;
  if (text[altEnd + 1] === '(') return { text: '![]', end: altEnd + 1 };
  const alt = text.slice(start + 2, altEnd);
  const refEnd = text[altEnd + 1] === '[' ? closing.get(altEnd + 1) : undefined;
  const ref = refEnd === undefined ? '' : text.slice(altEnd + 2, refEnd);
  const definition = definitions.get(normalizeLabel(ref.trim() === '' ? alt : ref));
  // Without a definition GitHub shows the brackets as plain text, so nothing is hidden.
  if (!definition) return notImage;
  return { text: `![](${definition.destination})`, end: (refEnd ?? altEnd) + 1 };
}

/** Each `[` that is closed, mapped to its `]`, counting nesting and skipping escapes. */
function bracketPairs(text: string): Map<number, number> {
  const pairs = new Map<number, number>();
  const open: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '[') open.push(i);
    else if (c === ']') {
      const from = open.pop();
      if (from !== undefined) pairs.set(from, i);
    }
  }
  return pairs;
}

/** A definition nothing refers to renders as nothing at all, label included. */
function dropUnusedDefinitions(text: string): string {
  const rest = text.replace(DEFINITION, '');
  const used = new Set([...rest.matchAll(BRACKETED)].map((m) => normalizeLabel(m[1] ?? '')));
  return text.replace(DEFINITION, (match, label: string) => (used.has(normalizeLabel(label)) ? match : ''));
}
