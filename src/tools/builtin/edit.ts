import { promises as fs } from 'node:fs';
import path from 'node:path';
import * as z from '../../core/schema.js';
import { defineTool, ToolError } from '../tool.js';
import { editResponse } from './hook-response.js';

const SNIPPET_CONTEXT = 3;

const schema = z.object({
  file_path: z
    .string()
    .check(z.minLength(1), z.describe('The file to modify: an absolute path, or a path relative to the workspace root.')),
  old_string: z
    .string()
    .check(
      z.describe(
        'The exact text to replace, including indentation and line breaks, without Read line-number prefixes. ' +
          'It must occur exactly once unless replace_all is true; include surrounding lines to make it unique.',
      ),
    ),
  new_string: z.string().check(z.describe('The text to put in its place (must differ from old_string).')),
  replace_all: z
    ._default(z.optional(z.boolean()), false)
    .check(z.describe('Replace every occurrence of old_string instead of requiring exactly one (default false).')),
});

function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) count += 1;
  return count;
}

function lineAt(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

/** Numbered lines around the replacement, so the model can check the result without a Read. */
function snippet(text: string, start: number, length: number): string {
  const lines = text.split('\n');
  const first = Math.max(1, lineAt(text, start) - SNIPPET_CONTEXT);
  // A long replacement is shown by its start; the model wrote it and only needs to see it landed.
  const last = Math.min(lines.length, lineAt(text, start + length) + SNIPPET_CONTEXT, first + 40);
  return lines
    .slice(first - 1, last)
    .map((line, i) => `${String(first + i).padStart(6)}\t${line.replace(/\r$/, '')}`)
    .join('\n');
}

/** Line numbers where the first line of old_string appears ignoring indentation: a hint, not a match. */
function looseMatchLines(content: string, oldString: string): number[] {
  const squash = (s: string): string => s.trim().replace(/\s+/g, ' ');
  const firstLine = oldString
    .split('\n')
    .map(squash)
    .find((line) => line.length > 0);
  if (!firstLine) return [];
  const found: number[] = [];
  content.split('\n').forEach((line, i) => {
    if (squash(line) === firstLine && found.length < 5) found.push(i + 1);
  });
  return found;
}

function noMatchError(shown: string, content: string, oldString: string): ToolError {
  const lines = looseMatchLines(content, oldString);
  const hint =
    lines.length > 0
      ? ` A similar line differing only in whitespace is at line ${lines.join(', ')}: Read it and copy the text exactly (indentation, tabs, spaces).`
      : ' Read the file again and copy old_string exactly as it appears now.';
  return new ToolError(`old_string was not found in ${shown}.${hint}`);
}

async function readUtf8(abs: string, shown: string): Promise<string | undefined> {
  const stat = await fs.stat(abs).catch(() => undefined);
  if (stat && !stat.isFile() && !stat.isDirectory()) throw new ToolError(`${shown} is not a regular file; Edit only edits files.`);
  const bytes = await fs.readFile(abs).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    if (error.code === 'EISDIR') throw new ToolError(`${shown} is a directory, not a file.`);
    throw error;
  });
  if (bytes === undefined) return undefined;
  const text = bytes.toString('utf8');
  // Writing back a decoded non-UTF-8 file would silently replace its bytes with U+FFFD.
  if (!Buffer.from(text, 'utf8').equals(bytes)) {
    throw new ToolError(`${shown} is not valid UTF-8 text; Edit would corrupt it. Use Bash (e.g. sed) instead.`);
  }
  return text;
}

interface Change {
  content: string;
  /** Where the (first) replacement starts in the new content, and its length. */
  at: number;
  length: number;
  count: number;
}

function applyEdit(content: string, oldString: string, newString: string, replaceAll: boolean, shown: string): Change {
  let [from, to] = [oldString, newString];
  let count = countOccurrences(content, from);
  if (count === 0 && content.includes('\r\n') && from.includes('\n') && !from.includes('\r')) {
    // Read shows CRLF files without their CRs, so match the line endings the file really has.
    [from, to] = [from.replace(/\n/g, '\r\n'), to.replace(/\n/g, '\r\n')];
    count = countOccurrences(content, from);
  }
  if (count === 0) throw noMatchError(shown, content, oldString);
  if (count > 1 && !replaceAll) {
    throw new ToolError(
      `old_string occurs ${count} times in ${shown}. Add surrounding lines to old_string so it matches exactly once, ` +
        'or set replace_all to true to replace every occurrence.',
    );
  }
  const at = content.indexOf(from);
  // split/join and slicing, not String.replace, so `$&` and friends in new_string stay literal.
  const next = replaceAll ? content.split(from).join(to) : content.slice(0, at) + to + content.slice(at + from.length);
  return { content: next, at, length: to.length, count: replaceAll ? count : 1 };
}

async function createFile(abs: string, content: string): Promise<void> {
  await fs.mkdir(path.dirname(abs), { recursive: true });
  await fs.writeFile(abs, content, 'utf8');
}

export const editTool = defineTool({
  name: 'Edit',
  description:
    'Replaces exact text in a file. old_string must match the file character for character (indentation ' +
    'included, Read line-number prefixes excluded) and occur exactly once, unless replace_all is true. ' +
    'An empty old_string creates a file that does not exist yet. Read the file before editing it. ' +
    'The result shows the edited lines with their numbers.',
  schema,
  readOnly: false,
  keyArgument: 'file_path',
  writesFile: 'file_path',
  ruleTarget: { kind: 'path', field: 'file_path' },
  changesWorkspace: true,
  async run(input, ctx) {
    if (input.old_string === input.new_string) {
      throw new ToolError('old_string and new_string are identical, so there is nothing to change.');
    }
    const abs = await ctx.workspace.resolve(input.file_path, 'write');
    const shown = ctx.workspace.relative(abs);
    const content = await readUtf8(abs, shown);
    if (content === undefined || (input.old_string === '' && content === '')) {
      if (input.old_string !== '') {
        throw new ToolError(`${shown} does not exist. Use Write to create it, or Glob to find the file you meant.`);
      }
      await createFile(abs, input.new_string);
      return `${content === undefined ? 'Created' : 'Wrote'} ${shown}.`;
    }
    if (input.old_string === '') {
      throw new ToolError(
        `old_string is empty but ${shown} already has content. Give the exact text to replace, or use Write to replace the whole file.`,
      );
    }
    const change = applyEdit(content, input.old_string, input.new_string, input.replace_all, shown);
    await fs.writeFile(abs, change.content, 'utf8');
    const what = change.count === 1 ? 'Replaced 1 occurrence' : `Replaced ${change.count} occurrences (the first shown)`;
    const text = `Edited ${shown}. ${what}:\n${snippet(change.content, change.at, change.length)}`;
    return { text, hookResponse: editResponse(abs, input, content, change.content) };
  },
});
