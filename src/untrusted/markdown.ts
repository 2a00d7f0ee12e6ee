/**
 * Markdown that GitHub renders without showing all of it: image alt text, link titles, and link
 * reference definitions nothing refers to. Destinations are kept, since a reader sees where a
 * link or image points.
 */

// A link title: "...", '...' or (...), with escapes.
const TITLE = String.raw`"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\((?:[^()\\]|\\.)*\)`;
// A link reference definition: `[label]: destination "title"` (title optional, may sit on the next line).
const DEFINITION = new RegExp(
  String.raw`^ {0,3}\[((?:[^[\]\\]|\\.){1,999})\]:[ \t]*\n?[ \t]*(<[^<>\n]*>|[^\s<>]\S*)` +
    String.raw`(?:[ \t]*\n?[ \t]*(${TITLE}))?[ \t]*$`,
  'gm',
);
// `](destination "title")`: the title is dropped, the destination kept.
const INLINE_LINK_TITLE = new RegExp(
  String.raw`(\]\(\s*)(<(?:[^<>\n\\]|\\.)*>|(?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))*)\s+(?:${TITLE})\s*\)`,
  'g',
);
const BRACKETED = /\[((?:[^[\]\\]|\\.)+)\]/g;

interface Definition {
  label: string;
  destination: string;
}

export function stripHiddenMarkdown(text: string): string {
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
