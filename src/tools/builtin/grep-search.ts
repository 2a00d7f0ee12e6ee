import path from 'node:path';
import { comparePaths, fileFilter, listFiles, readRegularFile, searchWithGit } from './files.js';
import { gitSearch } from './grep-git.js';
import { ToolError } from '../tool.js';
import { isCredentialFileName } from '../workspace.js';
import type { FileHits, GrepMode, GrepQuery, GrepResult } from './grep-types.js';

export type { FileHits, GrepMatch, GrepMode, GrepQuery, GrepResult } from './grep-types.js';

/** Bigger files are skipped by the fallback search: they are data, not code. */
const MAX_SEARCHED_BYTES = 20 * 1024 * 1024;

function compile(pattern: string, ignoreCase: boolean): RegExp {
  try {
    return new RegExp(pattern, ignoreCase ? 'i' : '');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ToolError(`Invalid regular expression: ${reason}. Fix the pattern and search again.`);
  }
}

/** Matches in one text file, or undefined for a binary or unreadable one. */
async function searchFile(base: string, name: string, regex: RegExp, mode: GrepMode): Promise<FileHits | undefined> {
  const bytes = await readRegularFile(path.join(base, name), MAX_SEARCHED_BYTES);
  if (!bytes || bytes.subarray(0, 8192).includes(0)) return undefined;
  const hits: FileHits = { name, count: 0, matches: [] };
  const lines = bytes.toString('utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (const [i, raw] of lines.entries()) {
    const text = raw.replace(/\r$/, '');
    if (!regex.test(text)) continue;
    hits.count += 1;
    if (mode === 'files_with_matches') break;
    if (mode === 'content') hits.matches.push({ line: i + 1, text });
  }
  return hits.count > 0 ? hits : undefined;
}

/** For directories outside git, and single files (searched even when git would ignore them). */
async function walkSearch(query: GrepQuery): Promise<GrepResult> {
  const regex = compile(query.pattern, query.ignoreCase);
  const keep = query.glob ? fileFilter(query.glob) : () => true;
  const names = query.file ? [query.file] : (await listFiles(query.base, query.env, query.signal)).filter((f) => keep(f));
  const files: FileHits[] = [];
  let entries = 0;
  for (const name of names.sort(comparePaths)) {
    if (query.signal.aborted) throw new ToolError('Cancelled.');
    const hits = await searchFile(query.base, name, regex, query.mode);
    if (!hits) continue;
    files.push(hits);
    entries += query.mode === 'content' ? hits.count : 1;
    if (entries > query.maxEntries) return { base: query.base, files, truncated: true };
  }
  return { base: query.base, files, truncated: false };
}

/** Searches with git grep inside a work tree (fast, .gitignore-aware), else by walking files. */
export async function grepSearch(query: GrepQuery): Promise<GrepResult> {
  const useGit = !query.file && (await searchWithGit(query.base, query.env, query.signal));
  const result = useGit ? await gitSearch(query) : await walkSearch(query);
  // Read refuses credential files; a search must not quote them either.
  const files = result.files.filter((hits) => !isCredentialFileName(path.posix.basename(hits.name)));
  return { ...result, files };
}
