/**
 * HTML read the way a browser reads it, to find what GitHub renders invisibly: comments, hidden
 * elements and hidden attributes. The reading is as lenient as a browser's tokenizer, because a
 * stricter one would keep text that a browser hides.
 */

/**
 * Comments end where a browser ends them: `<!-->` and `<!--->` at once, `--!>` as well as `-->`.
 * An unterminated comment hides everything after it, so it runs to the end of the text.
 */
const HTML_COMMENT = /<!--(?:-?>|[\s\S]*?(?:--!?>|$))/g;
// Processing instructions, declarations, CDATA and `</3 ...>` all become bogus comments in a browser.
const BOGUS_COMMENT = /<\?[^>]*>|<![A-Za-z[][^>]*>|<\/[^A-Za-z>\s][^>]*>/g;

const HIDDEN_ATTRIBUTE = /^(?:alt|title|placeholder|longdesc|aria-[^\s=]*|data-[^\s=]*)$/i;
const HIDDEN_ELEMENT = new Set(['script', 'style', 'template', 'noscript']);
const VOID_ELEMENT = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
// Declarations that hide an element's text: not displayed, no size, transparent, or moved off screen.
const HIDDEN_DECLARATION = [
  String.raw`display\s*:\s*none`,
  String.raw`visibility\s*:\s*(?:hidden|collapse)`,
  String.raw`(?:font-size|opacity|(?:max-)?(?:height|width))\s*:\s*(?:0+(?:\.0*)?|\.0+)(?![.\d])`,
  String.raw`color\s*:\s*transparent`,
  String.raw`text-indent\s*:\s*-`,
  String.raw`(?:left|top)\s*:\s*-\d{3,}`,
];
const HIDDEN_STYLE = new RegExp(String.raw`(?:^|[;\s])(?:${HIDDEN_DECLARATION.join('|')})`, 'i');

const HTML_SPACE = /[\t\n\f\r ]/;

/**
 * Every HTML comment replaced by what `replace` returns. Sanitizing and trigger detection both
 * go through here, so text a reader cannot see is judged by one rule everywhere.
 */
export function replaceHtmlComments(text: string, replace: (comment: string) => string): string {
  return text.replace(HTML_COMMENT, replace);
}

/** A browser shows neither kind of comment, whatever it holds. */
export function stripComments(text: string): string {
  return replaceHtmlComments(text, () => '').replace(BOGUS_COMMENT, '');
}

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

/** Hidden elements dropped with their content, hidden attributes dropped from the other tags. */
export function stripHiddenHtml(text: string): string {
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
