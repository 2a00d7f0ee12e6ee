import { lstatSync, promises as fs, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { isInside, relativePath } from '../core/paths.js';
import { locateGitDirs } from '../git/git-dir.js';
import { ToolError } from './tool-error.js';

/**
 * File names that hold credentials. Matched against the base name, case-insensitively, of both
 * the path asked for and the file it resolves to, so a symlink cannot launder one.
 */
export const CREDENTIAL_FILE_PATTERNS: readonly string[] = [
  '.npmrc',
  '.netrc',
  '.git-credentials',
  '.pypirc',
  '.pgpass',
  'id_rsa*',
  'id_dsa*',
  'id_ecdsa*',
  'id_ed25519*',
  '*.pem',
];

let credentialMatcher: RegExp | undefined;

/** True for a base name listed in CREDENTIAL_FILE_PATTERNS (the patterns as one expression: a name is tested once, not once per pattern). */
export function isCredentialFileName(name: string): boolean {
  credentialMatcher ??= new RegExp(
    CREDENTIAL_FILE_PATTERNS.map((p) => `(?:${picomatch.makeRe(p, { dot: true, nocase: true }).source})`).join('|'),
    'i',
  );
  return credentialMatcher.test(name);
}

export type AccessMode = 'read' | 'write';

/** Which files hold credentials beyond the names above (src/secrets/credential-check.ts): by path, and by text. */
export interface CredentialFileRules {
  /** Why the file at this workspace-relative path is a credentials file, or undefined; cheap (no read). */
  byName(relative: string): string | undefined;
  /** Why a file with this text is a credentials file, or undefined. */
  byContent(text: string): string | undefined;
}

export interface WorkspaceOptions {
  /** Refused as a whole: the runner keeps job credentials there (RUNNER_TEMP on a runner). */
  runnerTemp?: string;
  /** The run's credentials files (those the environment names, gha-creds-*.json, text holding a key). */
  credentials?: CredentialFileRules;
  /** Folders outside the workspace that may be read, never written (the trusted copies of skills' folders). */
  readOnlyRoots?: readonly string[];
}

function errorCode(error: unknown): string | undefined {
  // Structural, not instanceof: errors from node internals may come from another realm (jest vm).
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return undefined;
}

/**
 * Like realpath, but also for paths that do not exist yet: the nearest existing ancestor is
 * resolved and the rest appended. A dangling symlink is followed by hand, because writing
 * through it would create its target wherever that points. Sync, as Read's own open and read
 * are: a local path resolves in microseconds, less than a round trip through the thread pool
 * costs (the async realpath spends more than that before it even leaves), and many calls in one
 * answer then cost a few system calls each.
 */
function resolveReal(p: string, depth = 0): string {
  if (depth > 40) throw new ToolError(`Too many levels of symbolic links while resolving ${p}.`);
  try {
    return realpathSync.native(p);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ELOOP') throw new ToolError(`Too many levels of symbolic links in ${p}.`);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
  }
  const parent = path.dirname(p);
  if (parent === p) return p;
  const realParent = resolveReal(parent, depth + 1);
  let link = false;
  try {
    link = lstatSync(p).isSymbolicLink();
  } catch {
    // Not there (or not reachable): nothing to follow.
  }
  if (link) return resolveReal(path.resolve(realParent, readlinkSync(p)), depth + 1);
  return path.join(realParent, path.basename(p));
}

/** Why a path inside the workspace is still off limits, or undefined when it is fine. */
function protectedReason(relative: string, mode: AccessMode): string | undefined {
  const segments = relative.split(path.sep).map((s) => s.toLowerCase());
  const base = segments[segments.length - 1] ?? '';
  if (isCredentialFileName(base)) return `${base} is a credential file`;
  const gitAt = segments.indexOf('.git');
  if (gitAt === -1) return undefined;
  const inGit = segments.slice(gitAt + 1);
  if (base === 'config' || base === 'config.worktree') return 'git config can hold credentials';
  if (mode === 'write' && inGit.includes('hooks')) return 'git hooks run code on the next git command';
  return undefined;
}

/** True when relative names a `.git` entry or something inside one, at any depth (a nested repository's too). */
function inGitDir(relative: string): boolean {
  return relative.split(path.sep).some((s) => s.toLowerCase() === '.git');
}

const GIT_WRITE_REFUSED =
  "is in git's own files (.git). The action stages, commits and pushes your changes itself when you finish: change only the work tree, and do not write under .git or run git commit or git push.";

/** The directory the agent works in; every file path a tool touches goes through resolve(). */
export class Workspace {
  private constructor(
    readonly root: string,
    private readonly runnerTemp: string | undefined,
    private readonly credentials: CredentialFileRules | undefined,
    /** The repository's git dirs when a `.git` file puts them elsewhere in the workspace. */
    private readonly gitDirs: readonly string[] = [],
    private readonly readOnlyRoots: readonly string[] = [],
  ) {}

  static async open(root: string, options: WorkspaceOptions = {}): Promise<Workspace> {
    const realRoot = await fs.realpath(root);
    const dirs = locateGitDirs(realRoot);
    const temp = options.runnerTemp;
    const realTemp = temp ? resolveReal(path.resolve(temp)) : undefined;
    // A workspace placed inside RUNNER_TEMP would refuse everything, so the rule only applies
    // when the temp dir is somewhere else (outside, or nested inside the workspace).
    const guardTemp = realTemp && !isInside(realRoot, realTemp) ? realTemp : undefined;
    const readOnly = await Promise.all((options.readOnlyRoots ?? []).map((p) => fs.realpath(p).catch(() => undefined)));
    return new Workspace(
      realRoot,
      guardTemp,
      options.credentials,
      dirs ? [dirs.gitDir, dirs.commonDir] : [],
      readOnly.filter((p): p is string => p !== undefined),
    );
  }

  /** Absolute real path for filePath (absolute or workspace-relative), or a ToolError. */
  resolve(filePath: string, mode: AccessMode): Promise<string> {
    // The checks are sync (see resolveReal); a refusal rejects the promise, as callers expect.
    return new Promise((done) => done(this.check(filePath, mode)));
  }

  private check(filePath: string, mode: AccessMode): string {
    if (filePath.includes('\0')) throw new ToolError('File paths cannot contain NUL bytes.');
    const asked = path.resolve(this.root, filePath);
    const real = resolveReal(asked);
    const allowed = `Paths must be inside the workspace ${this.root} (absolute, or relative to it)`;
    if (mode === 'read' && this.readOnlyRoots.some((r) => isInside(real, r))) return this.readOnly(filePath, real);
    if (!isInside(real, this.root)) {
      const via = real === asked ? '' : ` (it resolves to ${real})`;
      throw new ToolError(`Refused: ${filePath} is outside the workspace${via}. ${allowed}.`);
    }
    if (real === '/proc' || real.startsWith('/proc/')) {
      throw new ToolError(`Refused: ${filePath} is under /proc. ${allowed}.`);
    }
    if (this.runnerTemp && isInside(real, this.runnerTemp)) {
      throw new ToolError(`Refused: ${filePath} is in the runner's temp directory. ${allowed}.`);
    }
    if (mode === 'write' && this.isGitPath(asked, real)) throw new ToolError(`Refused: ${filePath} ${GIT_WRITE_REFUSED}`);
    for (const candidate of [real, asked]) {
      const relative = relativePath(this.root, candidate);
      const reason = protectedReason(relative, mode) ?? this.credentials?.byName(relative);
      if (reason) {
        throw new ToolError(
          `Refused: ${filePath} is protected (${reason}). Any other file in the workspace can be ${mode === 'read' ? 'read' : 'written'}.`,
        );
      }
    }
    return real;
  }

  private isGitPath(asked: string, real: string): boolean {
    if ([asked, real].some((p) => inGitDir(relativePath(this.root, p)))) return true;
    return this.gitDirs.some((dir) => isInside(real, dir));
  }

  /**
   * True for a workspace-relative path that is a credentials file by its name (the files the
   * environment names, gha-creds-*.json, the names above): the filter for what Grep and Glob list.
   */
  isCredentialFile(relative: string): boolean {
    const base = path.basename(relative);
    return isCredentialFileName(base) || this.credentials?.byName(relative) !== undefined;
  }

  /** Why a file holding this text is a credentials file (a private key block, a known token), or undefined. */
  credentialText(text: string): string | undefined {
    return this.credentials?.byContent(text);
  }

  /** A path under a read-only root: the credential names are refused there too. */
  private readOnly(filePath: string, real: string): string {
    if (isCredentialFileName(path.basename(real))) throw new ToolError(`Refused: ${filePath} is protected (a credential file).`);
    return real;
  }

  /** Path relative to the root for display, '.' for the root itself. */
  relative(abs: string): string {
    const rel = relativePath(this.root, abs);
    return rel === '' ? '.' : rel;
  }
}
