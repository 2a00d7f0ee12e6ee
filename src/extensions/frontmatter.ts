/**
 * The YAML frontmatter of Claude Code's Markdown files (agents, skills, commands): a block
 * between a first line `---` and the next line `---`, parsed with the `yaml` package. Parse
 * problems are thrown as ExtensionFileError so that a loader can skip the one file, say why, and
 * carry on: a typo in one agent must not stop a run that does not even use it.
 */
import type { parseDocument as ParseDocument } from 'yaml';

let parseDocument: typeof ParseDocument | undefined;

/**
 * Loads the YAML parser. The loaders call it once they have a file to parse, so a run without
 * agents, skills or commands never loads it; parsing before it resolves is a bug and throws.
 */
export async function loadFrontmatterParser(): Promise<void> {
  parseDocument ??= (await import('yaml')).parseDocument;
}

/** One file that cannot be used, and why; loaders log it and skip the file. */
export class ExtensionFileError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path}: ${problem}`);
    this.name = 'ExtensionFileError';
  }
}

const FENCE = /^---[ \t]*$/;

/**
 * The frontmatter's mapping and the text after it. A file without frontmatter is all body
 * (`data` empty). Throws ExtensionFileError naming `path` when the block is not closed, is not
 * valid YAML, or is not a mapping.
 */
export function splitFrontmatter(text: string, path = ''): { data: Record<string, unknown>; body: string } {
  // Editors on Windows save a BOM and CRLF line ends; neither may hide the fences.
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (!FENCE.test(lines[0] ?? '')) return { data: {}, body: lines.join('\n') };
  const end = lines.findIndex((line, i) => i > 0 && FENCE.test(line));
  if (end === -1)
    throw new ExtensionFileError(path, 'the frontmatter opened by the first line `---` is never closed by another `---` line');
  if (!parseDocument) throw new Error('splitFrontmatter: call loadFrontmatterParser() first');
  const block = lines.slice(1, end).join('\n');
  let doc = parseDocument(block, { logLevel: 'silent' });
  // Claude Code's second reading: `argument-hint: [pr] [priority]` and `description: Use when: x`
  // are not YAML, so values with YAML's special characters are read as quoted text.
  if (doc.errors.length > 0) {
    const lenient = parseDocument(quoteSpecialValues(block), { logLevel: 'silent' });
    if (lenient.errors.length === 0) doc = lenient;
  }
  const [error] = doc.errors;
  if (error) {
    const first = error.message.split('\n')[0] ?? error.message;
    throw new ExtensionFileError(path, `the frontmatter is not valid YAML (${first})`);
  }
  const data: unknown = doc.toJS();
  if (data !== null && data !== undefined && !isRecord(data)) {
    throw new ExtensionFileError(
      path,
      `the frontmatter must be a mapping of keys to values, not ${Array.isArray(data) ? 'a list' : typeof data}`,
    );
  }
  return { data: data ?? {}, body: lines.slice(end + 1).join('\n') };
}

const SPECIAL = /[{}[\]*&#!|>%@`]|: /;

function isFlowList(value: string): boolean {
  const doc = parseDocument?.(value, { logLevel: 'silent' });
  return doc !== undefined && doc.errors.length === 0 && Array.isArray(doc.toJS());
}

/** Each `key: value` line whose value is not quoted, not a flow list, and holds a special character: the value double-quoted. */
function quoteSpecialValues(block: string): string {
  return block
    .split('\n')
    .map((line) => {
      const match = /^([a-zA-Z_-]+):\s+(.+)$/.exec(line);
      const [, key, value] = match ?? [];
      if (key === undefined || value === undefined) return line;
      if (/^(".*"|'.*')$/.test(value) || !SPECIAL.test(value)) return line;
      if (/^\[.*\]$/.test(value) && isFlowList(value)) return line;
      return `${key}: "${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
    })
    .map((line) => line.replace(/^\t+/, (tabs) => '  '.repeat(tabs.length)))
    .join('\n');
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Field readers shared by the three kinds of file. Each throws a problem (path filled in by
 * the caller's `fail`) rather than guessing: a `tools` value that is neither a list nor a
 * string could mean "all" or "none", and only its author knows which.
 */
export type Fail = (problem: string) => never;

/** Names are shown to the model and typed by people: one word, as Claude Code names them. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export function requiredText(data: Record<string, unknown>, key: string, fail: Fail): string {
  const value = optionalText(data, key, fail);
  if (value === undefined || value === '') fail(`\`${key}\` is missing or empty`);
  return value ?? '';
}

export function optionalText(data: Record<string, unknown>, key: string, fail: Fail): string | undefined {
  const value = data[key];
  if (value === undefined || value === null) return undefined;
  // YAML reads `name: 2024` as a number; the author meant the text.
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value !== 'string') fail(`\`${key}\` must be text`);
  return String(value).trim();
}

export function checkName(name: string, what: string, fail: Fail): string {
  if (!NAME.test(name)) fail(`${what} ${JSON.stringify(name)} is not a name: use letters, digits, '-' and '_' (64 at most)`);
  return name;
}

/** A list given as YAML list or as one comma-separated string; undefined when absent. */
export function optionalList(
  data: Record<string, unknown>,
  key: string,
  fail: Fail,
  split: (text: string) => string[],
): string[] | undefined {
  const value = data[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return split(value);
  if (Array.isArray(value) && value.every((v): v is string => typeof v === 'string'))
    return value.map((v) => v.trim()).filter((v) => v !== '');
  return fail(`\`${key}\` must be a list of names or one comma-separated string`);
}

/** Splits at commas outside parentheses, so `Bash(git diff a,b)` stays whole. */
export function splitNames(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const c of text) {
    if (c === '(') depth++;
    if (c === ')') depth = Math.max(0, depth - 1);
    if ((c === ',' || c === '\n') && depth === 0) {
      out.push(current);
      current = '';
    } else current += c;
  }
  out.push(current);
  return out.map((s) => s.trim()).filter((s) => s !== '');
}
