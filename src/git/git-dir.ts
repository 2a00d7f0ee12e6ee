import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Where a work tree's repository lives, found once before the model runs and never again. */
export interface GitDirs {
  workTree: string;
  gitDir: string;
  commonDir: string;
}

function readLink(file: string, prefix: string): string | undefined {
  const text = readFileSync(file, 'utf8');
  const line = text.split('\n').find((l) => l.startsWith(prefix));
  return line?.slice(prefix.length).trim();
}

/** The git dir a `.git` entry stands for: the directory itself, or where a `gitdir:` file points. */
function gitDirOf(dotGit: string): string | undefined {
  const stat = lstatSync(dotGit, { throwIfNoEntry: false });
  if (!stat) return undefined;
  if (stat.isDirectory()) return realpathSync(dotGit);
  if (!stat.isFile()) return undefined;
  const target = readLink(dotGit, 'gitdir:');
  return target ? realpathSync(resolve(dirname(dotGit), target)) : undefined;
}

/** A linked worktree's `commondir` names the shared repository; otherwise it is the git dir itself. */
function commonDirOf(gitDir: string): string {
  const file = join(gitDir, 'commondir');
  if (!lstatSync(file, { throwIfNoEntry: false })?.isFile()) return gitDir;
  const target = readFileSync(file, 'utf8').trim();
  return target ? realpathSync(resolve(gitDir, target)) : gitDir;
}

/**
 * Finds the repository the way git's own discovery does (this directory, then its parents),
 * without running git, so the answer does not depend on any config. Null outside a repository.
 */
export function locateGitDirs(dir: string): GitDirs | null {
  try {
    for (let at = realpathSync(dir); ; at = dirname(at)) {
      const gitDir = gitDirOf(join(at, '.git'));
      if (gitDir) return { workTree: at, gitDir, commonDir: commonDirOf(gitDir) };
      if (dirname(at) === at) return null;
    }
  } catch {
    // A `gitdir:` or `commondir` naming what is not there: no repository git could use either.
    return null;
  }
}

/**
 * The variables that tie git to those locations: with them set, a `.git` file, a `commondir` or
 * a `gitdir` written later is never read, and another repository's dir is never discovered.
 */
export function pinnedEnv(dirs: GitDirs): Record<string, string> {
  return { GIT_DIR: dirs.gitDir, GIT_COMMON_DIR: dirs.commonDir, GIT_WORK_TREE: dirs.workTree };
}
