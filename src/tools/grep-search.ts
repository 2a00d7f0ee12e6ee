import { promises as fs } from 'node:fs';
import path from 'node:path';
import { comparePaths, fileFilter, isGitWorkTree, listFiles, runGit, type GitResult } from './files.js';
import { ToolError } from './registry.js';
import { isCredentialFileName } from './workspace.js';

export type GrepMode = 'content' | 'files_with_matches' | 'count';

export interface GrepMatch {
  line: number;
  text: string;
}

export interface FileHits {
  /** Absolute path, for reading context lines. */
  abs: string;
  count: number;
  /** Matching lines; filled in content mode only. */
  matches: GrepMatch[];
}

export interface GrepQuery {
  pattern: string;
  ignoreCase: boolean;
  mode: GrepMode;
  /** Directory searched. */
  base: string;
  /** A single file (name inside base) to search instead of the whole directory. */
  file?: string;
  glob?: string;
  /** Files past this many are not needed: the caller shows fewer. */
  maxFiles: number;
  env: Record<string, string>;
  signal: AbortSignal;
}

export interface GrepResult {
  files: FileHits[];
  /** More matched than was collected. */
  truncated: boolean;
}

/** "{a,b}c" -> ["ac", "bc"]: git pathspecs have no braces. */
export function expandBraces(glob: string): string[] {
  const open = glob.indexOf('{');
  if (open === -1) return [glob];
  const parts: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open; i < glob.length; i++) {
    const ch = glob[i];
    if (ch === '{') depth += 1;
    else if (ch === ',' && depth === 1) {
      parts.push(glob.slice(start, i));
      start = i + 1;
    } else if (ch === '}' && --depth === 0) {
      parts.push(glob.slice(start, i));
      const [before, after] = [glob.slice(0, open), glob.slice(i + 1)];
      return parts.flatMap((part) => expandBraces(before + part + after));
    }
  }
  return [glob];
}

function pathspecs(glob: string | undefined): string[] {
  if (!glob) return [];
  // A glob without '/' filters by file name at any depth, as ripgrep's --glob does.
  return expandBraces(glob).map((g) => `:(glob)${g.includes('/') ? g : `**/${g}`}`);
}

function parseGitOutput(stdout: string, query: GrepQuery): FileHits[] {
  const byFile = new Map<string, FileHits>();
  const hits = (name: string): FileHits => {
    let entry = byFile.get(name);
    if (!entry) byFile.set(name, (entry = { abs: path.join(query.base, name), count: 0, matches: [] }));
    return entry;
  };
  if (query.mode === 'files_with_matches') {
    for (const name of stdout.split('\0')) if (name) hits(name).count = 1;
  } else if (query.mode === 'count') {
    for (const m of stdout.matchAll(/([^\0]+)\0(\d+)\n/g)) hits(m[1] ?? '').count = Number(m[2]);
  } else {
    for (const m of stdout.matchAll(/([^\0]+)\0(\d+)\0([^\n]*)\n/g)) {
      const entry = hits(m[1] ?? '');
      entry.count += 1;
      entry.matches.push({ line: Number(m[2]), text: m[3] ?? '' });
    }
  }
  return [...byFile.values()];
}

function gitArgs(query: GrepQuery, engine: '-P' | '-E'): string[] {
  const modeFlag = { files_with_matches: '-l', count: '-c', content: '-n' }[query.mode];
  return [
    ...['grep', '--untracked', '--exclude-standard', '-I', '--no-color', '-z', engine, modeFlag],
    ...(query.ignoreCase ? ['-i'] : []),
    ...['-e', query.pattern, '--', ...pathspecs(query.glob)],
  ];
}

async function gitSearch(query: GrepQuery): Promise<GrepResult> {
  const options = { cwd: query.base, env: query.env, signal: query.signal, maxBuffer: 32 * 1024 * 1024 };
  let result: GitResult = await runGit(gitArgs(query, '-P'), options);
  if (result.code !== 0 && /USE_LIBPCRE|Perl-compatible/i.test(result.stderr)) {
    // git built without PCRE: extended regexes cover most of what the model writes.
    result = await runGit(gitArgs(query, '-E'), options);
  }
  if (result.code === 1 && !result.truncated) return { files: [], truncated: false };
  if (result.code !== 0) {
    throw new ToolError(`git grep failed: ${result.stderr.trim()}. Check the pattern (PCRE syntax) and glob.`);
  }
  const files = parseGitOutput(result.stdout, query).sort((a, b) => comparePaths(a.abs, b.abs));
  return { files, truncated: result.truncated };
}

function compile(pattern: string, ignoreCase: boolean): RegExp {
  try {
    return new RegExp(pattern, ignoreCase ? 'i' : '');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ToolError(`Invalid regular expression: ${reason}. Fix the pattern and search again.`);
  }
}

/** Matches in one text file, or undefined for a binary or unreadable one. */
async function searchFile(abs: string, regex: RegExp, mode: GrepMode): Promise<FileHits | undefined> {
  const bytes = await fs.readFile(abs).catch(() => undefined);
  if (!bytes || bytes.subarray(0, 8192).includes(0)) return undefined;
  const hits: FileHits = { abs, count: 0, matches: [] };
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
  for (const name of names.sort(comparePaths)) {
    if (query.signal.aborted) throw new ToolError('Cancelled.');
    const hits = await searchFile(path.join(query.base, name), regex, query.mode);
    if (hits) files.push(hits);
    if (files.length > query.maxFiles) return { files, truncated: true };
  }
  return { files, truncated: false };
}

/** Searches with git grep inside a work tree (fast, .gitignore-aware), else by walking files. */
export async function grepSearch(query: GrepQuery): Promise<GrepResult> {
  const useGit = !query.file && (await isGitWorkTree(query.base, query.env, query.signal));
  const result = useGit ? await gitSearch(query) : await walkSearch(query);
  // Read refuses credential files; a search must not quote them either.
  const files = result.files.filter((hits) => !isCredentialFileName(path.basename(hits.abs)));
  return { files, truncated: result.truncated };
}
