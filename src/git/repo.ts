import { resolve } from 'node:path';
import { inheritedEnv, safeGit, type Git, type RunGit } from './safe.js';
import { locateGitDirs, pinnedEnv, type GitDirs } from './git-dir.js';
import type { GitDirGuard } from './guard.js';
import { RefStore } from './ref-store.js';
import { cleanIdentity, identityFor, type Identity } from './names.js';
import { withTrailers } from './commit-message.js';
import { cutAtLine, nulList } from './diff-text.js';
import { parseRawDiff, readBlobs, type TreeChange } from './objects.js';
import { isValidBranchName, remoteBranchExists, requireBranchName, uniqueBranchName } from './branches.js';
import { addChanges, changedFiles, unstage, workTreeDiff, workTreeDiffAndStat } from './work-tree.js';

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

  private readonly raw: RunGit = (args, extraEnv) => this.git(extraEnv).raw(args);

  isValidBranchName(name: string): Promise<boolean> {
    return isValidBranchName(this.raw, name);
  }

  private requireBranchName(name: string): Promise<void> {
    return requireBranchName(this.raw, name);
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

  remoteBranchExists(branch: string): Promise<boolean> {
    return remoteBranchExists(this.raw, branch);
  }

  async createBranch(name: string): Promise<void> {
    await this.requireBranchName(name);
    await this.raw(['switch', '--create', name]);
  }

  uniqueBranchName(base: string): Promise<string> {
    return uniqueBranchName(this.raw, base);
  }

  changedFiles(): Promise<string[]> {
    return changedFiles(this.raw);
  }

  diff(opts: { maxChars?: number; exclude?: readonly string[] } = {}): Promise<string> {
    return workTreeDiff(this.raw, this.dir, opts);
  }

  /** The diff and its stat, from one staged copy of the index (see workTreeDiffAndStat). */
  diffAndStat(opts: { exclude?: readonly string[]; paths?: readonly string[] } = {}): Promise<{ diff: string; stat: string }> {
    return workTreeDiffAndStat(this.raw, this.dir, opts);
  }

  async commitAll(message: string, opts: CommitOptions): Promise<string | null> {
    await addChanges(this.raw, opts.paths);
    await unstage(this.raw, opts.exclude ?? []);
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
