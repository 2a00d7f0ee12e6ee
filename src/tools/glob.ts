import path from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import { comparePaths, listFiles, requireDirectory } from './files.js';
import { defineTool, ToolError } from './registry.js';

const MAX_RESULTS = 100;

const schema = z.object({
  pattern: z
    .string()
    .min(1)
    .describe('The glob to match file paths against, relative to path, e.g. "**/*.ts" or "src/**/*.{js,jsx}".'),
  path: z
    .string()
    .optional()
    .describe('The directory to search in (default: the workspace root). Omit it to search the whole workspace.'),
});

/** The pattern relative to base: models often pass absolute patterns that repeat the directory. */
function relativePattern(pattern: string, base: string): string {
  if (!path.isAbsolute(pattern)) return pattern.replace(/^(\.\/)+/, '');
  if (pattern.startsWith(`${base}/`)) return pattern.slice(base.length + 1);
  throw new ToolError(
    `The pattern ${pattern} is an absolute path outside the search directory ${base}. Give a pattern relative to path.`,
  );
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
  async run(input, ctx) {
    const base = await ctx.workspace.resolve(input.path ?? '.', 'read');
    const shown = ctx.workspace.relative(base);
    await requireDirectory(base, shown);
    const pattern = relativePattern(input.pattern, base);
    const isMatch = picomatch(pattern, { dot: true });
    const files = (await listFiles(base, ctx.env, ctx.signal))
      .filter((file) => isMatch(file))
      .map((file) => ctx.workspace.relative(path.join(base, file)))
      .sort(comparePaths);
    if (files.length === 0) return noMatches(pattern, shown);
    const listed = files.slice(0, MAX_RESULTS).join('\n');
    if (files.length <= MAX_RESULTS) return listed;
    const more = files.length - MAX_RESULTS;
    return `${listed}\n[${more} more files not shown. Narrow the pattern or give a path to see them.]`;
  },
});
