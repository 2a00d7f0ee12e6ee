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
    const isMatch = picomatch(pattern, { dot: true });
    // git narrows the list with glob pathspecs (in C, on 100,000 files that is most of the work);
    // picomatch then decides exactly, so both walks of the tree agree.
    // Extglobs (`+(a|b)`, `!(x)`) have no pathspec form: those list everything and filter here.
    const specs = /[!@+*?]\(/.test(pattern) ? [] : expandBraces(pattern).map((p) => `:(glob)${p}`);
    const prefix = shown === '.' ? '' : `${shown}/`;
    const found = await listCandidates(base, ctx.env, ctx.signal, { pathspecs: specs, keepDeleted: true });
    // git's glob pathspecs follow the same rules as picomatch here (**, *, ?, [], braces expanded).
    const matching = found.matched ? found.files : found.files.filter((file) => isMatch(file));
    // git lists the index in order, then the untracked files in order: usually sorted already.
    const sorted = matching.every((file, i) => i === 0 || comparePaths(matching[i - 1]!, file) <= 0)
      ? matching
      : matching.sort(comparePaths);
    const unique = sorted.filter((file, i, all) => i === 0 || all[i - 1] !== file);
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
