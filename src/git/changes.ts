import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { locateGitDirs, pinnedEnv, type GitDirs } from './git-dir.js';
import { GitDirGuard } from './guard.js';
import { ISOLATED_ENV, SAFE_CONFIG, inheritedEnv } from './safe.js';

interface RunOptions {
  cwd: string;
  maxBuffer: number;
  env: Record<string, string>;
}

/** node:child_process is loaded on first use: it costs a run's start-up several milliseconds. */
async function run(cmd: string, args: string[], options: RunOptions): Promise<{ stdout: string }> {
  const { execFile } = await import('node:child_process');
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { ...options, encoding: 'utf8' }, (error, stdout) => {
      if (error) reject(error instanceof Error ? error : new Error(error.message));
      else resolve({ stdout });
    });
  });
}

/** What was dirty before the run, with content hashes, so that only the run's own changes are reported. */
export interface Baseline {
  isRepo: boolean;
  dirty: Map<string, string>;
  /** The repository as found before the run's tools ran: a later `.git` file or commondir is not followed. */
  dirs?: GitDirs;
}

/** git status with the action's safe settings, no secrets in its environment, tied to the repository found first. */
async function status(cwd: string, dirs: GitDirs | undefined): Promise<string[] | null> {
  const pins = dirs ? pinnedEnv(dirs) : {};
  try {
    // In the action, git's own files are put back as they were when the model started (a no-op elsewhere).
    if (dirs) await GitDirGuard.for(dirs).enforce();
    const args = [...SAFE_CONFIG, 'status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames'];
    const { stdout } = await run('git', args, {
      cwd,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...inheritedEnv(), ...pins, ...ISOLATED_ENV },
    });
    return stdout
      .split('\0')
      .filter((entry) => entry.length > 3)
      .map((entry) => entry.slice(3));
  } catch {
    return null;
  }
}

async function hashOf(root: string, path: string): Promise<string> {
  try {
    return createHash('sha1')
      .update(await readFile(join(root, path)))
      .digest('hex');
  } catch {
    return 'missing';
  }
}

export async function takeBaseline(root: string): Promise<Baseline> {
  const dirs = locateGitDirs(root) ?? undefined;
  const paths = await status(root, dirs);
  if (paths === null) return { isRepo: false, dirty: new Map() };
  const dirty = new Map<string, string>();
  await Promise.all(paths.map(async (p) => dirty.set(p, await hashOf(root, p))));
  return { isRepo: true, dirty, ...(dirs ? { dirs } : {}) };
}

/** Files the run changed, relative to the workspace, sorted; null when the workspace is not a git repository. */
export async function changedSince(root: string, baseline: Baseline): Promise<string[] | null> {
  if (!baseline.isRepo) return null;
  const paths = (await status(root, baseline.dirs)) ?? [];
  const changed = new Set<string>();
  for (const p of paths) {
    const before = baseline.dirty.get(p);
    if (before === undefined || before !== (await hashOf(root, p))) changed.add(p);
  }
  // A file dirty before and clean now was changed back by the run.
  for (const p of baseline.dirty.keys()) if (!paths.includes(p)) changed.add(p);
  return [...changed].sort();
}
