import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { identityFor, type Identity } from './names.js';
import { safeGit, type Git } from './safe.js';

/** Our own refs outside branches and tags: `refs/agent-action/<letters, digits, / . _ ->`. */
const REF = /^refs\/agent-action\/[A-Za-z0-9._/-]+$/;
const FILE = /^[A-Za-z0-9._-]+$/;

export interface StoredFile {
  /** The commit the ref pointed at, for the next write's lease. */
  sha: string;
  text: string;
}

/** Why a read came back empty: nothing stored yet, or a file too large to take. */
export type ReadMiss = { missing: 'none' } | { missing: 'too-large'; bytes: number };

function requireRef(ref: string, file: string): void {
  if (!REF.test(ref) || ref.includes('..')) throw new Error(`Refusing an invalid ref: ${JSON.stringify(ref)}`);
  if (!FILE.test(file)) throw new Error(`Refusing an invalid file name: ${JSON.stringify(file)}`);
}

/** git in the scratch repository, with more environment when a step needs it. */
type ScratchGit = (args: string[], extraEnv?: Record<string, string>) => Promise<string>;

/**
 * One file kept in a hidden ref of origin: a commit without parent whose tree holds that file.
 * Never a branch: it shows in no branch list, is fetched by no default refspec, and is readable
 * exactly by those who can read the repository. Every operation runs in a scratch repository of
 * its own, so it never takes the workspace's locks (a checkout may be fetching at the same time)
 * and leaves nothing in the workspace's `.git`.
 */
export class RefStore {
  /**
   * @param workspace git in the workspace (pinned to its repository), for the origin's URL
   * @param env the environment of every command, the scratch repository's included (credentials)
   */
  constructor(
    private readonly workspace: Git,
    private readonly env: Record<string, string>,
  ) {}

  private async scratch<T>(fn: (git: ScratchGit, url: string, tmp: string) => Promise<T>): Promise<T> {
    const url = (await this.workspace.raw(['remote', 'get-url', 'origin'])).trim();
    const tmp = await mkdtemp(join(tmpdir(), 'agent-ref-'));
    try {
      const repo = join(tmp, 'store.git');
      await safeGit(tmp, this.env).raw(['init', '--quiet', '--bare', repo]);
      return await fn((args, extraEnv = {}) => safeGit(repo, { ...this.env, ...extraEnv }).raw(args), url, tmp);
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  }

  /** The file as origin has it, or why not; a failure to reach origin throws. */
  async read(ref: string, file: string, maxBytes: number): Promise<StoredFile | ReadMiss> {
    requireRef(ref, file);
    // Asking origin takes no lock and writes nothing: the scratch repository is made only to fetch.
    const remote = await this.workspace.raw(['ls-remote', 'origin', ref]);
    if (!remote.split('\n').some((line) => line.endsWith(`\t${ref}`))) return { missing: 'none' };
    return this.scratch(async (git, url) => {
      await git(['fetch', '--quiet', '--no-tags', url, `+${ref}:${ref}`]);
      // What was fetched, not what ls-remote saw: another run may have written in between.
      const sha = (await git(['rev-parse', '--verify', `${ref}^{commit}`])).trim();
      const bytes = Number((await git(['cat-file', '-s', `${sha}:${file}`])).trim());
      if (!(bytes <= maxBytes)) return { missing: 'too-large', bytes };
      return { sha, text: await git(['cat-file', 'blob', `${sha}:${file}`]) };
    });
  }

  /**
   * Replaces the file: a new commit without parent, pushed only if the ref still points where it
   * did when read (`expected`, or nowhere), so two writers never silently overwrite each other.
   */
  async write(
    ref: string,
    file: string,
    text: string,
    o: { expected: string | null; message: string; identity: Identity },
  ): Promise<string> {
    requireRef(ref, file);
    return this.scratch(async (git, url, tmp) => {
      const path = join(tmp, file);
      await writeFile(path, text);
      const blob = (await git(['hash-object', '-w', '--', path])).trim();
      const index = { GIT_INDEX_FILE: join(tmp, 'index') };
      await git(['update-index', '--add', '--cacheinfo', `100644,${blob},${file}`], index);
      const tree = (await git(['write-tree'], index)).trim();
      const commit = (await git(['commit-tree', tree, '-m', o.message], identityFor(o.identity).env)).trim();
      await git(['push', '--quiet', '--no-verify', `--force-with-lease=${ref}:${o.expected ?? ''}`, url, `${commit}:${ref}`]);
      return commit;
    });
  }
}
