import { execFile } from 'node:child_process';
import { closeSync, constants, fstatSync, openSync, promises as fs, readSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { SAFE_CONFIG } from '../../git/safe.js';
import { ToolError } from '../tool.js';

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
  /** Output went past maxBuffer; stdout holds the part received before git was stopped. */
  truncated: boolean;
}

export interface GitOptions {
  cwd: string;
  env: Record<string, string>;
  signal: AbortSignal;
  maxBuffer?: number;
}

function numericCode(error: Error & { code?: unknown }): number {
  return typeof error.code === 'number' ? error.code : -1;
}

/**
 * Pathspecs mean what the tools write in them (`:(literal)dir`, `:(glob)**\/x`, `*.ts`) whatever
 * the settings' env holds: a GIT_LITERAL_PATHSPECS=1 there would otherwise turn every pattern into
 * a file name no tree has.
 */
const PATHSPEC_DEFAULTS = { GIT_LITERAL_PATHSPECS: '0', GIT_GLOB_PATHSPECS: '0', GIT_NOGLOB_PATHSPECS: '0', GIT_ICASE_PATHSPECS: '0' };

/**
 * Runs git with argv (never a shell); a non-zero exit is a result, not an exception. It runs in
 * the action's process, outside any sandbox, so it gets the same settings as the action's own git:
 * no hook, fsmonitor or other program the work tree could name.
 */
export function runGit(args: string[], options: GitOptions): Promise<GitResult> {
  const { cwd, env, signal, maxBuffer = 64 * 1024 * 1024 } = options;
  return new Promise((resolve, reject) => {
    const options = { cwd, env: { ...env, ...PATHSPEC_DEFAULTS }, signal, maxBuffer, encoding: 'utf8' } as const;
    execFile('git', [...SAFE_CONFIG, ...args], options, (error, stdout, stderr) => {
      if (!error) return resolve({ code: 0, stdout, stderr, truncated: false });
      if (error.name === 'AbortError') return reject(new ToolError('Cancelled.'));
      const truncated = 'code' in error && error.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER';
      resolve({ code: truncated ? 0 : numericCode(error), stdout, stderr, truncated });
    });
  });
}

/**
 * True when git should list or search dir: it is in a work tree git is willing to use, and not
 * itself ignored (asking for node_modules/x by name means its files are wanted).
 */
export async function searchWithGit(dir: string, env: Record<string, string>, signal: AbortSignal): Promise<boolean> {
  // One question answers both: 0 is ignored, 1 is not, and outside a work tree (or in one git
  // refuses, such as another user's) it fails with 128.
  const ignored = await runGit(['check-ignore', '-q', '.'], { cwd: dir, env, signal });
  return ignored.code === 1;
}

/** git's -z output: each entry ends with a NUL, so only the last piece is empty. */
function splitNul(text: string): string[] {
  const entries = text.split('\0');
  if (entries.at(-1) === '') entries.pop();
  return entries;
}

/** `git ls-files -z` of what is tracked and what is untracked but not ignored under base, with `flags` (such as `-t`). */
function listTrackedAndUntracked(
  base: string,
  env: Record<string, string>,
  signal: AbortSignal,
  pathspecs: string[],
  flags: string[] = [],
): Promise<GitResult> {
  const only = pathspecs.length > 0 ? ['--', ...pathspecs] : [];
  return runGit(['ls-files', '-z', ...flags, '--cached', '--others', '--exclude-standard', ...only], { cwd: base, env, signal });
}

async function gitFiles(
  base: string,
  env: Record<string, string>,
  signal: AbortSignal,
  pathspecs: string[],
  keepDeleted: boolean,
): Promise<string[]> {
  const options = { cwd: base, env, signal };
  const only = pathspecs.length > 0 ? ['--', ...pathspecs] : [];
  const [listed, deleted] = await Promise.all([
    listTrackedAndUntracked(base, env, signal, pathspecs),
    // Deleted but unstaged files are still in the index; `--deleted` finds them with a stat per
    // indexed file, which a caller that checks only what it shows can skip.
    keepDeleted
      ? Promise.resolve({ code: 0, stdout: '', stderr: '', truncated: false })
      : runGit(['ls-files', '-z', '--deleted', ...only], options),
  ]);
  if (listed.code !== 0) throw new ToolError(`git ls-files failed: ${listed.stderr.trim()}`);
  const files = splitNul(listed.stdout);
  if (keepDeleted) return files;
  const gone = new Set(splitNul(deleted.stdout));
  return [...new Set(files)].filter((file) => !gone.has(file));
}

const SKIPPED_DIRECTORIES = new Set(['.git', 'node_modules']);

/** Every file and symlink under base except those under .git and node_modules, for use outside git. */
export async function walkFiles(base: string): Promise<string[]> {
  const files: string[] = [];
  async function visit(dir: string, prefix: string): Promise<void> {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    await Promise.all(
      entries.map(async (entry) => {
        const rel = prefix + entry.name;
        // Sockets, FIFOs and devices are left out: reading one would block or never end.
        if (entry.isFile() || entry.isSymbolicLink()) files.push(rel);
        else if (!entry.isDirectory()) return;
        else if (!SKIPPED_DIRECTORIES.has(entry.name)) await visit(path.join(dir, entry.name), `${rel}/`);
      }),
    );
  }
  await visit(base, '');
  return files;
}

/**
 * Files under base, relative to it with '/' separators: what git would not ignore inside a work
 * tree, otherwise every file except those under .git and node_modules. Never stats a file.
 */
export async function listFiles(
  base: string,
  env: Record<string, string>,
  signal: AbortSignal,
  options: { pathspecs?: string[]; keepDeleted?: boolean } = {},
): Promise<string[]> {
  return (await listCandidates(base, env, signal, options)).files;
}

/**
 * As listFiles, and says whether git applied the pathspecs (then every file matches them); with
 * keepDeleted, files deleted but still in the index stay in and a name may repeat (an unmerged
 * file): the caller checks what it shows.
 */
export async function listCandidates(
  base: string,
  env: Record<string, string>,
  signal: AbortSignal,
  options: { pathspecs?: string[]; keepDeleted?: boolean } = {},
): Promise<{ files: string[]; matched: boolean }> {
  // One git call in the common case: outside a work tree ls-files fails, and only an empty
  // answer raises the question of whether base itself is ignored (then its files are wanted).
  const listed = await gitFiles(base, env, signal, options.pathspecs ?? [], options.keepDeleted ?? false).catch(() => null);
  if (listed && (listed.length > 0 || (await searchWithGit(base, env, signal)))) {
    return { files: listed, matched: (options.pathspecs ?? []).length > 0 };
  }
  return { files: await walkFiles(base), matched: false };
}

/**
 * As listCandidates with keepDeleted, as git's `ls-files -z -t` writes it: one string of entries,
 * each a status tag (`?` for an untracked file), a space, the path and a NUL. Without git the
 * walked files come in the same form, sorted. For a caller that scans the list in place (PathList).
 */
export async function listTaggedCandidates(
  base: string,
  env: Record<string, string>,
  signal: AbortSignal,
  pathspecs: string[],
): Promise<string> {
  const listed = await listTrackedAndUntracked(base, env, signal, pathspecs, ['-t']);
  if (listed.code === 0 && (listed.stdout.length > 0 || (await searchWithGit(base, env, signal)))) return listed.stdout;
  return (await walkFiles(base))
    .sort(comparePaths)
    .map((file) => `? ${file}\0`)
    .join('');
}

/** Code-unit order: the same on every machine, unlike localeCompare. */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Matcher for a file-filter glob: one without '/' matches the base name at any depth, as the
 * glob option of ripgrep does.
 */
export function fileFilter(glob: string): (relPath: string) => boolean {
  return picomatch(glob, { dot: true, basename: !glob.includes('/') });
}

/**
 * The bytes of a regular file of at most maxBytes, else undefined. lstat, not stat: a symlink found
 * while searching may point outside the workspace, and only resolve() may decide about that.
 */
export async function readRegularFile(abs: string, maxBytes: number): Promise<Buffer | undefined> {
  const stat = await fs.lstat(abs).catch(() => undefined);
  if (!stat?.isFile() || stat.size > maxBytes) return undefined;
  return fs.readFile(abs).catch(() => undefined);
}

/**
 * As readRegularFile, without the thread pool: for scanning many files, where a round trip per
 * call costs more than the read. O_NOFOLLOW refuses a symlink as lstat does; O_NONBLOCK keeps a
 * FIFO from blocking the open, and fstat then turns it away.
 */
export function readRegularFileSync(abs: string, maxBytes: number): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > maxBytes) return undefined;
    const bytes = Buffer.allocUnsafe(stat.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return bytes.subarray(0, read);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Checks that a search base is a directory, with a message pointing at the right tool otherwise. */
export async function requireDirectory(abs: string, shown: string): Promise<void> {
  const stat = await fs.stat(abs).catch(() => undefined);
  if (!stat) throw new ToolError(`${shown} does not exist. Give a directory inside the workspace.`);
  if (!stat.isDirectory()) throw new ToolError(`${shown} is a file, not a directory. Use Read to see a file.`);
}
