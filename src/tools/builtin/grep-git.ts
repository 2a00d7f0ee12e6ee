import { spawn } from 'node:child_process';
import { SAFE_CONFIG } from '../../git/safe.js';
import { comparePaths, type GitOptions } from './files.js';
import type { FileHits, GrepMode, GrepQuery, GrepResult } from './grep-types.js';
import { ToolError } from '../tool.js';

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

/** The glob pathspecs git grep and git ls-files share. */
export function pathspecs(glob: string | undefined): string[] {
  if (!glob) return [];
  // A glob without '/' filters by file name at any depth, as ripgrep's --glob does.
  return expandBraces(glob).map((g) => `:(glob)${g.includes('/') ? g : `**/${g}`}`);
}

function gitArgs(query: GrepQuery, engine: '-P' | '-E'): string[] {
  const modeFlag = { files_with_matches: '-l', count: '-c', content: '-n' }[query.mode];
  return [
    ...['grep', '--untracked', '--exclude-standard', '-I', '--no-color', '-z', engine, modeFlag],
    ...(query.ignoreCase ? ['-i'] : []),
    ...['-e', query.pattern, '--', ...pathspecs(query.glob)],
  ];
}

/** Incremental parser of `git grep -z` output, which arrives sorted by path. */
class GrepOutputParser {
  private pending = '';
  private last: FileHits | undefined;
  readonly files: FileHits[] = [];
  /** Matching lines in content mode, files otherwise. */
  entries = 0;

  constructor(private readonly mode: GrepMode) {}

  push(chunk: string): void {
    const text = this.pending + chunk;
    const end = text.lastIndexOf(this.mode === 'files_with_matches' ? '\0' : '\n') + 1;
    this.pending = text.slice(end);
    const complete = text.slice(0, end);
    if (this.mode === 'files_with_matches') {
      for (const name of complete.split('\0')) if (name) this.hits(name).count = 1;
    } else if (this.mode === 'count') {
      for (const m of complete.matchAll(/([^\0]+)\0(\d+)\n/g)) this.hits(m[1] ?? '').count = Number(m[2]);
    } else {
      for (const m of complete.matchAll(/([^\0]+)\0(\d+)\0([^\n]*)\n/g)) {
        const hits = this.hits(m[1] ?? '');
        hits.count += 1;
        hits.matches.push({ line: Number(m[2]), text: m[3] ?? '' });
        this.entries += 1;
      }
    }
  }

  private hits(name: string): FileHits {
    if (this.last?.name === name) return this.last;
    this.last = { name, count: 0, matches: [] };
    this.files.push(this.last);
    if (this.mode !== 'content') this.entries += 1;
    return this.last;
  }
}

interface GrepRun {
  code: number;
  stderr: string;
  /** Stopped early because enough was collected. */
  stopped: boolean;
}

/** Streams git grep into the parser and stops git once the answer is full, however big the repo. */
function runGitGrep(args: string[], options: GitOptions, parser: GrepOutputParser, maxEntries: number): Promise<GrepRun> {
  return new Promise((resolve, reject) => {
    const { cwd, env, signal } = options;
    // Outside any sandbox, like the action's own git: no program the work tree names may run.
    const child = spawn('git', [...SAFE_CONFIG, ...args], { cwd, env, signal, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let stopped = false;
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 10_000) stderr += chunk;
    });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (stopped) return;
      parser.push(chunk);
      if (parser.entries <= maxEntries) return;
      stopped = true;
      child.kill('SIGKILL');
    });
    child.once('error', (error) => reject(error.name === 'AbortError' ? new ToolError('Cancelled.') : error));
    child.once('close', (code) => resolve({ code: stopped ? 0 : (code ?? -1), stderr, stopped }));
  });
}

async function runWith(query: GrepQuery, engine: '-P' | '-E'): Promise<{ run: GrepRun; files: FileHits[] }> {
  const parser = new GrepOutputParser(query.mode);
  const options = { cwd: query.base, env: query.env, signal: query.signal };
  const run = await runGitGrep(gitArgs(query, engine), options, parser, query.maxEntries);
  return { run, files: parser.files };
}

/** git grep over tracked and untracked files, skipping ignored and binary ones. */
export async function gitSearch(query: GrepQuery): Promise<GrepResult> {
  let { run, files } = await runWith(query, '-P');
  if (run.code !== 0 && /USE_LIBPCRE|Perl-compatible/i.test(run.stderr)) {
    // git built without PCRE: extended regexes cover most of what the model writes.
    ({ run, files } = await runWith(query, '-E'));
  }
  if (run.code === 1) return { base: query.base, files: [], truncated: false };
  if (run.code !== 0) {
    throw new ToolError(`git grep failed: ${run.stderr.trim()}. Check the pattern (PCRE syntax) and glob.`);
  }
  // Already in git's path order; sorting again keeps the promise even if that ever changes.
  files.sort((a, b) => comparePaths(a.name, b.name));
  return { base: query.base, files, truncated: run.stopped };
}
