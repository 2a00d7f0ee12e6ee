import { lstatSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import * as z from '../../core/schema.js';
import { listTaggedCandidates, requireDirectory } from './files.js';
import { expandBraces } from './grep-git.js';
import { hiddenNote } from './hidden-note.js';
import { PathList } from './path-list.js';
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

/** A literal without glob syntax or '/': `.ts`, `.test.ts`. */
const LITERAL = /^[^*?[\]{}()!+@\\/]+$/;

interface GlobPlan {
  /** What git is asked to list. */
  pathspecs: string[];
  /** The literal endings every match has, when each alternative ends in `*` and a literal. */
  endings?: string[];
  /** The full expression's test, unless the endings alone decide. */
  test?: (path: string) => boolean;
}

/**
 * How a pattern is matched over git's list. Where every alternative is `**\/*` and a literal, the
 * ending alone decides (git lists no '.' or '..' segment and no trailing '/', the two things the
 * expression would also look at), and git is asked for `*<ending>` pathspecs: its `*` crosses
 * directories, and one leading `*` it compares as a suffix, faster than listing everything.
 * Otherwise git lists the pattern's literal directories (its walk for untracked files stays in
 * them), or the whole tree when a pattern starts with a glob, and one compiled expression decides:
 * git's `:(glob)` pathspecs match more slowly than that.
 */
function planFor(pattern: string): GlobPlan {
  const full = (): ((path: string) => boolean) => {
    const matcher = picomatch.makeRe(pattern, { dot: true });
    return (file) => matcher.test(file);
  };
  // Extglobs (`+(a|b)`, `!(x)`) may hold a '/' of their own and end in a literal that means more.
  if (/[!@+*?]\(/.test(pattern)) return { pathspecs: [], test: full() };
  const alternatives = expandBraces(pattern);
  const tails = alternatives.map((p) => /\*([^*?[\]{}()!+@\\/]+)$/.exec(p)?.[1]);
  const endings = tails.every((tail) => tail !== undefined) ? [...new Set(tails)] : undefined;
  if (endings && alternatives.every((p) => p.startsWith('**/*') && LITERAL.test(p.slice(4)))) {
    return { pathspecs: endings.map((ending) => `*${ending}`), endings };
  }
  const dirs = alternatives.map(literalDirectory);
  const pathspecs = dirs.includes('') ? [] : [...new Set(dirs)].map((dir) => `:(literal)${dir}`);
  return { pathspecs, endings, test: full() };
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
    const plan = planFor(pattern);
    const listing = await listTaggedCandidates(base, ctx.env, ctx.signal, plan.pathspecs);
    const found = PathList.matching(listing, plan.endings, plan.test);
    // Only what is shown becomes a string, and with deny rules what they are checked against.
    const hidden = ctx.hidden;
    const shownFiles: string[] = [];
    let hiddenCount = 0;
    let gone = 0;
    found.forEachInOrder((file) => {
      if (hidden?.(prefix + file)) hiddenCount++;
      // Once the list is full, only deny rules need the rest of the paths, to count what they hide.
      else if (shownFiles.length === MAX_RESULTS) return hidden !== undefined;
      // Files deleted but still in git's index are dropped here, with a stat of only what is shown.
      else if (exists(path.join(base, file))) shownFiles.push(prefix + file);
      else gone++;
      return true;
    });
    const skipped = hiddenNote(hiddenCount);
    if (shownFiles.length === 0) return noMatches(pattern, shown) + skipped;
    const listed = shownFiles.join('\n');
    const more = found.length - hiddenCount - shownFiles.length - gone;
    if (more <= 0) return listed + skipped;
    return `${listed}\n[${more} more files not shown. Narrow the pattern or give a path to see them.]${skipped}`;
  },
});
