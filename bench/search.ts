import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { globTool } from '../src/tools/builtin/glob.js';
import { grepTool } from '../src/tools/builtin/grep.js';
import { Workspace } from '../src/tools/workspace.js';
import { median } from './stats.js';

/** Files in the work tree, of which IGNORED sit in a .gitignore'd node_modules. */
const FILES = Number(process.env['BENCH_FILES'] ?? 50_000);
const IGNORED = Math.min(FILES, Number(process.env['BENCH_IGNORED'] ?? 20_000));
const RUNS = 15;
/** Pairs run first and not counted: the first calls compile the code, and the garbage of writing the tree is still being collected. */
const WARM_UP = 5;
const PER_DIR = 200;

/** A directory of PER_DIR one-line files; every 997th holds a needle. */
async function writeDir(dir: string, first: number, count: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  await Promise.all(
    Array.from({ length: count }, (_, f) => {
      const i = first + f;
      const body = i % 997 === 0 ? `export const needle_${i} = ${i};\n` : `export const value${i} = ${i};\n`;
      return writeFile(join(dir, `file${f}.${f % 2 ? 'ts' : 'js'}`), body);
    }),
  );
}

/**
 * A committed tree of FILES - IGNORED source files in 50 packages, and a node_modules of IGNORED
 * files (needles included) that .gitignore leaves out, as an installed dependency tree is.
 */
async function makeTree(root: string): Promise<void> {
  const source = FILES - IGNORED;
  for (let first = 0; first < source; first += PER_DIR) {
    const d = first / PER_DIR;
    await writeDir(join(root, `pkg${d % 50}`, `mod${d}`), first, Math.min(PER_DIR, source - first));
  }
  for (let first = 0; first < IGNORED; first += PER_DIR) {
    const d = first / PER_DIR;
    await writeDir(join(root, 'node_modules', `dep${d % 40}`, 'lib', `part${d}`), source + first, Math.min(PER_DIR, IGNORED - first));
  }
  await writeFile(join(root, '.gitignore'), 'node_modules/\n');
  const env = { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@x', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@x' };
  execFileSync('git', ['init', '-q'], { cwd: root, env });
  execFileSync('git', ['add', '-A'], { cwd: root, env });
  execFileSync('git', ['commit', '-qm', 'tree'], { cwd: root, env });
}

async function elapsed(fn: () => unknown): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/** Medians of a baseline and a subject timed in turn, so a noisy moment hits both alike. */
async function interleaved(baseline: () => unknown, subject: () => unknown): Promise<[number, number]> {
  for (let i = 0; i < WARM_UP; i++) {
    await baseline();
    await subject();
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    a.push(await elapsed(baseline));
    b.push(await elapsed(subject));
  }
  return [median(a), median(b)];
}

/** Lines of a tool's answer that name a file (not the "[n more ...]" note). */
function countFiles(output: unknown): number {
  return String(output)
    .split('\n')
    .filter((l) => l && !l.startsWith('[')).length;
}

export async function searchSpeed(): Promise<{
  files: number;
  ignored: number;
  runs: number;
  warmUp: number;
  lsFiles: number;
  glob: number;
  lsFilesAgain: number;
  globDirs: number;
  gitGrep: number;
  grep: number;
  /** `grep -r` and Grep asked for node_modules by path, which Grep then walks and reads itself. */
  grepR: number;
  walk: number;
  /** Files git grep and Grep found: the same when Grep left node_modules out too. */
  found: { gitGrep: number; grep: number };
}> {
  const root = await mkdtemp(join(tmpdir(), 'agent-bench-tree-'));
  try {
    await makeTree(root);
    const workspace = await Workspace.open(root);
    const ctx = { workspace, signal: new AbortController().signal, env: {}, outputLimit: 30000 };
    const git = (args: string[]) => execFileSync('git', args, { cwd: root, maxBuffer: 1 << 30, encoding: 'utf8' });
    const grepArgs = ['grep', '-l', '-P', '--untracked', '--exclude-standard', 'needle_\\d+'];
    const grepInput = { pattern: 'needle_\\d+', output_mode: 'files_with_matches' as const, head_limit: 1000 };
    const found = { gitGrep: countFiles(git(grepArgs)), grep: countFiles(await grepTool.run(grepInput, ctx)) };
    const [lsFiles, glob] = await interleaved(
      () => git(['ls-files', '-z', '--cached', '--others', '--exclude-standard']),
      () => globTool.run({ pattern: '**/*.ts' }, ctx),
    );
    // A pattern the ending alone does not decide: every path is listed and one expression matches.
    const [lsFilesAgain, globDirs] = await interleaved(
      () => git(['ls-files', '-z', '--cached', '--others', '--exclude-standard']),
      () => globTool.run({ pattern: 'pkg1*/**/file1*.{ts,js}' }, ctx),
    );
    const [gitGrep, grep] = await interleaved(
      () => git(grepArgs),
      () => grepTool.run(grepInput, ctx),
    );
    const [grepR, walk] = await interleaved(
      () => execFileSync('grep', ['-rlE', 'needle_[0-9]+', 'node_modules'], { cwd: root, maxBuffer: 1 << 30 }),
      () => grepTool.run({ ...grepInput, path: 'node_modules' }, ctx),
    );
    return {
      files: FILES,
      ignored: IGNORED,
      runs: RUNS,
      warmUp: WARM_UP,
      lsFiles,
      glob,
      lsFilesAgain,
      globDirs,
      gitGrep,
      grep,
      grepR,
      walk,
      found,
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
