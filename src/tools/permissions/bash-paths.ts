import os from 'node:os';
import path from 'node:path';
import { parse } from 'unbash';
import { denyPatterns } from './hidden.js';
import { locate, matchesPath, patternSet, realPathSync, type PathCandidate, type PathPattern, type PatternSet } from './paths.js';
import type { BashPathCheck, PathHit, Rule, Rules } from './rule-types.js';

export type { BashPathCheck, PathHit } from './rule-types.js';

/**
 * Without a sandbox, the Read and Edit deny rules reach Bash only through the words of its
 * commands, as Claude Code does it: a command is refused when any word (or a piece of one:
 * `node -e "readFileSync('.env')"`, `--file=.env`, `F=.env`), command-substitution or
 * redirection names a Read-denied path, or when a command that writes (`cp`, `mv`, `sed -i`,
 * `tee`, an interpreter) or a `>` redirection names an Edit-denied one. Best effort: an
 * expansion (`cat $F`, `cat .e*`) is not evaluated, which is what the sandbox is for.
 */

/** Commands that change files named in their arguments, and interpreters, which can change any. */
const WRITERS = new Set(
  (
    'cp mv rm touch tee ln install rsync chmod chown chgrp truncate mkdir rmdir dd patch unlink shred ' +
    'tar unzip gunzip git node python python3 perl ruby php deno bun awk gawk'
  ).split(' '),
);
/** sed and perl write only with -i. */
const IN_PLACE = new Set(['sed', 'perl']);
const WRITE_OPERATORS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);
/** What separates path-like pieces inside a word (quotes, code punctuation, `--opt=`). */
const PIECES = /[\s'"`(),;=<>|&{}[\]]+/;
const GLOB = /[*?[]/;

interface Denies {
  list: { rule: Rule; pattern: PathPattern }[];
  /** All of them at once: most words match none, and this says so in one test. */
  any: PatternSet;
}

interface Patterns {
  read: Denies;
  edit: Denies;
}

function denies(list: Denies['list']): Denies {
  return { list, any: patternSet(list.map((d) => d.pattern)) };
}

function basename(value: string): string {
  return value.slice(value.lastIndexOf('/') + 1);
}

/** The path-like strings a word may name: itself, its pieces, a glob's literal directory. */
function pieces(value: string, home: string): string[] {
  const all = [value, ...value.split(PIECES)].filter((p) => p !== '' && !p.includes('\0'));
  return [
    ...new Set(
      all.map((p) => {
        const glob = p.search(GLOB);
        const literal = glob === -1 ? p : p.slice(0, Math.max(0, p.lastIndexOf('/', glob)));
        return literal.startsWith('~/') ? path.join(home, literal.slice(2)) : literal;
      }),
    ),
  ].filter((p) => p !== '');
}

function candidates(p: string, root: string): PathCandidate[] {
  const lexical = locate(p, root);
  const real = realPathSync(lexical.absolute);
  const realRoot = realPathSync(root) ?? root;
  return real === undefined ? [lexical] : [lexical, locate(real, realRoot)];
}

function hit(word: string, d: Denies, root: string, home: string): PathHit | undefined {
  for (const piece of pieces(word, home)) {
    const found = candidates(piece, root);
    if (!found.some((c) => d.any.matches(c))) continue;
    const deny = d.list.find(({ pattern }) => found.some((c) => matchesPath(pattern, c)));
    if (deny) return { rule: deny.rule, word };
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Every node under node, depth first (the AST is a tree; nested scripts included). */
function* nodes(node: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(node)) for (const item of node) yield* nodes(item);
  else if (isRecord(node)) {
    yield node;
    for (const value of Object.values(node)) yield* nodes(value);
  }
}

interface WordNode {
  type: 'Word';
  value: string;
}

function isWord(node: unknown): node is WordNode {
  return isRecord(node) && node['type'] === 'Word' && typeof node['value'] === 'string';
}

/** A command's own words (name, arguments, assignments' values), not those of commands nested in it. */
function commandWords(node: Record<string, unknown>): string[] {
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
  return [node['name'], ...list(node['suffix']), ...list(node['prefix'])].flatMap((item) => {
    if (isWord(item)) return [item.value];
    const value = isRecord(item) && item['type'] === 'Assignment' ? item['value'] : undefined;
    return isWord(value) ? [value.value] : [];
  });
}

function writes(words: readonly string[]): boolean {
  return words.some(
    (w, i) => WRITERS.has(basename(w)) || (IN_PLACE.has(basename(w)) && words.slice(i + 1).some((a) => /^(-i|--in-place)/.test(a))),
  );
}

/** Words that a writing command or a write redirection may write to. */
function writtenWords(tree: unknown): string[] {
  const out: string[] = [];
  for (const node of nodes(tree)) {
    const words = node['type'] === 'Command' ? commandWords(node) : [];
    if (writes(words)) out.push(...words);
    const target = node['target'];
    if (node['type'] === 'Redirect' && WRITE_OPERATORS.has(String(node['operator'])) && isWord(target)) out.push(target.value);
  }
  return out;
}

function check(patterns: Patterns, command: string, root: string, home: string): ReturnType<BashPathCheck> {
  const parsed = parse(command);
  const error = parsed.errors?.[0];
  if (error) return { unparsable: `${error.message} at offset ${error.pos}` };
  // unbash computes some fields lazily (an assignment's value); its JSON form holds them all.
  const script: unknown = JSON.parse(JSON.stringify(parsed));
  const words = [...nodes(script)].flatMap((n) => (isWord(n) ? [n.value] : []));
  for (const word of words) {
    const found = hit(word, patterns.read, root, home);
    if (found) return found;
  }
  if (patterns.edit.list.length === 0) return undefined;
  for (const word of writtenWords(script)) {
    const found = hit(word, patterns.edit, root, home);
    if (found) return found;
  }
  return undefined;
}

/** The check for these rules, or undefined when no Read or Edit deny rule has a path to protect. */
export function bashPathCheck(rules: Pick<Rules, 'deny'>, home = os.homedir()): BashPathCheck | undefined {
  const all = { allow: [], ...rules };
  const patterns = { read: denies(denyPatterns(all, 'Read', home)), edit: denies(denyPatterns(all, 'Edit', home)) };
  if (patterns.read.list.length === 0 && patterns.edit.list.length === 0) return undefined;
  return (command, root) => check(patterns, command, root, home);
}
