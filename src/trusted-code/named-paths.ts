/**
 * The workspace files a trusted command names: the words of a hook's shell command (parsed with
 * unbash, as the permission rules parse Bash) or an MCP server's argv, whose value is known
 * without running anything and resolves inside the workspace. `$CLAUDE_PROJECT_DIR` is the
 * workspace, as Claude Code documents for hooks. Knowing where each word sits lets a command be
 * rewritten to the trusted copies without changing anything else in it.
 */
import path from 'node:path';
import { parse } from 'unbash';
import type { Word, WordPart } from 'unbash';
import { isInside } from '../core/paths.js';

const PROJECT_DIR = 'CLAUDE_PROJECT_DIR';

/** One word of a command that names a path inside the workspace. */
export interface NamedPath {
  /** Relative to the workspace, `/`-separated, normalised (`.claude/hooks/guard.sh`). */
  path: string;
  /** Where the word sits in the command text. */
  pos: number;
  end: number;
}

/** The value of one part after quote removal, `$CLAUDE_PROJECT_DIR` expanded; undefined when it needs the shell. */
function partValue(part: WordPart, workspace: string): string | undefined {
  switch (part.type) {
    case 'Literal':
    case 'SingleQuoted':
    case 'AnsiCQuoted':
      return part.value;
    case 'DoubleQuoted':
      return partsValue(part.parts, workspace);
    case 'SimpleExpansion':
      return part.text === `$${PROJECT_DIR}` ? workspace : undefined;
    case 'ParameterExpansion':
      return part.parameter === PROJECT_DIR && !part.prefix && !part.index && !part.operation ? workspace : undefined;
    default:
      return undefined;
  }
}

function partsValue(parts: readonly WordPart[], workspace: string): string | undefined {
  let out = '';
  for (const part of parts) {
    const value = partValue(part, workspace);
    if (value === undefined) return undefined;
    out += value;
  }
  return out;
}

/** A word's value, or undefined when only running the shell would tell (globs, other variables, `~`). */
function wordValue(word: Word, workspace: string): string | undefined {
  if (!word.parts) return word.text.startsWith('~') ? undefined : word.value;
  const first = word.parts[0];
  if (first?.type === 'Literal' && first.value.startsWith('~')) return undefined;
  return partsValue(word.parts, workspace);
}

/** A value as a workspace-relative path, when it names something inside the workspace (not the workspace itself). */
export function insideWorkspace(value: string, workspace: string): string | undefined {
  if (value === '' || value.startsWith('-') || value.includes('\0')) return undefined;
  const abs = path.resolve(workspace, value);
  if (abs === workspace || !isInside(abs, workspace)) return undefined;
  return path.relative(workspace, abs).split(path.sep).join('/');
}

function isNode(value: unknown): value is { type: string } {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/**
 * A node's children: its own keys, and the getters of its prototype, behind which unbash parses
 * lazily (a word's parts, a command's redirections, a substitution's script). `args` repeats a
 * command's name and suffix.
 */
function childKeys(node: object): string[] {
  const proto: unknown = Object.getPrototypeOf(node);
  const lazy =
    proto && proto !== Object.prototype
      ? Object.entries(Object.getOwnPropertyDescriptors(proto))
          .filter(([key, d]) => d.get !== undefined && key !== 'args')
          .map(([key]) => key)
      : [];
  return [...Object.keys(node), ...lazy];
}

type PlacedWord = Word & { pos: number; end: number };

/** Every Word of the tree, each with whether it is a command's name (`bash` in `bash x.sh`). */
function collectWords(node: unknown, out: { word: PlacedWord; name: boolean }[], name = false): void {
  if (Array.isArray(node)) {
    for (const item of node) collectWords(item, out);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  if (isNode(node) && node.type === 'Word') out.push({ word: node as PlacedWord, name });
  for (const key of childKeys(node)) {
    // Nested scripts (`$(cat x)`) carry positions in the whole command's text, so their words count too.
    collectWords((node as Record<string, unknown>)[key], out, isNode(node) && node.type === 'Command' && key === 'name');
  }
}

/**
 * The paths a shell command names inside the workspace. A command's name counts only with a `/`
 * in it (`./tools/x.sh`): a bare `node` is looked up on PATH, not in the workspace. A command
 * that does not parse names nothing (the hook then runs as it is and fails as bash would).
 */
export function commandPaths(command: string, workspace: string): NamedPath[] {
  const script = parse(command);
  if (script.errors?.length) return [];
  const words: { word: PlacedWord; name: boolean }[] = [];
  collectWords(script.commands, words);
  const out: NamedPath[] = [];
  const seen = new Set<number>();
  for (const { word, name } of words) {
    // A node may be reachable twice (a redirection's target is also behind a getter): once per place.
    if (seen.has(word.pos)) continue;
    seen.add(word.pos);
    const value = wordValue(word, workspace);
    if (value === undefined || (name && !value.includes('/'))) continue;
    const rel = insideWorkspace(value, workspace);
    if (rel !== undefined) out.push({ path: rel, pos: word.pos, end: word.end });
  }
  return out;
}

/** The paths an argv names (an MCP server's command and args, no shell between): the command only with a `/`. */
export function argvPaths(argv: readonly string[], workspace: string): (string | undefined)[] {
  return argv.map((arg, i) => (i === 0 && !arg.includes('/') ? undefined : insideWorkspace(arg, workspace)));
}

/** A path as one single-quoted shell word. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The command with each named path's word replaced by what `replace` gives it (quoted), the rest as it was. */
export function rewriteCommand(command: string, named: readonly NamedPath[], replace: (rel: string) => string | undefined): string {
  let out = '';
  let at = 0;
  for (const n of [...named].sort((a, b) => a.pos - b.pos)) {
    const to = replace(n.path);
    if (to === undefined || n.pos < at) continue;
    out += command.slice(at, n.pos) + shellQuote(to);
    at = n.end;
  }
  return out + command.slice(at);
}
