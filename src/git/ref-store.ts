import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Identity } from './names.js';
import { safeGit } from './safe.js';

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

/**
 * One file kept in a hidden ref of origin: a commit without parent whose tree holds that file.
 * Never a branch: it shows in no branch list, is fetched by no default refspec, and is readable
 * exactly by those who can read the repository.
 */
export class RefStore {
  constructor(
    private readonly dir: string,
    private readonly env: Record<string, string>,
  ) {}

  private raw(args: string[], extraEnv: Record<string, string> = {}): Promise<string> {
    return safeGit(this.dir, { ...this.env, ...extraEnv }).raw(args);
  }

  /** The file as origin has it, or why not; a failure to reach origin throws. */
  async read(ref: string, file: string, maxBytes: number): Promise<StoredFile | ReadMiss> {
    requireRef(ref, file);
    const remote = await this.raw(['ls-remote', 'origin', ref]);
    const sha = remote
      .split('\n')
      .find((line) => line.endsWith(`\t${ref}`))
      ?.split('\t')[0];
    if (!sha) return { missing: 'none' };
    await this.raw(['fetch', '--no-tags', '--depth=1', 'origin', `+${ref}:${ref}`]);
    const bytes = Number((await this.raw(['cat-file', '-s', `${sha}:${file}`])).trim());
    if (!(bytes <= maxBytes)) return { missing: 'too-large', bytes };
    return { sha, text: await this.raw(['cat-file', 'blob', `${sha}:${file}`]) };
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
    const tmp = await mkdtemp(join(tmpdir(), 'agent-ref-'));
    try {
      const path = join(tmp, file);
      await writeFile(path, text);
      const index = { GIT_INDEX_FILE: join(tmp, 'index') };
      const blob = (await this.raw(['hash-object', '-w', '--', path])).trim();
      await this.raw(['update-index', '--add', '--cacheinfo', `100644,${blob},${file}`], index);
      const tree = (await this.raw(['write-tree'], index)).trim();
      const who = { name: o.identity.name, email: o.identity.email };
      const identity = {
        GIT_AUTHOR_NAME: who.name,
        GIT_AUTHOR_EMAIL: who.email,
        GIT_COMMITTER_NAME: who.name,
        GIT_COMMITTER_EMAIL: who.email,
      };
      const commit = (await this.raw(['commit-tree', tree, '-m', o.message], identity)).trim();
      await this.raw(['push', '--no-verify', `--force-with-lease=${ref}:${o.expected ?? ''}`, 'origin', `${commit}:${ref}`]);
      return commit;
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  }
}
