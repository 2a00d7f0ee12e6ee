import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { globTool } from '../src/tools/builtin/glob.js';
import { grepTool } from '../src/tools/builtin/grep.js';
import { Workspace } from '../src/tools/workspace.js';
import { median } from './stats.js';

const FILES = Number(process.env['BENCH_FILES'] ?? 100_000);
const RUNS = 5;

async function makeTree(root: string): Promise<void> {
  const perDir = 200;
  for (let d = 0; d < FILES / perDir; d++) {
    const dir = join(root, `pkg${d % 50}`, `mod${d}`);
    await mkdir(dir, { recursive: true });
    await Promise.all(
      Array.from({ length: perDir }, (_, f) => {
        const i = d * perDir + f;
        const body = i % 997 === 0 ? `export const needle_${i} = ${i};\n` : `export const value${i} = ${i};\n`;
        return writeFile(join(dir, `file${f}.${f % 2 ? 'ts' : 'js'}`), body);
      }),
    );
  }
  await writeFile(join(root, '.gitignore'), 'pkg49/\n');
  const env = { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@x', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@x' };
  execFileSync('git', ['init', '-q'], { cwd: root, env });
  execFileSync('git', ['add', '-A'], { cwd: root, env });
  execFileSync('git', ['commit', '-qm', 'tree'], { cwd: root, env });
}

async function time(fn: () => unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return median(times);
}

export async function searchSpeed(): Promise<{
  files: number;
  runs: number;
  lsFiles: number;
  glob: number;
  gitGrep: number;
  grep: number;
}> {
  const root = await mkdtemp(join(tmpdir(), 'agent-bench-tree-'));
  try {
    await makeTree(root);
    const workspace = await Workspace.open(root);
    const ctx = { workspace, signal: new AbortController().signal, env: {}, outputLimit: 30000 };
    const git = (args: string[]) => execFileSync('git', args, { cwd: root, maxBuffer: 1 << 30 });
    const lsFiles = await time(() => git(['ls-files', '-z', '--cached', '--others', '--exclude-standard']));
    const glob = await time(() => globTool.run({ pattern: '**/*.ts' }, ctx));
    const gitGrep = await time(() => git(['grep', '-l', '-P', '--untracked', '--exclude-standard', 'needle_\\d+']));
    const grep = await time(() => grepTool.run({ pattern: 'needle_\\d+', output_mode: 'files_with_matches' }, ctx));
    return { files: FILES, runs: RUNS, lsFiles, glob, gitGrep, grep };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
