/**
 * Delivery's git work on a 30,000-file repository with one file changed: what deliver.ts runs
 * (one changed-files scan, the diff and the commit staging only those paths) against the git
 * floor measured in the same process (`git status`, `git add <file>`, `git commit`), and against
 * staging the whole tree as before.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BOT_IDENTITY, Repo, workflowFiles } from '../src/git/repo.js';
import { median } from './stats.js';

const FILES = Number(process.env['BENCH_DELIVERY_FILES'] ?? 30_000);
const RUNS = Number(process.env['BENCH_RUNS'] ?? 7);
const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: tmpdir(), GIT_CONFIG_NOSYSTEM: '1', LANG: 'C.UTF-8' };
const ID = ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com'];
const git = (cwd: string, args: string[]) => execFileSync('git', args, { cwd, env, encoding: 'utf8', maxBuffer: 1 << 28 });

async function tree(root: string): Promise<void> {
  for (let d = 0; d < FILES / 100; d++) {
    await mkdir(join(root, `pkg${d % 50}`, `mod${d}`), { recursive: true });
    await Promise.all(
      Array.from({ length: 100 }, (_, f) => writeFile(join(root, `pkg${d % 50}`, `mod${d}`, `f${f}.ts`), `export const v = ${f};\n`)),
    );
  }
  git(root, ['init', '-q']);
  git(root, ['add', '-A']);
  git(root, [...ID, 'commit', '-qm', 'initial']);
}

async function timed(fn: () => unknown): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'agent-bench-delivery-'));
  try {
    await tree(root);
    const repo = Repo.open(root, { env });
    const file = 'pkg7/mod7/f3.ts';
    const floor: number[] = [];
    const now: number[] = [];
    const whole: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await writeFile(join(root, file), `export const v = ${i}a;\n`);
      floor.push(
        await timed(() => {
          git(root, ['status', '--porcelain']);
          git(root, ['add', '--', file]);
          git(root, [...ID, 'commit', '-qm', 'floor']);
        }),
      );
      await writeFile(join(root, file), `export const v = ${i}b;\n`);
      now.push(
        await timed(async () => {
          const paths = await repo.changedFiles();
          workflowFiles(paths);
          await repo.diffAndStat({ paths });
          await repo.commitAll('paths', { committer: BOT_IDENTITY, paths });
        }),
      );
      await writeFile(join(root, file), `export const v = ${i}c;\n`);
      whole.push(
        await timed(async () => {
          await repo.changedFiles();
          await repo.workflowChanges();
          await repo.diffAndStat();
          await repo.commitAll('whole', { committer: BOT_IDENTITY });
        }),
      );
    }
    const [f, n, w] = [median(floor), median(now), median(whole)];
    console.log(`delivery git work, ${FILES} files, one changed, median of ${RUNS}:`);
    console.log(`  git floor (status, add <file>, commit): ${f.toFixed(0)} ms`);
    console.log(`  deliver (one scan, stage the changed paths): ${n.toFixed(0)} ms, ${(n / f).toFixed(2)}x`);
    console.log(`  as before (two scans, add --all in diff and commit): ${w.toFixed(0)} ms, ${(w / f).toFixed(2)}x`);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

await main();
