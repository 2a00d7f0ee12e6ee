import { parse } from 'unbash';
import type { Assignment, Word } from 'unbash';

/**
 * Bash rule specifiers, parsed with the same shell grammar as the commands they are matched
 * against, so both sides are compared word by word in their source spelling:
 * - `npm test` matches exactly the words `npm test`;
 * - `npm test:*` matches `npm test` and `npm test <anything>` (a prefix at a word boundary);
 * - an unquoted `*` is a wildcard for any text, spaces included (`git diff *`, `ls*`); a trailing
 *   ` *` also matches nothing, like `:*`. A quoted or escaped `*` is a literal star.
 * Words are joined with a NUL (which no command contains), so `npm\ test` (one word) never
 * matches `npm test` (two), and `"npm" test` never matches either: spelling counts, which can
 * only refuse more. Everything else a shell could expand is refused in a rule.
 */
export interface BashPattern {
  readonly regex: RegExp;
}

const WILD = Symbol('wildcard');
type Chunk = string | typeof WILD;

/** More wildcards than this could make a match slow (each may backtrack over the others). */
const MAX_WILDCARDS = 8;

function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}

function wordChunks(word: Word): Chunk[] {
  if (!word.parts) return [word.text];
  const chunks: Chunk[] = [];
  for (const part of word.parts) {
    switch (part.type) {
      case 'Glob':
        if (part.kind !== 'star') throw new Error(`only * is a wildcard in a Bash rule: quote ${part.text} to match it literally`);
        chunks.push(WILD);
        break;
      case 'DoubleQuoted':
        if (!part.parts.every((c) => c.type === 'Literal')) throw new Error(`${part.text} expands, which a rule cannot`);
        chunks.push(part.text);
        break;
      case 'Literal':
      case 'SingleQuoted':
      case 'AnsiCQuoted':
      case 'BraceExpansion':
        chunks.push(part.text);
        break;
      default:
        throw new Error(`${part.text} is an expansion or substitution, which a rule cannot contain`);
    }
  }
  if (chunks.map((c) => (c === WILD ? '*' : c)).join('') !== word.text) throw new Error(`the word ${word.text} cannot be read`);
  return chunks;
}

function assignmentChunks(a: Assignment): Chunk[] {
  const value = a.value;
  if (a.index || value.type !== 'Word' || !a.text.endsWith(value.text)) {
    throw new Error(`the assignment ${a.text} cannot appear in a rule`);
  }
  return [a.text.slice(0, a.text.length - value.text.length), ...wordChunks(value)];
}

/** The specifier's words, each as literal chunks and wildcards; throws on anything else. */
function specifierWords(body: string): Chunk[][] {
  const script = parse(body);
  const error = script.errors?.[0];
  if (error) throw new Error(`it cannot be parsed as a shell command (${error.message})`);
  const statement = script.commands[0];
  if (script.commands.length !== 1 || !statement || statement.background) {
    throw new Error('a Bash rule names one simple command: write one rule for each command');
  }
  const cmd = statement.command;
  if (cmd.type !== 'Command') throw new Error('a Bash rule names one simple command, not a pipeline, list or compound command');
  if (cmd.redirects.length > 0) throw new Error('a Bash rule cannot contain redirections (they are checked on their own)');
  const items = [...cmd.prefix, ...(cmd.name ? [cmd.name] : []), ...cmd.suffix].sort((a, b) => a.pos - b.pos);
  return items.map((item) => (item.type === 'Assignment' ? assignmentChunks(item) : item.type === 'Word' ? wordChunks(item) : []));
}

/** Compiles a Bash rule's specifier, or throws saying what is wrong with it. */
export function compileBashSpecifier(specifier: string): BashPattern {
  const prefix = specifier.endsWith(':*');
  const body = (prefix ? specifier.slice(0, -2) : specifier).trim();
  if (body === '') throw new Error('there is no command before :*');
  if (body.includes('\0')) throw new Error('a rule cannot contain a NUL byte');
  const words = specifierWords(body);
  if (words.flat().filter((c) => c === WILD).length > MAX_WILDCARDS) throw new Error(`a rule can have at most ${MAX_WILDCARDS} wildcards`);
  const sources = words.map((chunks) => chunks.map((c) => (c === WILD ? '[\\s\\S]*' : escapeRegex(c))).join(''));
  const last = words[words.length - 1];
  const trailingWild = words.length > 1 && last?.length === 1 && last[0] === WILD;
  const optionalRest = '(?:\\x00[\\s\\S]*)?';
  let source: string;
  if (prefix) source = sources.join('\\x00') + optionalRest;
  else if (trailingWild) source = sources.slice(0, -1).join('\\x00') + optionalRest;
  else source = sources.join('\\x00');
  return { regex: new RegExp(`^${source}$`) };
}

/** Whether a command's words (see bash-commands.ts for which spelling) match the pattern. */
export function matchesBashPattern(pattern: BashPattern, words: readonly string[]): boolean {
  return words.length > 0 && !words.some((w) => w.includes('\0')) && pattern.regex.test(words.join('\0'));
}

export { splitCommandLine } from './bash.js';
export { allowWordLists, denyWordLists } from './bash-commands.js';
export { readOnlyCommand } from './bash-approve.js';
