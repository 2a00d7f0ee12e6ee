// The work tree's changes against HEAD: which files, staging them, and their diff.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cutAtLine, DIFF, DIFF_STAT, nulList } from './diff-text.js';
import { copyIndex } from './index-copy.js';
import type { RunGit } from './safe.js';

/** Tracked and untracked (not ignored) changes, sorted. */
export async function changedFiles(git: RunGit): Promise<string[]> {
  const [tracked, untracked] = await Promise.all([
    git(['diff', '--name-only', '-z', '--no-renames', 'HEAD', '--']),
    git(['ls-files', '--others', '--exclude-standard', '-z', '--']),
  ]);
  return [...new Set([...nulList(tracked), ...nulList(untracked)])].sort();
}

/**
 * Stages the work tree's changes: those of `paths` (from changedFiles) when the caller knows
 * them, so a 30,000-file tree is not walked again, else everything. The paths go through a file
 * of literal, NUL-separated pathspecs: no argument-length limit, and a file named `*` is itself.
 */
export async function addChanges(git: RunGit, paths: readonly string[] | undefined, env?: Record<string, string>): Promise<void> {
  if (paths === undefined) {
    await git(['add', '--all', '--', '.'], env);
    return;
  }
  if (paths.length === 0) return;
  const dir = await mkdtemp(join(tmpdir(), 'agent-paths-'));
  try {
    const list = join(dir, 'pathspecs');
    await writeFile(list, paths.join('\0') + '\0');
    await git(['--literal-pathspecs', 'add', '--all', `--pathspec-from-file=${list}`, '--pathspec-file-nul'], env);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function unstage(git: RunGit, paths: readonly string[], env?: Record<string, string>): Promise<void> {
  if (paths.length === 0) return;
  // Literal pathspecs: a file named `*` or `:(glob)x` must not widen what is left out.
  await git(['--literal-pathspecs', 'reset', '--quiet', 'HEAD', '--', ...paths], env);
}

/**
 * Runs `fn` against a copy of the index with the work-tree changes (of `paths` when known)
 * staged but `exclude`, so untracked files show up in diffs while the real index stays as the
 * caller left it.
 */
async function withWorkTreeIndex<T>(
  git: RunGit,
  dir: string,
  fn: (env: Record<string, string>) => Promise<T>,
  exclude: readonly string[] = [],
  paths?: readonly string[],
): Promise<T> {
  const tmp = await mkdtemp(join(tmpdir(), 'agent-index-'));
  const env = { GIT_INDEX_FILE: join(tmp, 'index') };
  try {
    const realIndex = resolve(dir, (await git(['rev-parse', '--git-path', 'index'])).trim());
    // Starting from the real index keeps its stat cache, so unchanged files are not re-hashed.
    await copyIndex(realIndex, env.GIT_INDEX_FILE);
    await addChanges(git, paths, env);
    await unstage(git, exclude, env);
    return await fn(env);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** The work tree's diff against HEAD (untracked files included) in the repository at `dir`. */
export async function workTreeDiff(
  git: RunGit,
  dir: string,
  opts: { maxChars?: number; exclude?: readonly string[] } = {},
): Promise<string> {
  const text = await withWorkTreeIndex(git, dir, (env) => git(DIFF, env), opts.exclude);
  return opts.maxChars === undefined ? text : cutAtLine(text, opts.maxChars);
}

/**
 * The diff and its stat, from one staged copy of the index; `exclude` (credentials files) is not
 * in either; `paths` are the changed files when the caller has them (see changedFiles).
 */
export async function workTreeDiffAndStat(
  git: RunGit,
  dir: string,
  opts: { exclude?: readonly string[]; paths?: readonly string[] } = {},
): Promise<{ diff: string; stat: string }> {
  return withWorkTreeIndex(
    git,
    dir,
    async (env) => {
      const [diff, stat] = await Promise.all([git(DIFF, env), git(DIFF_STAT, env)]);
      return { diff, stat };
    },
    opts.exclude,
    opts.paths,
  );
}
