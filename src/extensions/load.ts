/**
 * Loading agents, skills and commands from where they can be trusted. In the action: the
 * repository's `.claude/` at a ref the caller picks (a pull request's base branch, else the
 * default branch), through the contents API, never the checked-out workspace, which may hold the
 * pull request's head: its author must not give their own run new instructions or tool rules.
 * In the CLI: the user's own checkout on disk. Files that cannot be used are skipped and logged.
 */
import { join } from 'node:path';
import type { GitHub } from '../github/client.js';
import { listRepoDir } from '../github/repo.js';
import { statusOf } from '../github/status.js';
import { build, DIRS, planAsync, planSync, type Entry, type Extensions, type Log, type Planned, type ReadResult } from './collect.js';
import { loadFrontmatterParser } from './frontmatter.js';

export type { Extensions, Log } from './collect.js';

/** Disk access for the CLI, passed in so that tests can use a temporary directory or a fake. */
export interface LocalIO {
  /** The names in a directory; throws (code ENOENT) when it does not exist, as `fs.readdirSync` does. */
  readDir(path: string): string[];
  readFile(path: string): string;
  isDirectory(path: string): boolean;
}

/** Files are read this many at a time: quick for a handful, gentle on the API for a hundred. */
const PARALLEL_READS = 8;

/** A folder's files and folders; a missing one (404) holds none, other errors propagate rather than silently dropping a command. */
async function listRepo(gh: GitHub, where: { owner: string; repo: string }, ref: string, dir: string): Promise<Entry[]> {
  const entries = await listRepoDir(gh, where, dir, ref);
  return entries.flatMap((e): Entry[] => (e.type === 'file' || e.type === 'dir' ? [{ name: e.name, type: e.type, size: e.size }] : []));
}

async function readRepo(gh: GitHub, where: { owner: string; repo: string }, ref: string, path: string): Promise<ReadResult> {
  try {
    const { data } = await gh.rest.repos.getContent({ ...where, path, ref });
    if (Array.isArray(data)) return { problem: 'is a directory, not a file' };
    if (data.type !== 'file' || !('content' in data)) return { problem: `is a ${data.type}, not a file` };
    // The contents API leaves `content` empty (encoding "none") for files over 1 MB.
    if (data.encoding !== 'base64') return { problem: `too large to read (${data.size} bytes)` };
    return { text: Buffer.from(data.content, 'base64').toString('utf8') };
  } catch (error) {
    if (statusOf(error) === 404) return { missing: true };
    throw error;
  }
}

/**
 * The repository's agents, skills and commands at `ref`. Throws only when GitHub fails (other
 * than 404). `exists` says which of the three folders may be there (the caller listed `.claude`
 * already): the others are not asked for.
 */
export async function loadRepoExtensions(
  gh: GitHub,
  where: { owner: string; repo: string },
  ref: string,
  log: Log,
  exists: (dir: string) => boolean = () => true,
): Promise<Extensions> {
  const label = (path: string): string => `${path} (${ref})`;
  // The three folders are listed at once; the plan then asks for them (and any below) in turn.
  const list = (dir: string) => (exists(dir) ? listRepo(gh, where, ref, dir) : Promise.resolve([]));
  const listed = new Map<string, Promise<Entry[]>>(Object.values(DIRS).map((dir) => [dir, list(dir)]));
  for (const listing of listed.values()) listing.catch(() => undefined);
  const files = await planAsync(log, label, (dir) => listed.get(dir) ?? listRepo(gh, where, ref, dir));
  const read: { file: Planned; result: ReadResult }[] = [];
  for (let i = 0; i < files.length; i += PARALLEL_READS) {
    const batch = files.slice(i, i + PARALLEL_READS);
    read.push(...(await Promise.all(batch.map(async (file) => ({ file, result: await readRepo(gh, where, ref, file.path) })))));
  }
  if (read.length > 0) await loadFrontmatterParser();
  return build(read, log, label);
}

function errorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') return error.code;
  return undefined;
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function listLocal(cwd: string, io: LocalIO, dir: string, log: Log): Entry[] {
  let names: string[];
  try {
    names = io.readDir(join(cwd, dir));
  } catch (error) {
    const code = errorCode(error);
    // ENOTDIR: a path component (e.g. `.claude`) is a file, so the directory cannot exist either.
    if (code !== 'ENOENT' && code !== 'ENOTDIR') log(`Skipped ${dir}: cannot list it: ${message(error)}`);
    return [];
  }
  return [...names].sort().map((name): Entry => ({ name, type: io.isDirectory(join(cwd, dir, name)) ? 'dir' : 'file' }));
}

function readLocal(cwd: string, io: LocalIO, path: string): ReadResult {
  try {
    return { text: io.readFile(join(cwd, path)) };
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { missing: true };
    return { problem: `cannot read it: ${message(error)}` };
  }
}

/** The agents, skills and commands of the checkout at `cwd` (the CLI's `--cwd`). Never throws for a file's sake. */
export async function loadLocalExtensions(cwd: string, io: LocalIO, log: Log): Promise<Extensions> {
  const label = (path: string): string => path;
  const files = planSync(log, label, (dir) => listLocal(cwd, io, dir, log));
  if (files.length > 0) await loadFrontmatterParser();
  return build(
    files.map((file) => ({ file, result: readLocal(cwd, io, file.path) })),
    log,
    label,
  );
}
