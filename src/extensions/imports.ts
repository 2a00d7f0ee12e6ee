/**
 * CLAUDE.md's imports, as Claude Code follows them: an `@path` outside code (at the start of a
 * line or after a space) names a file relative to the importing one, whose text is added after
 * the importer's, then its own imports, depth first, five files deep at most (the first one
 * counted, as Claude Code counts them: CLAUDE.md and four levels of imports). A
 * path that names nothing is prose (`@someone`) and stays as written; each file comes once.
 */
import { posix } from 'node:path';
import { fileReferences } from './commands.js';

export interface InstructionsFile {
  /** Relative to the repository root, `/` separated. */
  path: string;
  content: string;
}

/** A file's text by its path relative to the repository root; undefined when there is none. */
export type ReadInstructions = (path: string) => Promise<string | undefined>;

/** How deep imports go, the first file counted as one. */
export const MAX_IMPORT_DEPTH = 5;

/** How much of the instructions, imports included, goes into a prompt by default. */
export const INSTRUCTIONS_CHARS = 20_000;

/** Where `@reference` in the file at `from` points, relative to the root; null when outside it (or home-relative). */
export function importPath(from: string, reference: string): string | null {
  if (reference.startsWith('~')) return null;
  const joined = reference.startsWith('/') ? posix.normalize(reference.slice(1)) : posix.join(posix.dirname(from), reference);
  const path = posix.normalize(joined);
  return path === '..' || path.startsWith('../') || path === '.' ? null : path;
}

/** The instructions files Claude Code reads at a repository's root, and AGENTS.md, in this order. */
export const INSTRUCTIONS_FILES = ['CLAUDE.md', '.claude/CLAUDE.md', 'AGENTS.md'] as const;

/**
 * The repository's instructions: each of INSTRUCTIONS_FILES that exists, with the files it
 * imports after it (`Contents of <path>, imported by <path>:`), each file once (AGENTS.md that
 * CLAUDE.md imports is not repeated), cut at `limit` characters in all. The roots are asked for
 * together; `read` is asked once per path. Undefined when none exists.
 */
export async function readInstructions(read: ReadInstructions, limit: number): Promise<InstructionsFile | undefined> {
  const roots = INSTRUCTIONS_FILES.map((path) => ({ path, content: read(path) }));
  // The later roots' failures matter only once their turn comes.
  for (const root of roots) root.content.catch(() => undefined);
  const seen = new Set<string>();
  const parts: string[] = [];
  const paths: string[] = [];
  let size = 0;
  const add = (text: string) => {
    parts.push(text);
    size += text.length;
  };
  const visit = async (file: InstructionsFile, depth: number): Promise<void> => {
    if (depth >= MAX_IMPORT_DEPTH) return;
    for (const reference of fileReferences(file.content)) {
      const path = importPath(file.path, reference);
      if (path === null || seen.has(path) || size >= limit) continue;
      seen.add(path);
      const content = await read(path);
      if (content === undefined) continue;
      add(`\n\nContents of ${path}, imported by ${file.path}:\n\n${content}`);
      await visit({ path, content }, depth + 1);
    }
  };
  for (const root of roots) {
    const content = await root.content;
    if (content === undefined || seen.has(root.path) || size >= limit) continue;
    seen.add(root.path);
    paths.push(root.path);
    add(parts.length === 0 ? content : `\n\nContents of ${root.path}:\n\n${content}`);
    await visit({ path: root.path, content }, 1);
  }
  return paths.length === 0 ? undefined : { path: paths.join(', '), content: parts.join('').slice(0, limit) };
}
