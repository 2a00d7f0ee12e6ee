import { lstatSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import * as z from '../../core/schema.js';
import { comparePaths, listCandidates, requireDirectory } from './files.js';
import { expandBraces } from './grep-git.js';
import { hiddenNote } from './hidden-note.js';
import { defineTool, ToolError } from '../tool.js';

const MAX_RESULTS = 100;

const schema = z.object({
  pattern: z
    .string()
    .check(z.minLength(1), z.describe('The glob to match file paths against, relative to path, e.g. "**/*.ts" or "src/**/*.{js,jsx}".')),
  path: z
    .optional(z.string())
    .check(z.describe('The directory to search in (default: the workspace root). Omit it to search the whole workspace.')),
});

/** The pattern relative to base: models often pass absolute patterns that repeat the directory. */
function relativePattern(pattern: string, base: string): string {
  if (!path.isAbsolute(pattern)) return pattern.replace(/^(\.\/)+/, '');
  if (pattern.startsWith(`${base}/`)) return pattern.slice(base.length + 1);
  throw new ToolError(`The pattern ${pattern} is an absolute path outside the search directory ${base}. Give a pattern relative to path.`);
}

/** lstat without the thread pool: up to 100 of them in a row, each a few microseconds, where a round trip costs more. */
function exists(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/** The leading directories of a pattern that hold no glob syntax (`src/lib` of `src/lib/**\/*.ts`), or '' when it starts with one. */
function literalDirectory(pattern: string): string {
  const dirs = pattern.split('/').slice(0, -1);
  const firstGlob = dirs.findIndex((part) => /[*?[\]{}()!+@\\]/.test(part));
  return (firstGlob === -1 ? dirs : dirs.slice(0, firstGlob)).join('/');
}

/**
 * What git is asked to list: the pattern's literal directories, so its walk for untracked files
 * stays inside them; the whole tree when a pattern starts with a glob. git's own glob pathspecs
 * match more slowly than one compiled regular expression over its list, so the glob is matched here.
 */
function pathspecsFor(pattern: string): string[] {
  // Extglobs (`+(a|b)`, `!(x)`) may hold a '/' of their own: those list everything.
  if (/[!@+*?]\(/.test(pattern)) return [];
  const dirs = expandBraces(pattern).map(literalDirectory);
  return dirs.includes('') ? [] : [...new Set(dirs)].map((dir) => `:(literal)${dir}`);
}

/**
 * The literal ending every match must have (`.ts` of `**\/*.ts`), when each alternative of the
 * pattern ends in `*` and a literal: a cheap test that spares the full expression most paths.
 */
function literalEndings(pattern: string): string[] | undefined {
  if (/[!@+*?]\(/.test(pattern)) return undefined;
  const alternatives = expandBraces(pattern);
  const endings = alternatives.flatMap((p) => /\*([^*?[\]{}()!+@\\/]+)$/.exec(p)?.[1] ?? []);
  return endings.length === alternatives.length ? [...new Set(endings)] : undefined;
}

/** The paths that match, with the literal ending tested first where there is one. */
function matchingPaths(files: readonly string[], pattern: string): string[] {
  // git's paths carry no './' to strip, so the compiled expression alone decides (as picomatch's matcher would).
  const matcher = picomatch.makeRe(pattern, { dot: true });
  const endings = literalEndings(pattern);
  if (!endings) return files.filter((file) => matcher.test(file));
  const [only] = endings;
  if (endings.length === 1) return files.filter((file) => file.endsWith(only!) && matcher.test(file));
  return files.filter((file) => endings.some((e) => file.endsWith(e)) && matcher.test(file));
}

/** Sorted, each path once: git lists the index in order, then the untracked files in order, so a check usually suffices. */
function sortedUnique(paths: string[]): string[] {
  let sorted = true;
  let repeated = false;
  for (let i = 1; i < paths.length && sorted; i++) {
    const order = comparePaths(paths[i - 1]!, paths[i]!);
    if (order > 0) sorted = false;
    else if (order === 0) repeated = true;
  }
  const inOrder = sorted ? paths : paths.sort(comparePaths);
  return sorted && !repeated ? inOrder : inOrder.filter((file, i, all) => i === 0 || all[i - 1] !== file);
}

function noMatches(pattern: string, shown: string): string {
  const hint = pattern.includes('/') ? '' : ` "*" does not cross directories: use "**/${pattern}" to search subdirectories too.`;
  return `No files match "${pattern}" under ${shown}.${hint}`;
}

export const globTool = defineTool({
  name: 'Glob',
  description:
    'Finds files by name with a glob pattern ("**/*.ts", "src/**/test_*.py", "*.{json,yml}"). "*" matches ' +
    'within one directory, "**/" any number of directories. Files ignored by .gitignore are skipped. ' +
    `Returns paths relative to the workspace root, sorted, at most ${MAX_RESULTS}. Use Grep to search file contents.`,
  schema,
  readOnly: true,
  keyArgument: 'pattern',
  // A Read deny also refuses searching inside what it covers; widening a deny is always safe.
  ruleTarget: { kind: 'path', field: 'path', absent: '.', governedBy: { tool: 'Read', in: 'deny' } },
  async run(input, ctx) {
    const base = await ctx.workspace.resolve(input.path ?? '.', 'read');
    const shown = ctx.workspace.relative(base);
    await requireDirectory(base, shown);
    const pattern = relativePattern(input.pattern, base);
    const prefix = shown === '.' ? '' : `${shown}/`;
    const found = await listCandidates(base, ctx.env, ctx.signal, { pathspecs: pathspecsFor(pattern), keepDeleted: true });
    const unique = sortedUnique(matchingPaths(found.files, pattern));
    const hidden = ctx.hidden;
    const candidates = hidden ? unique.filter((file) => !hidden(prefix + file)) : unique;
    const skipped = hiddenNote(unique.length - candidates.length);
    // Files deleted but still in git's index are dropped here, with a stat of only what is shown.
    const shownFiles: string[] = [];
    let gone = 0;
    for (const file of candidates) {
      if (shownFiles.length >= MAX_RESULTS) break;
      if (exists(path.join(base, file))) shownFiles.push(prefix + file);
      else gone++;
    }
    if (shownFiles.length === 0) return noMatches(pattern, shown) + skipped;
    const listed = shownFiles.join('\n');
    const more = candidates.length - shownFiles.length - gone;
    if (more <= 0) return listed + skipped;
    return `${listed}\n[${more} more files not shown. Narrow the pattern or give a path to see them.]${skipped}`;
  },
});
