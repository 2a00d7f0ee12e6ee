import { promises as fs } from 'node:fs';
import path from 'node:path';
import * as z from '../../core/schema.js';
import { readRegularFile } from './files.js';
import { hiddenNote } from './hidden-note.js';
import { grepSearch, type FileHits, type GrepResult } from './grep-search.js';
import { capText } from '../output.js';
import { defineTool, ToolError } from '../tool.js';
import type { Workspace } from '../workspace.js';

const DEFAULT_HEAD_LIMIT = 250;
const MAX_SHOWN_LINE = 500;
/** Context lines come from reading the file; past this size only the matching lines are shown. */
const MAX_CONTEXT_FILE_BYTES = 20 * 1024 * 1024;

const schema = z.object({
  pattern: z
    .string()
    .check(
      z.minLength(1),
      z.describe('The regular expression to search file contents for (PCRE syntax, as in ripgrep: escape literal "(", "{", ".").'),
    ),
  path: z.optional(z.string()).check(z.describe('The file or directory to search in (default: the workspace root).')),
  glob: z
    .optional(z.string())
    .check(
      z.describe(
        'Only search files matching this glob, e.g. "*.ts" or "src/**/*.{js,jsx}". Without "/" it matches file names at any depth.',
      ),
    ),
  output_mode: z
    ._default(z.optional(z.enum(['content', 'files_with_matches', 'count'])), 'files_with_matches')
    .check(
      z.describe('"files_with_matches" (default) lists matching files, "content" shows matching lines, "count" counts matches per file.'),
    ),
  '-i': z.optional(z.boolean()).check(z.describe('Search case-insensitively.')),
  '-n': z.optional(z.boolean()).check(z.describe('Show line numbers in content mode (default true).')),
  '-C': z
    .optional(z.number().check(z.int(), z.minimum(0), z.maximum(50)))
    .check(z.describe('Lines of context to show before and after each match (content mode only).')),
  head_limit: z
    .optional(z.number().check(z.int(), z.minimum(1)))
    .check(z.describe(`Show at most this many lines or files (default ${DEFAULT_HEAD_LIMIT}).`)),
});

type Input = z.infer<typeof schema>;

interface Rendered {
  lines: string[];
  /** Lines were left out beyond those collected. */
  more: boolean;
}

function shorten(raw: string): string {
  const text = raw.replace(/\r$/, '');
  if (text.length <= MAX_SHOWN_LINE) return text;
  return `${text.slice(0, MAX_SHOWN_LINE)} [... ${text.length - MAX_SHOWN_LINE} more characters]`;
}

/** Line ranges to print: each match widened by context, overlapping ranges merged. */
function hunks(matchLines: number[], context: number, lineCount: number): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (const line of matchLines) {
    const [from, to] = [Math.max(1, line - context), Math.min(lineCount, line + context)];
    const last = ranges[ranges.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else ranges.push([from, to]);
  }
  return ranges;
}

async function fileContent(hits: FileHits, abs: string, shown: string, input: Input): Promise<string[]> {
  const numbered = input['-n'] ?? true;
  // ripgrep's convention: ':' after a matching line's prefix, '-' after a context line's.
  const format = (line: number, text: string, isMatch: boolean): string => {
    const sep = isMatch ? ':' : '-';
    return numbered ? `${shown}${sep}${line}${sep}${shorten(text)}` : `${shown}${sep}${shorten(text)}`;
  };
  const context = input['-C'] ?? 0;
  const bytes = context > 0 ? await readRegularFile(abs, MAX_CONTEXT_FILE_BYTES) : undefined;
  if (!bytes) return hits.matches.map((m) => format(m.line, m.text, true));
  const lines = bytes
    .toString('utf8')
    .split('\n')
    .map((l) => l.replace(/\r$/, ''));
  const matchSet = new Set(hits.matches.map((m) => m.line));
  const out: string[] = [];
  for (const [from, to] of hunks([...matchSet], context, lines.length)) {
    if (out.length > 0) out.push('--');
    for (let n = from; n <= to; n++) out.push(format(n, lines[n - 1] ?? '', matchSet.has(n)));
  }
  return out;
}

async function renderContent(result: GrepResult, input: Input, workspace: Workspace, limit: number): Promise<Rendered> {
  const lines: string[] = [];
  for (const [i, hits] of result.files.entries()) {
    if (lines.length > limit) return { lines, more: true };
    if (i > 0 && (input['-C'] ?? 0) > 0) lines.push('--');
    const abs = path.join(result.base, hits.name);
    lines.push(...(await fileContent(hits, abs, workspace.relative(abs), input)));
  }
  return { lines, more: result.truncated };
}

function renderList(result: GrepResult, input: Input, workspace: Workspace, limit: number): Rendered {
  const lines = result.files.slice(0, limit).map((hits) => {
    const shown = workspace.relative(path.join(result.base, hits.name));
    return input.output_mode === 'count' ? `${shown}:${hits.count}` : shown;
  });
  return { lines, more: result.truncated || result.files.length > limit };
}

function finish(rendered: Rendered, limit: number): string {
  const shown = rendered.lines.slice(0, limit).join('\n');
  if (!rendered.more && rendered.lines.length <= limit) return shown;
  return `${shown}\n[Capped at ${limit} lines; there are more results. Narrow the pattern, path or glob, or raise head_limit.]`;
}

async function searchTarget(input: Input, workspace: Workspace): Promise<{ base: string; file?: string }> {
  const abs = await workspace.resolve(input.path ?? '.', 'read');
  const stat = await fs.stat(abs).catch(() => undefined);
  if (!stat) throw new ToolError(`${workspace.relative(abs)} does not exist. Give a file or directory inside the workspace.`);
  return stat.isDirectory() ? { base: abs } : { base: path.dirname(abs), file: path.basename(abs) };
}

export const grepTool = defineTool({
  name: 'Grep',
  description:
    'Searches file contents with a regular expression (PCRE, like ripgrep). Files ignored by .gitignore and ' +
    'binary files are skipped. output_mode "files_with_matches" (default) lists files, "content" shows ' +
    '"path:line:text" (with -C for context), "count" shows "path:count". Filter files with glob. Paths are ' +
    `relative to the workspace root; results are sorted and capped at head_limit (default ${DEFAULT_HEAD_LIMIT}). ` +
    'Use this instead of grep or rg in Bash.',
  schema,
  readOnly: true,
  keyArgument: 'pattern',
  // A Read deny also refuses searching inside what it covers; widening a deny is always safe.
  ruleTarget: { kind: 'path', field: 'path', absent: '.', governedBy: { tool: 'Read', in: 'deny' } },
  async run(input, ctx) {
    const { base, file } = await searchTarget(input, ctx.workspace);
    const limit = input.head_limit ?? DEFAULT_HEAD_LIMIT;
    const hidden = ctx.hidden;
    const result = await grepSearch({
      pattern: input.pattern,
      ignoreCase: input['-i'] ?? false,
      mode: input.output_mode,
      base,
      file,
      glob: input.glob,
      maxEntries: limit,
      env: ctx.env,
      signal: ctx.signal,
      ...(hidden ? { hidden: (name: string) => hidden(ctx.workspace.relative(path.join(base, name))) } : {}),
    });
    const skipped = hiddenNote(result.hidden ?? 0);
    if (result.files.length === 0) {
      const shown = ctx.workspace.relative(file ? path.join(base, file) : base);
      const where = shown === '.' ? 'the workspace' : shown;
      return `No matches for ${JSON.stringify(input.pattern)} in ${where}${input.glob ? ` (files matching ${input.glob})` : ''}.${skipped}`;
    }
    const rendered =
      input.output_mode === 'content'
        ? await renderContent(result, input, ctx.workspace, limit)
        : renderList(result, input, ctx.workspace, limit);
    return capText(finish(rendered, limit) + skipped, ctx.outputLimit);
  },
});
