/**
 * The trusted ref's files, outside the workspace. The ref's commit is fetched (depth 1) into a
 * bare repository of its own, so the workspace's repository, its shallow history and its refs
 * stay as they were, and nothing here can be pushed or committed. (It does not borrow the
 * workspace's objects: a shallow workspace would advertise history it does not hold, and the
 * fetch would come back incomplete.) Files are written
 * by git itself (modes and symlinks as committed) with no repository config, so no filter,
 * hook or attribute of the trusted ref runs a program while it is written.
 */
import { mkdir } from 'node:fs/promises';
import { safeGit, type Git } from '../git/safe.js';

/** One entry of the trusted tree. */
export interface TreeEntry {
  type: 'blob' | 'tree' | 'commit';
  /** Relative to the repository root, `/`-separated. */
  path: string;
}

export type Tree = ReadonlyMap<string, TreeEntry>;

/** Branch names GitHub gives as a pull request's base: letters, digits and `._-/+#,=` only, never an option. */
const REF_NAME = /^[\p{L}\p{N}._\-/+#,=]+$/u;

export interface FetchInput {
  workspace: string;
  /** An empty directory of the action's own (under RUNNER_TEMP): the bare repository goes there. */
  gitDir: string;
  /** The branch the trusted settings were read from. */
  ref: string;
  /** The environment of git commands that reach origin (the push credential, scoped to the server). */
  env: Record<string, string>;
}

/** Fetches `ref` from the workspace's origin into a bare repository at gitDir; the commit fetched. */
/** The bare repository holding the trusted commit. */
export interface TrustedRepo {
  git: Git;
  gitDir: string;
  commit: string;
  env: Record<string, string>;
}

export async function fetchTrustedCommit(o: FetchInput): Promise<TrustedRepo> {
  if (o.ref.startsWith('-') || !REF_NAME.test(o.ref)) throw new Error(`Refusing to fetch the trusted ref ${JSON.stringify(o.ref)}`);
  const work = safeGit(o.workspace, o.env);
  const url = await work.raw(['remote', 'get-url', 'origin']);
  await mkdir(o.gitDir, { recursive: true });
  const git = safeGit(o.gitDir, { ...o.env, GIT_DIR: o.gitDir });
  await git.raw(['init', '--quiet', '--bare', o.gitDir]);
  await git.raw(['fetch', '--quiet', '--no-tags', '--depth=1', url.trim(), `+refs/heads/${o.ref}:refs/trusted`]);
  const commit = (await git.raw(['rev-parse', '--verify', 'refs/trusted^{commit}'])).trim();
  return { git, gitDir: o.gitDir, commit, env: o.env };
}

/** Every path of the commit's tree, directories included. */
export async function listTree({ git, commit }: TrustedRepo): Promise<Tree> {
  const out = await git.raw(['ls-tree', '-r', '-t', '-z', '--full-tree', commit]);
  const tree = new Map<string, TreeEntry>();
  for (const line of out.split('\0')) {
    // `<mode> SP <type> SP <object> TAB <path>`
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const type = line.slice(0, tab).split(' ')[1];
    if (type === 'blob' || type === 'tree' || type === 'commit') tree.set(line.slice(tab + 1), { type, path: line.slice(tab + 1) });
  }
  return tree;
}

/** Writes the units (files or folders of the tree) under dest, as committed. */
export async function writeUnits(repo: TrustedRepo, units: readonly string[], dest: string): Promise<void> {
  await mkdir(dest, { recursive: true });
  if (units.length === 0) return;
  // Literal pathspecs: a unit named `*.sh` is that file, not a pattern.
  const checkout = safeGit(dest, { ...repo.env, GIT_DIR: repo.gitDir, GIT_WORK_TREE: dest, GIT_LITERAL_PATHSPECS: '1' });
  await checkout.raw(['checkout', '--quiet', repo.commit, '--', ...units]);
}
