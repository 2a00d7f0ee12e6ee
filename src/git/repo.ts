import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inheritedEnv, safeGit, type Git } from './safe.js';
import { locateGitDirs, pinnedEnv, type GitDirs } from './git-dir.js';
import type { GitDirGuard } from './guard.js';
import { RefStore } from './ref-store.js';
import { cleanIdentity, identityFor, type Identity } from './names.js';
import { withTrailers } from './commit-message.js';
import { cutAtLine, DIFF, DIFF_STAT, nulList } from './diff-text.js';
import { copyIndex } from './index-copy.js';
import { parseRawDiff, readBlobs, type TreeChange } from './objects.js';

export { BOT_IDENTITY, slugify, type Identity } from './names.js';

export interface CommitOptions {
  author?: Identity;
  committer: Identity;
  coAuthors?: Identity[];
  /** Paths left out of the commit (e.g. workflow files the token may not push); they stay in the work tree. */
  exclude?: string[];
  /** The changed files (changedFiles) when the caller has them: only they are staged, the tree is not walked again. */
  paths?: readonly string[];
}

const WORKFLOWS_DIR = '.github/workflows/';

/** Letters, digits and `._-/+#,=`: valid refs may hold `$(id)` or quotes, which a branch we push never needs. */
const BRANCH_CHARS = /^[\p{L}\p{N}._\-/+#,=]+$/u;

export interface RepoOptions {
  env?: Record<string, string>;
  /** Where the repository is, found before the model ran; found now when not given. */
  dirs?: GitDirs | null;
  /** Puts back git's own files the run changed before each command (shared by handles of one workspace). */
  guard?: GitDirGuard;
}

/** The workflow files among changed paths: a token rarely may push them (see deliver.ts). */
export function workflowFiles(paths: readonly string[]): string[] {
  return paths.filter((path) => path.startsWith(WORKFLOWS_DIR));
}

export class Repo {
  private constructor(
    private readonly dir: string,
    private readonly env: Record<string, string>,
    /** GIT_DIR, GIT_COMMON_DIR and GIT_WORK_TREE: what the work tree holds later cannot move them. */
    private readonly pins: Record<string, string>,
    private readonly guard: GitDirGuard | undefined,
  ) {}

  static open(dir: string, opts: RepoOptions = {}): Repo {
    const dirs = opts.dirs === undefined ? locateGitDirs(dir) : opts.dirs;
    const env = { ...inheritedEnv(), GIT_TERMINAL_PROMPT: '0', ...opts.env };
    return new Repo(resolve(dir), env, dirs ? pinnedEnv(dirs) : {}, opts.guard);
  }

  private git(extraEnv: Record<string, string> = {}): Git {
    const git = safeGit(this.dir, { ...this.env, ...this.pins, ...extraEnv });
    const guard = this.guard;
    return guard ? { raw: async (args) => (await guard.enforce(), git.raw(args)) } : git;
  }

  private raw(args: string[], extraEnv?: Record<string, string>): Promise<string> {
    return this.git(extraEnv).raw(args);
  }

  async isValidBranchName(name: string): Promise<boolean> {
    if (name.startsWith('-') || !BRANCH_CHARS.test(name)) return false;
    try {
      // --branch also expands `@{-1}` and friends; only a name that comes back unchanged is literal.
      return (await this.raw(['check-ref-format', '--branch', name])).trim() === name;
    } catch {
      return false;
    }
  }

  private async requireBranchName(name: string): Promise<void> {
    if (!(await this.isValidBranchName(name))) throw new Error(`Refusing invalid branch name: ${JSON.stringify(name)}`);
  }

  /** The checked-out branch, or '' when HEAD is detached. */
  async currentBranch(): Promise<string> {
    try {
      return (await this.raw(['symbolic-ref', '--quiet', '--short', 'HEAD'])).trim();
    } catch {
      return '';
    }
  }

  async headSha(): Promise<string> {
    return (await this.raw(['rev-parse', '--verify', 'HEAD^{commit}'])).trim();
  }

  async checkoutPullHead(branch: string): Promise<void> {
    await this.requireBranchName(branch);
    const refspec = `+refs/heads/${branch}:refs/remotes/origin/${branch}`;
    await this.addFetchRefspec(refspec);
    await this.raw(['fetch', '--no-tags', '--depth=1', 'origin', refspec]);
    await this.raw(['checkout', '--quiet', '-B', branch, '--track', `refs/remotes/origin/${branch}`, '--']);
  }

  /** A pull request's head by number (`refs/pull/<n>/head`), e.g. from a fork; checked out detached. */
  async checkoutPullRef(pullNumber: number): Promise<void> {
    if (!Number.isSafeInteger(pullNumber) || pullNumber <= 0) throw new Error(`Refusing invalid pull request number: ${pullNumber}`);
    const ref = `refs/remotes/origin/pull/${pullNumber}/head`;
    await this.raw(['fetch', '--no-tags', '--depth=1', 'origin', `+refs/pull/${pullNumber}/head:${ref}`]);
    await this.raw(['checkout', '--quiet', '--detach', ref, '--']);
  }

  /**
   * Whether sha is HEAD or an ancestor of it, on a branch fetched with depth 1: a shallow history is
   * deepened by 49 commits (the 50 a follow-up review looks back) before the answer is no. Only
   * a question about older history pays for it; the checkout fetches one commit, whatever the depth.
   */
  async reaches(sha: string): Promise<boolean> {
    if (await this.isAncestor(sha)) return true;
    if (!/^[0-9a-f]{7,64}$/i.test(sha)) return false;
    const shallow = await this.raw(['rev-parse', '--is-shallow-repository']).catch(() => 'false');
    if (shallow.trim() !== 'true') return false;
    try {
      await this.raw(['fetch', '--no-tags', '--deepen=49', 'origin', await this.headSha()]);
    } catch {
      return false;
    }
    return this.isAncestor(sha);
  }

  /** Whether sha is HEAD or an ancestor of it; false also when sha is not here (a force-push dropped it). */
  async isAncestor(sha: string): Promise<boolean> {
    if (!/^[0-9a-f]{7,64}$/i.test(sha)) return false;
    try {
      await this.raw(['merge-base', '--is-ancestor', sha, 'HEAD']);
      return true;
    } catch {
      return false;
    }
  }

  /** The committed changes from sha to HEAD, cut at a line to maxChars. */
  async diffSince(sha: string, maxChars: number): Promise<string> {
    if (!/^[0-9a-f]{7,64}$/i.test(sha)) throw new Error(`Refusing an invalid commit id: ${sha}`);
    const text = await this.raw(['diff', '--no-color', '--no-ext-diff', '--no-textconv', `${sha}..HEAD`, '--']);
    return cutAtLine(text, maxChars);
  }

  /** A single-branch clone fetches only the default branch; upstream tracking needs this one covered too. */
  private async addFetchRefspec(refspec: string): Promise<void> {
    const current = await this.raw(['config', '--get-all', 'remote.origin.fetch']).catch(() => '');
    if (current.split('\n').includes(refspec)) return;
    await this.raw(['config', '--add', 'remote.origin.fetch', refspec]);
  }

  private async remoteBranches(): Promise<Set<string>> {
    const out = await this.raw(['ls-remote', '--heads', 'origin']);
    const names = new Set<string>();
    for (const line of out.split('\n')) {
      const ref = line.split('\t')[1];
      if (ref?.startsWith('refs/heads/')) names.add(ref.slice('refs/heads/'.length));
    }
    return names;
  }

  private async localBranches(): Promise<Set<string>> {
    const out = await this.raw(['for-each-ref', '--format=%(refname:lstrip=2)', 'refs/heads/']);
    return new Set(out.split('\n').filter((line) => line.length > 0));
  }

  async remoteBranchExists(branch: string): Promise<boolean> {
    await this.requireBranchName(branch);
    // A pattern argument would match by suffix (`x` finds `a/x`), so compare exact names.
    return (await this.remoteBranches()).has(branch);
  }

  async createBranch(name: string): Promise<void> {
    await this.requireBranchName(name);
    await this.raw(['switch', '--create', name]);
  }

  async uniqueBranchName(base: string): Promise<string> {
    await this.requireBranchName(base);
    const [remote, local] = await Promise.all([this.remoteBranches(), this.localBranches()]);
    const taken = (name: string) => remote.has(name) || local.has(name);
    let candidate = base;
    for (let n = 2; taken(candidate); n += 1) candidate = `${base}-${n}`;
    return candidate;
  }

  async changedFiles(): Promise<string[]> {
    const [tracked, untracked] = await Promise.all([
      this.raw(['diff', '--name-only', '-z', '--no-renames', 'HEAD', '--']),
      this.raw(['ls-files', '--others', '--exclude-standard', '-z', '--']),
    ]);
    return [...new Set([...nulList(tracked), ...nulList(untracked)])].sort();
  }

  /**
   * Stages the work tree's changes: those of `paths` (from changedFiles) when the caller knows
   * them, so a 30,000-file tree is not walked again, else everything. The paths go through a file
   * of literal, NUL-separated pathspecs: no argument-length limit, and a file named `*` is itself.
   */
  private async addChanges(paths: readonly string[] | undefined, env?: Record<string, string>): Promise<void> {
    if (paths === undefined) {
      await this.raw(['add', '--all', '--', '.'], env);
      return;
    }
    if (paths.length === 0) return;
    const dir = await mkdtemp(join(tmpdir(), 'agent-paths-'));
    try {
      const list = join(dir, 'pathspecs');
      await writeFile(list, paths.join('\0') + '\0');
      await this.raw(['--literal-pathspecs', 'add', '--all', `--pathspec-from-file=${list}`, '--pathspec-file-nul'], env);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /**
   * Runs `fn` against a copy of the index with the work-tree changes (of `paths` when known)
   * staged but `exclude`, so untracked files show up in diffs while the real index stays as the
   * caller left it.
   */
  private async withWorkTreeIndex<T>(
    fn: (env: Record<string, string>) => Promise<T>,
    exclude: readonly string[] = [],
    paths?: readonly string[],
  ): Promise<T> {
    const tmp = await mkdtemp(join(tmpdir(), 'agent-index-'));
    const env = { GIT_INDEX_FILE: join(tmp, 'index') };
    try {
      const realIndex = resolve(this.dir, (await this.raw(['rev-parse', '--git-path', 'index'])).trim());
      // Starting from the real index keeps its stat cache, so unchanged files are not re-hashed.
      await copyIndex(realIndex, env.GIT_INDEX_FILE);
      await this.addChanges(paths, env);
      await this.unstage(exclude, env);
      return await fn(env);
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  }

  async diff(opts: { maxChars?: number; exclude?: readonly string[] } = {}): Promise<string> {
    const text = await this.withWorkTreeIndex((env) => this.raw(DIFF, env), opts.exclude);
    return opts.maxChars === undefined ? text : cutAtLine(text, opts.maxChars);
  }

  /**
   * The diff and its stat, from one staged copy of the index; `exclude` (credentials files) is not
   * in either; `paths` are the changed files when the caller has them (see changedFiles).
   */
  async diffAndStat(opts: { exclude?: readonly string[]; paths?: readonly string[] } = {}): Promise<{ diff: string; stat: string }> {
    return this.withWorkTreeIndex(
      async (env) => {
        const [diff, stat] = await Promise.all([this.raw(DIFF, env), this.raw(DIFF_STAT, env)]);
        return { diff, stat };
      },
      opts.exclude,
      opts.paths,
    );
  }

  private async unstage(paths: readonly string[], env?: Record<string, string>): Promise<void> {
    if (paths.length === 0) return;
    // Literal pathspecs: a file named `*` or `:(glob)x` must not widen what is left out.
    await this.raw(['--literal-pathspecs', 'reset', '--quiet', 'HEAD', '--', ...paths], env);
  }

  async commitAll(message: string, opts: CommitOptions): Promise<string | null> {
    await this.addChanges(opts.paths);
    await this.unstage(opts.exclude ?? []);
    const staged = await this.raw(['diff', '--cached', '--name-only', '-z', 'HEAD', '--']);
    if (nulList(staged).length === 0) return null;
    const { env, args } = identityFor(opts.committer, opts.author);
    const text = withTrailers(message, cleanIdentity(opts.author ?? opts.committer), opts.coAuthors ?? []);
    await this.raw([...args, 'commit', '--quiet', '--no-verify', '--no-gpg-sign', '--cleanup=whitespace', '-m', text], env);
    return this.headSha();
  }

  async push(branch: string, opts: { setUpstream?: boolean } = {}): Promise<void> {
    await this.requireBranchName(branch);
    const upstream = opts.setUpstream ? ['--set-upstream'] : [];
    await this.raw(['push', '--no-verify', ...upstream, 'origin', `HEAD:refs/heads/${branch}`]);
  }

  /**
   * After a push was rejected because another run pushed to the branch first: fetches that work
   * and replays this branch's new commits on top of it. A conflict is undone and its files named;
   * nothing is ever forced.
   */
  async rebaseOnRemote(branch: string, committer: Identity): Promise<{ conflicts: string[] }> {
    await this.requireBranchName(branch);
    const tracking = `refs/remotes/origin/${branch}`;
    await this.raw(['fetch', '--no-tags', 'origin', `+refs/heads/${branch}:${tracking}`]);
    const { env, args } = identityFor(committer);
    try {
      await this.raw([...args, 'rebase', '--quiet', '--autostash', '--no-verify', tracking], env);
      return { conflicts: [] };
    } catch (error) {
      const conflicts = nulList(await this.raw(['diff', '--name-only', '-z', '--diff-filter=U']).catch(() => ''));
      await this.raw(['rebase', '--abort']).catch(() => undefined);
      if (conflicts.length === 0) throw error;
      return { conflicts: conflicts.sort() };
    }
  }

  /** A commit's first parent. */
  async parentOf(sha: string): Promise<string> {
    return (await this.raw(['rev-parse', '--verify', `${sha}^1^{commit}`])).trim();
  }

  /** The tree a commit points at. */
  async treeOf(sha: string): Promise<string> {
    return (await this.raw(['rev-parse', '--verify', `${sha}^{tree}`])).trim();
  }

  /** A commit's message exactly as stored (trailers included). */
  async commitMessage(sha: string): Promise<string> {
    const raw = await this.raw(['cat-file', 'commit', sha]);
    const at = raw.indexOf('\n\n');
    return at < 0 ? '' : raw.slice(at + 2);
  }

  /** What `to` changed against `from`, path by path, with modes and objects (no rename detection). */
  async treeChanges(from: string, to: string): Promise<TreeChange[]> {
    return parseRawDiff(await this.raw(['diff-tree', '-r', '-z', '--raw', '--no-renames', '--no-commit-id', from, to, '--']));
  }

  /** The paths that differ between two commits. */
  async changedBetween(from: string, to: string): Promise<string[]> {
    return nulList(await this.raw(['diff', '--name-only', '-z', '--no-renames', from, to, '--'])).sort();
  }

  /** The bytes of blobs, by id. */
  async blobs(shas: readonly string[]): Promise<Map<string, Buffer>> {
    await this.guard?.enforce();
    return readBlobs(this.dir, { ...this.env, ...this.pins }, shas);
  }

  /** Fetches a branch of origin into its tracking ref; its head commit. */
  async fetchBranch(branch: string): Promise<string> {
    await this.requireBranchName(branch);
    const tracking = `refs/remotes/origin/${branch}`;
    await this.raw(['fetch', '--no-tags', 'origin', `+refs/heads/${branch}:${tracking}`]);
    return (await this.raw(['rev-parse', '--verify', `${tracking}^{commit}`])).trim();
  }

  /**
   * Puts the branch on `sha` and checks it out: the work tree follows where that commit differs
   * from HEAD, and changes left out of the commit stay as they are.
   */
  async moveBranchTo(branch: string, sha: string): Promise<void> {
    await this.requireBranchName(branch);
    await this.raw(['checkout', '--quiet', '-B', branch, sha, '--']);
  }

  /** Deletes a local branch this run made and no longer needs. */
  async deleteLocalBranch(branch: string): Promise<void> {
    await this.requireBranchName(branch);
    await this.raw(['branch', '--quiet', '-D', branch]);
  }

  /** Hidden refs of origin that hold one file each (stored conversations), with this handle's credentials. */
  refStore(): RefStore {
    return new RefStore(this.git(), this.env);
  }

  async workflowChanges(): Promise<string[]> {
    return workflowFiles(await this.changedFiles());
  }
}
