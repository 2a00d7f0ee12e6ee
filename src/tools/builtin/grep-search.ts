import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { comparePaths, fileFilter, listCandidates, readRegularFile, readRegularFileSync, searchWithGit, walkFiles } from './files.js';
import { gitSearch, pathspecs } from './grep-git.js';
import { ToolError } from '../tool.js';
import { isCredentialFileName } from '../workspace.js';
import type { FileHits, GrepMode, GrepQuery, GrepResult } from './grep-types.js';

export type { FileHits, GrepMatch, GrepMode, GrepQuery, GrepResult } from './grep-types.js';

/** Bigger files are skipped by the fallback search: they are data, not code. */
const MAX_SEARCHED_BYTES = 20 * 1024 * 1024;
/**
 * The fallback reads files synchronously, several times faster than one at a time through the
 * thread pool, in slices this long between which other work and cancellation get their turn.
 */
const SLICE_MS = 10;

interface Matcher {
  /** Tested against each line, as ripgrep does. */
  line: RegExp;
  /**
   * The pattern over a whole file in multiline mode: where it finds nothing no line matches, so
   * most files are passed over without splitting them. Absent for lookarounds, which could see
   * across lines and so miss a match a single line has.
   */
  file?: RegExp;
}

function compile(pattern: string, ignoreCase: boolean): Matcher {
  const flags = ignoreCase ? 'i' : '';
  try {
    const line = new RegExp(pattern, flags);
    return /\(\?<?[=!]/.test(pattern) ? { line } : { line, file: new RegExp(pattern, `${flags}m`) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ToolError(`Invalid regular expression: ${reason}. Fix the pattern and search again.`);
  }
}

/** Matches in one text file's bytes, or undefined for a binary file or one without matches. */
function searchBytes(name: string, bytes: Buffer, matcher: Matcher, mode: GrepMode): FileHits | undefined {
  if (bytes.subarray(0, 8192).includes(0)) return undefined;
  const text = bytes.toString('utf8');
  if (matcher.file && !matcher.file.test(text)) return undefined;
  const hits: FileHits = { name, count: 0, matches: [] };
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (const [i, raw] of lines.entries()) {
    const line = raw.replace(/\r$/, '');
    if (!matcher.line.test(line)) continue;
    hits.count += 1;
    if (mode === 'files_with_matches') break;
    if (mode === 'content') hits.matches.push({ line: i + 1, text: line });
  }
  return hits.count > 0 ? hits : undefined;
}

/** For directories outside git, and single files (searched even when git would ignore them). */
async function walkSearch(query: GrepQuery): Promise<GrepResult> {
  const matcher = compile(query.pattern, query.ignoreCase);
  const hidden = query.hidden ?? (() => false);
  if (query.file) {
    if (hidden(query.file)) return { base: query.base, files: [], truncated: false };
    const bytes = await readRegularFile(path.join(query.base, query.file), MAX_SEARCHED_BYTES);
    const hits = bytes && searchBytes(query.file, bytes, matcher, query.mode);
    return { base: query.base, files: hits ? [hits] : [], truncated: false };
  }
  const keep = query.glob ? fileFilter(query.glob) : () => true;
  const names = (await walkFiles(query.base)).filter((f) => keep(f) && !hidden(f)).sort(comparePaths);
  const files: FileHits[] = [];
  let entries = 0;
  let sliceStart = performance.now();
  for (const name of names) {
    if (performance.now() - sliceStart > SLICE_MS) {
      await nextTurn();
      sliceStart = performance.now();
    }
    if (query.signal.aborted) throw new ToolError('Cancelled.');
    const bytes = readRegularFileSync(path.join(query.base, name), MAX_SEARCHED_BYTES);
    const hits = bytes && searchBytes(name, bytes, matcher, query.mode);
    if (!hits) continue;
    files.push(hits);
    entries += query.mode === 'content' ? hits.count : 1;
    if (entries > query.maxEntries) return { base: query.base, files, truncated: true };
  }
  return { base: query.base, files, truncated: false };
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * git grep inside a work tree (fast, .gitignore-aware), else a walk. git grep starts beside the
 * question of whether git should search base at all, so the usual yes costs no start-up of its own.
 */
async function treeSearch(query: GrepQuery): Promise<GrepResult> {
  const unneeded = new AbortController();
  const early: Promise<Settled<GrepResult>> = gitSearch({ ...query, signal: AbortSignal.any([query.signal, unneeded.signal]) }).then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );
  if (!(await searchWithGit(query.base, query.env, query.signal))) {
    unneeded.abort();
    return walkSearch(query);
  }
  const settled = await early;
  if (!settled.ok) throw settled.error;
  return settled.value;
}

/** How many files of the search's scope are hidden, by their names (the same list git grep or the walk goes through). */
async function countHidden(query: GrepQuery, hidden: (name: string) => boolean): Promise<number> {
  if (query.file) return hidden(query.file) ? 1 : 0;
  const listed = await listCandidates(query.base, query.env, query.signal, { pathspecs: pathspecs(query.glob), keepDeleted: true });
  const keep = query.glob && !listed.matched ? fileFilter(query.glob) : () => true;
  return new Set(listed.files.filter((name) => keep(name) && hidden(name))).size;
}

/** Searches with git grep inside a work tree, else by walking files; never quotes a credential file or a hidden one. */
export async function grepSearch(query: GrepQuery): Promise<GrepResult> {
  const { hidden } = query;
  const [result, hiddenCount] = await Promise.all([
    query.file ? walkSearch(query) : treeSearch(query),
    hidden ? countHidden(query, hidden) : 0,
  ]);
  // Read refuses credential files; a search must not quote them either.
  const files = result.files.filter((hits) => !isCredentialFileName(path.posix.basename(hits.name)) && !hidden?.(hits.name));
  return { ...result, files, ...(hidden ? { hidden: hiddenCount } : {}) };
}
