import { promises as fs } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { isInside } from '../core/paths.js';
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

let credentialMatcher: ((name: string) => boolean) | undefined;

/** True for a base name listed in CREDENTIAL_FILE_PATTERNS. */
export function isCredentialFileName(name: string): boolean {
  credentialMatcher ??= picomatch([...CREDENTIAL_FILE_PATTERNS], { dot: true, nocase: true });
  return credentialMatcher(name);
}

export type AccessMode = 'read' | 'write';

export interface WorkspaceOptions {
  /** Refused as a whole: the runner keeps job credentials there (RUNNER_TEMP on a runner). */
  runnerTemp?: string;
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
 * through it would create its target wherever that points.
 */
async function resolveReal(p: string, depth = 0): Promise<string> {
  if (depth > 40) throw new ToolError(`Too many levels of symbolic links while resolving ${p}.`);
  try {
    return await fs.realpath(p);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ELOOP') throw new ToolError(`Too many levels of symbolic links in ${p}.`);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
  }
  const parent = path.dirname(p);
  if (parent === p) return p;
  const realParent = await resolveReal(parent, depth + 1);
  const stat = await fs.lstat(p).catch(() => undefined);
  if (stat?.isSymbolicLink()) {
    const target = await fs.readlink(p);
    return resolveReal(path.resolve(realParent, target), depth + 1);
  }
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

/** The directory the agent works in; every file path a tool touches goes through resolve(). */
export class Workspace {
  private constructor(
    readonly root: string,
    private readonly runnerTemp: string | undefined,
    private readonly readOnlyRoots: readonly string[] = [],
  ) {}

  static async open(root: string, options: WorkspaceOptions = {}): Promise<Workspace> {
    const realRoot = await fs.realpath(root);
    const temp = options.runnerTemp;
    const realTemp = temp ? await resolveReal(path.resolve(temp)) : undefined;
    // A workspace placed inside RUNNER_TEMP would refuse everything, so the rule only applies
    // when the temp dir is somewhere else (outside, or nested inside the workspace).
    const guardTemp = realTemp && !isInside(realRoot, realTemp) ? realTemp : undefined;
    const readOnly = await Promise.all((options.readOnlyRoots ?? []).map((p) => fs.realpath(p).catch(() => undefined)));
    return new Workspace(
      realRoot,
      guardTemp,
      readOnly.filter((p): p is string => p !== undefined),
    );
  }

  /** Absolute real path for filePath (absolute or workspace-relative), or a ToolError. */
  async resolve(filePath: string, mode: AccessMode): Promise<string> {
    if (filePath.includes('\0')) throw new ToolError('File paths cannot contain NUL bytes.');
    const asked = path.resolve(this.root, filePath);
    const real = await resolveReal(asked);
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
    for (const candidate of [real, asked]) {
      const reason = protectedReason(path.relative(this.root, candidate), mode);
      if (reason) {
        throw new ToolError(
          `Refused: ${filePath} is protected (${reason}). Any other file in the workspace can be ${mode === 'read' ? 'read' : 'written'}.`,
        );
      }
    }
    return real;
  }

  /** A path under a read-only root: the credential names are refused there too. */
  private readOnly(filePath: string, real: string): string {
    if (isCredentialFileName(path.basename(real))) throw new ToolError(`Refused: ${filePath} is protected (a credential file).`);
    return real;
  }

  /** Path relative to the root for display, '.' for the root itself. */
  relative(abs: string): string {
    const rel = path.relative(this.root, abs);
    return rel === '' ? '.' : rel;
  }
}
