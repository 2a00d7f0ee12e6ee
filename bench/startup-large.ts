/**
 * The git work before the tools are ready on a 30,000-file repository, as the action does it on a
 * PR comment (the pull request's branch fetched and checked out, in a workspace the workflow
 * cloned with depth 1), against the git floor measured in the same process (`git fetch --depth=1`
 * of the branch and `git checkout`), on a shallow history (2 commits) and a deep one (the default
 * branch 400 commits long). Each sample starts from a copy of the same fresh clone. The work
 * tree's baseline (one `git status` scan of what was dirty before the run) is timed beside it:
 * it runs while the first request is answered, and only a tool that comes sooner waits for it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { takeBaseline } from '../src/git/changes.js';
import { Repo } from '../src/git/repo.js';
import { median } from './stats.js';

const FILES = Number(process.env['BENCH_STARTUP_FILES'] ?? 30_000);
const DEEP = Number(process.env['BENCH_STARTUP_DEPTH'] ?? 400);
const RUNS = Number(process.env['BENCH_RUNS'] ?? 5);
const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: tmpdir(), GIT_CONFIG_NOSYSTEM: '1', LANG: 'C.UTF-8' };
const git = (cwd: string, args: string[], input?: string) =>
  execFileSync('git', args, { cwd, env, encoding: 'utf8', maxBuffer: 1 << 28, ...(input !== undefined ? { input } : {}) });
const pathOf = (i: number) => `pkg${i % 50}/mod${Math.floor(i / 100)}/f${i % 100}.ts`;

/** A bare remote: main with `depth` commits, the last of FILES files, and feature one commit past it. */
function remote(dir: string, depth: number): string {
  const bare = join(dir, 'remote.git');
  git(dir, ['init', '-q', '--bare', bare]);
  const parts: string[] = [];
  let mark = 0;
  const commit = (ref: string, files: [string, string][], from?: number) => {
    mark++;
    const message = `commit ${mark}`;
    parts.push(`commit ${ref}\nmark :${mark}\ncommitter Dev <dev@example.com> ${1_700_000_000 + mark} +0000\n`);
    parts.push(`data ${Buffer.byteLength(message)}\n${message}\n`);
    if (from) parts.push(`from :${from}\n`);
    for (const [path, text] of files) parts.push(`M 100644 inline ${path}\ndata ${Buffer.byteLength(text)}\n${text}\n`);
    return mark;
  };
  let tip = commit(
    'refs/heads/main',
    Array.from({ length: FILES }, (_, i): [string, string] => [pathOf(i), `export const v = ${i};\n`]),
  );
  for (let c = 1; c < depth; c++) {
    const changed = Array.from({ length: 20 }, (_, k): [string, string] => [
      pathOf((c * 37 + k * 1009) % FILES),
      `export const v = ${c}_${k};\n`,
    ]);
    tip = commit('refs/heads/main', changed, tip);
  }
  commit('refs/heads/feature', [['pkg7/mod7/f3.ts', 'export const v = "feature";\n']], tip);
  git(bare, ['fast-import', '--quiet'], parts.join(''));
  return bare;
}

/** What actions/checkout leaves: main cloned with depth 1, its files checked out. */
function template(dir: string, bare: string): string {
  const ws = join(dir, 'template');
  git(dir, ['clone', '-q', '--depth=1', '--single-branch', '--branch', 'main', `file://${bare}`, ws]);
  return ws;
}

function copy(from: string, to: string): string {
  execFileSync('cp', ['-a', from, to]);
  return to;
}

async function timed(fn: () => unknown): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

interface Figures {
  floor: number;
  checkout: number;
  baseline: number;
}

async function history(depth: number): Promise<Figures> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-bench-startup-'));
  try {
    const ws = template(dir, remote(dir, depth));
    const floor: number[] = [];
    const checkout: number[] = [];
    const baseline: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const a = copy(ws, join(dir, `floor${i}`));
      floor.push(
        await timed(() => {
          git(a, ['fetch', '-q', '--no-tags', '--depth=1', 'origin', '+refs/heads/feature:refs/remotes/origin/feature']);
          git(a, ['checkout', '-q', '-B', 'feature', 'refs/remotes/origin/feature', '--']);
        }),
      );
      const b = copy(ws, join(dir, `action${i}`));
      checkout.push(await timed(() => Repo.open(b, { env }).checkoutPullHead('feature')));
      baseline.push(await timed(() => takeBaseline(b)));
      if (git(b, ['rev-parse', 'HEAD']) !== git(a, ['rev-parse', 'HEAD'])) throw new Error('the two checkouts differ');
      await Promise.all([rm(a, { recursive: true, force: true }), rm(b, { recursive: true, force: true })]);
    }
    return { floor: median(floor), checkout: median(checkout), baseline: median(baseline) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const shallow = await history(2);
  const deep = await history(DEEP);
  console.log(`start-up git work, ${FILES} files, PR branch fetched and checked out, median of ${RUNS}:`);
  for (const [name, f] of [
    ['shallow history (2 commits)', shallow],
    [`deep history (${DEEP} commits)`, deep],
  ] as const) {
    console.log(`  ${name}: git floor (fetch --depth=1, checkout) ${f.floor.toFixed(0)} ms`);
    console.log(`    the action's checkout: ${f.checkout.toFixed(0)} ms, ${(f.checkout / f.floor).toFixed(2)}x the floor (goal <= 1.5x)`);
    console.log(`    the baseline scan beside it (not waited for by the first request): ${f.baseline.toFixed(0)} ms`);
  }
  console.log(`  deep / shallow, the action's checkout: ${(deep.checkout / shallow.checkout).toFixed(2)}x (goal <= 1.3x)`);
}

await main();
