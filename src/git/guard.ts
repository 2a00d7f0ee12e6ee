import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { GitDirs } from './git-dir.js';

/**
 * The files in a repository's dir that git obeys on its own and no variable can switch off: the
 * config (filters, `include`, `core.sshCommand`, `remote.*.receivepack`, `url.*.insteadOf`...),
 * the per-worktree config, alternate object stores and the repository's attributes.
 */
const COMMON_FILES = ['config', 'config.worktree', 'objects/info/alternates', 'info/attributes'];
/**
 * `commondir` too: GIT_COMMON_DIR moves config and objects, but git's ref store still reads the
 * file, so a planted one would send the commit's ref update into another directory.
 */
const GIT_DIR_FILES = ['commondir', 'config.worktree'];
const WORKTREES = 'worktrees';

type Snapshot = Map<string, Buffer | null>;

async function contentOf(path: string): Promise<Buffer | null> {
  const stat = await lstat(path).catch(() => undefined);
  // A symlink planted in place of the file is compared by what it is, not what it points at.
  if (!stat?.isFile()) return stat ? Buffer.from(`not a file: ${stat.mode}`) : null;
  return readFile(path);
}

async function entries(dir: string): Promise<Set<string>> {
  return new Set(await readdir(dir).catch(() => []));
}

/** Puts `content` at `path` by renaming a new file over it, so a planted symlink is replaced, never followed. */
async function put(path: string, content: Buffer | null): Promise<void> {
  if (content === null) return rm(path, { recursive: true, force: true });
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.agent-${randomBytes(6).toString('hex')}`;
  await writeFile(temp, content, { mode: 0o644 });
  await rename(temp, path);
}

/**
 * Holds those files as they were when the model was about to start (the action's own checkout
 * and credential changes done) and, before each of the action's later git commands, puts back
 * any the run changed, created or replaced, and removes linked worktrees it added. Before
 * `seal()` it does nothing: everything up to then is the action's own doing.
 */
export class GitDirGuard {
  /** One guard per repository in a process: the change listing after the loop checks the same seal as the commit. */
  private static readonly byRepo = new Map<string, GitDirGuard>();

  static for(dirs: GitDirs, log?: (message: string) => void): GitDirGuard {
    const key = `${dirs.gitDir}\0${dirs.commonDir}`;
    let guard = GitDirGuard.byRepo.get(key);
    if (!guard) GitDirGuard.byRepo.set(key, (guard = new GitDirGuard(dirs, log)));
    return guard;
  }

  private sealed: { files: Snapshot; worktrees: Set<string> } | undefined;
  /** Commands started together (a diff and its stat) share one check. */
  private checking: Promise<string[]> | undefined;

  constructor(
    private readonly dirs: GitDirs,
    private readonly log: (message: string) => void = () => undefined,
  ) {}

  private paths(): string[] {
    const { commonDir, gitDir } = this.dirs;
    const paths = [...COMMON_FILES.map((f) => join(commonDir, f)), ...GIT_DIR_FILES.map((f) => join(gitDir, f))];
    return [...new Set(paths)];
  }

  async seal(): Promise<void> {
    const files: Snapshot = new Map();
    await Promise.all(this.paths().map(async (p) => files.set(p, await contentOf(p))));
    this.sealed = { files, worktrees: await entries(join(this.dirs.commonDir, WORKTREES)) };
  }

  /** Restores what changed since seal(); the paths it put back, for the log. */
  enforce(): Promise<string[]> {
    this.checking ??= this.restore().finally(() => (this.checking = undefined));
    return this.checking;
  }

  private async restore(): Promise<string[]> {
    if (!this.sealed) return [];
    const restored: string[] = [];
    for (const [path, before] of this.sealed.files) {
      const now = await contentOf(path);
      if (before === null ? now === null : now !== null && before.equals(now)) continue;
      await put(path, before);
      restored.push(path);
    }
    const worktrees = join(this.dirs.commonDir, WORKTREES);
    for (const name of await entries(worktrees)) {
      if (this.sealed.worktrees.has(name)) continue;
      await rm(join(worktrees, name), { recursive: true, force: true });
      restored.push(join(worktrees, name));
    }
    if (restored.length > 0) this.log(`agent-action: git files changed during the run were put back as they were: ${restored.join(', ')}`);
    return restored;
  }
}
