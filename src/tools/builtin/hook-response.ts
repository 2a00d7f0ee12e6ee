// What a PostToolUse hook gets as `tool_response`: Claude Code's object for each tool (the shapes
// of its sdk-tools.d.ts, checked against the Claude Code CLI by __tests__/conformance/hooks.test.ts),
// built only when a hook asks for it.
import { readFile } from 'node:fs/promises';

/** One hunk of a change, as jsdiff's structuredPatch (which Claude Code uses) gives it. */
export interface PatchHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/** The hunks from before to after, with three lines of context; the diff library loads only here. */
export async function structuredPatch(file: string, before: string, after: string): Promise<PatchHunk[]> {
  const { structuredPatch: patch } = await import('diff');
  return patch(file, file, before, after, '', '', { context: 3 }).hunks.map(({ oldStart, oldLines, newStart, newLines, lines }) => ({
    oldStart,
    oldLines,
    newStart,
    newLines,
    lines,
  }));
}

export function bashResponse(output: string): () => Promise<Record<string, unknown>> {
  // Output comes merged, stdout and stderr in order, as Claude Code's does.
  return () =>
    Promise.resolve({ stdout: output.replace(/\n$/, ''), stderr: '', interrupted: false, isImage: false, noOutputExpected: false });
}

/** The lines read, counted as Claude Code counts them (a final newline ends with an empty line), from the file itself. */
export function readResponse(filePath: string, startLine: number, limit: number) {
  return async () => {
    const all = (await readFile(filePath, 'utf8')).split('\n');
    const lines = all.slice(startLine - 1, startLine - 1 + limit);
    return { type: 'text', file: { filePath, content: lines.join('\n'), numLines: lines.length, startLine, totalLines: all.length } };
  };
}

export function editResponse(
  filePath: string,
  input: { old_string: string; new_string: string; replace_all?: boolean | undefined },
  originalFile: string,
  updated: string,
) {
  return async () => ({
    filePath,
    oldString: input.old_string,
    newString: input.new_string,
    originalFile,
    structuredPatch: await structuredPatch(filePath, originalFile, updated),
    userModified: false,
    replaceAll: input.replace_all ?? false,
  });
}

/** originalFile: what an overwritten file held (null for a new file, or one too large to keep). */
export function writeResponse(filePath: string, content: string, existed: boolean, originalFile: string | null) {
  return async () => ({
    type: existed ? 'update' : 'create',
    filePath,
    content,
    structuredPatch: originalFile === null ? [] : await structuredPatch(filePath, originalFile, content),
    originalFile,
    userModified: false,
  });
}
