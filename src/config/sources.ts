/**
 * Where trusted settings come from. In the action: the repository's `.claude/settings.json` read
 * through the contents API at a ref the caller picks (the base branch of a pull request, else the
 * default branch; never a PR head, whose author must not change the rules, hooks or MCP servers
 * of their own run), then the `settings` input. In the CLI: the user's own checkout, then
 * `--settings`. I/O is passed in so that tests run against real fakes.
 */
import { join, resolve } from 'node:path';
import type { GitHub } from '../github/client.js';
import { statusOf } from '../github/status.js';
import { parseClaudeSettings, SettingsFileError } from './claude-settings.js';
import type { SettingsSource } from './merge.js';

/** Reads a UTF-8 file, throwing as `fs.readFileSync(path, 'utf8')` does (code `ENOENT` when it is absent). */
export type ReadFile = (path: string) => string;
export type Log = (message: string) => void;

export const REPO_SETTINGS_PATH = '.claude/settings.json';
export const LOCAL_SETTINGS_PATH = '.claude/settings.local.json';

export type RefKind = 'base branch' | 'default branch' | 'branch';

/** The ref the repository's settings are read at: a pull request's base branch, else the default branch. */
export function repoSettingsRef(o: { pull?: { baseRef: string } | null; defaultBranch: string }): { ref: string; kind: RefKind } {
  return o.pull ? { ref: o.pull.baseRef, kind: 'base branch' } : { ref: o.defaultBranch, kind: 'default branch' };
}

/**
 * The repository's `.claude/settings.json` at `ref`, or null when it has none (404). Other
 * errors propagate: running without the repository's deny rules because GitHub hiccupped
 * would be running with fewer restrictions than its owner set.
 */
export async function loadRepoSettings(
  gh: GitHub,
  where: { owner: string; repo: string },
  ref: string,
  log: Log,
  kind: RefKind = 'branch',
): Promise<SettingsSource | null> {
  const source = `${REPO_SETTINGS_PATH} (${kind} ${ref})`;
  let data;
  try {
    ({ data } = await gh.rest.repos.getContent({ ...where, path: REPO_SETTINGS_PATH, ref }));
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw error;
  }
  if (Array.isArray(data)) throw new SettingsFileError(source, `${source}: is a directory, not a file`);
  if (data.type !== 'file' || !('content' in data)) throw new SettingsFileError(source, `${source}: is a ${data.type}, not a file`);
  // The contents API leaves `content` empty (encoding "none") for files over 1 MB.
  if (data.encoding !== 'base64') throw new SettingsFileError(source, `${source}: too large to read (${data.size} bytes)`);
  const text = Buffer.from(data.content, 'base64').toString('utf8');
  return { source, settings: parseClaudeSettings(text, source, log) };
}

/**
 * The `settings` action input: JSON when it starts with `{`, else a path relative to the
 * workspace (a file of the workflow's own checkout). Empty means none.
 */
export function settingsInput(value: string, workspace: string, readFile: ReadFile, log: Log): SettingsSource | null {
  return inlineOrFile(value, workspace, 'settings input', readFile, log);
}

/**
 * The CLI's settings, in precedence order: `.claude/settings.json` then `.claude/settings.local.json`
 * in `cwd` (either may be missing; `sources: 'none'` skips both), then `--settings` (JSON, or a
 * file path relative to the shell's directory as for any other CLI path).
 */
export function loadCliSettings(
  o: { cwd: string; settings?: string; sources: 'all' | 'none' },
  readFile: ReadFile,
  log: Log,
): SettingsSource[] {
  const out: SettingsSource[] = [];
  if (o.sources === 'all') {
    for (const path of [REPO_SETTINGS_PATH, LOCAL_SETTINGS_PATH]) {
      const text = readIfPresent(readFile, join(o.cwd, path), path);
      if (text !== null) out.push({ source: path, settings: parseClaudeSettings(text, path, log) });
    }
  }
  const flag = o.settings === undefined ? null : inlineOrFile(o.settings, resolve('.'), '--settings', readFile, log);
  if (flag) out.push(flag);
  return out;
}

function inlineOrFile(value: string, base: string, name: string, readFile: ReadFile, log: Log): SettingsSource | null {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  if (trimmed.startsWith('{')) return { source: name, settings: parseClaudeSettings(trimmed, name, log) };
  const source = `${name} (${trimmed})`;
  const path = resolve(base, trimmed);
  const text = readIfPresent(readFile, path, source);
  // A file named explicitly must exist: running without it would drop the rules it holds.
  if (text === null) throw new SettingsFileError(source, `${source}: file not found: ${path}`);
  return { source, settings: parseClaudeSettings(text, source, log) };
}

/** The file's text, or null when it does not exist; other read errors become a SettingsFileError. */
function readIfPresent(readFile: ReadFile, path: string, source: string): string | null {
  try {
    return readFile(path);
  } catch (error) {
    const code = errorCode(error);
    // ENOTDIR: a path component (e.g. `.claude`) is a file, so the settings file cannot exist either.
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    const message = error instanceof Error ? error.message : String(error);
    throw new SettingsFileError(source, `${source}: cannot read ${path}: ${message}`);
  }
}

function errorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') return error.code;
  return undefined;
}
