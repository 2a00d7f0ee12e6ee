import { promises as fs } from 'node:fs';
import path from 'node:path';
import * as z from '../../core/schema.js';
import { defineTool, ToolError } from '../tool.js';
import { writeResponse } from './hook-response.js';

/** Bytes of an overwritten file kept for a hook's originalFile. */
const ORIGINAL_LIMIT = 1024 * 1024;

const schema = z.object({
  file_path: z.string().check(z.minLength(1), z.describe('The file to write: an absolute path, or a path relative to the workspace root.')),
  content: z.string().check(z.describe('The complete new content of the file.')),
});

/** Lines as an editor counts them: a final newline ends the last line rather than starting one. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}

export const writeTool = defineTool({
  name: 'Write',
  description:
    'Writes a file in the workspace, replacing it entirely if it exists and creating missing parent ' +
    'directories. Prefer Edit for changing part of an existing file; use Write for new files or full ' +
    'rewrites. Read an existing file before overwriting it.',
  schema,
  readOnly: false,
  keyArgument: 'file_path',
  writesFile: 'file_path',
  ruleTarget: { kind: 'path', field: 'file_path', governedBy: { tool: 'Edit', in: 'allow and deny' } },
  changesWorkspace: true,
  async run(input, ctx) {
    const abs = await ctx.workspace.resolve(input.file_path, 'write');
    const shown = ctx.workspace.relative(abs);
    const existing = await fs.stat(abs).catch(() => undefined);
    if (existing?.isDirectory()) {
      throw new ToolError(`${shown} is a directory. Give the path of a file inside it.`);
    }
    if (existing && !existing.isFile()) throw new ToolError(`${shown} is not a regular file; Write only writes files.`);
    // What it held, for a hook's originalFile: small files only, read before they are replaced.
    const original = existing && existing.size <= ORIGINAL_LIMIT ? await fs.readFile(abs, 'utf8').catch(() => null) : null;
    await fs.mkdir(path.dirname(abs), { recursive: true });
    await fs.writeFile(abs, input.content, 'utf8');
    const bytes = Buffer.byteLength(input.content, 'utf8');
    const verb = existing ? 'Overwrote' : 'Created';
    const text = `${verb} ${shown} (${bytes} bytes, ${countLines(input.content)} lines).`;
    return { text, hookResponse: writeResponse(abs, input.content, existing !== undefined, original) };
  },
});
