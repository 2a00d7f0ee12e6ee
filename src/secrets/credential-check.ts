import { realpathSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import type { CredentialFiles } from './credential-files.js';

/** google-github-actions/auth writes its credentials here, in $GITHUB_WORKSPACE unless told otherwise. */
const GHA_CREDS = /^gha-creds-[^/\\]*\.json$/i;

/** PEM and OpenSSH private keys, PGP secret key blocks: a key whoever reads it holds. */
const PRIVATE_KEY_BLOCK = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/;

/** Text past this is not sniffed: a credentials file is small, and a huge file is read for nothing. */
const SNIFF_BYTES = 1 << 20;

/** Why this text makes its file a credentials file, or undefined. */
export function credentialTextReason(text: string, holdsSecret: (text: string) => boolean): string | undefined {
  if (PRIVATE_KEY_BLOCK.test(text)) return 'it holds a private key';
  if (holdsSecret(text)) return 'it holds a token';
  return undefined;
}

async function readHead(file: string): Promise<string | undefined> {
  const handle = await open(file, 'r').catch(() => undefined);
  if (!handle) return undefined;
  try {
    if (!(await handle.stat()).isFile()) return undefined;
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.toString('utf8', 0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** A workspace path left out of a commit, and why. */
export interface LeftOut {
  path: string;
  reason: string;
}

/**
 * Which workspace files hold credentials: by name (cheap, for every path a tool lists) and by
 * content (for the files a tool opens and the files about to be committed).
 */
export class CredentialCheck {
  /** The root as given and as the tools see it (its real path). */
  private readonly roots: string[];

  constructor(
    private readonly root: string,
    private readonly files: CredentialFiles,
    private readonly holdsSecret: (text: string) => boolean,
  ) {
    let real = root;
    try {
      real = realpathSync(root);
    } catch {
      // A workspace not there yet: the path as given is all there is.
    }
    this.roots = [...new Set([path.resolve(root), real])];
  }

  /** Why the file at this workspace-relative (or absolute) path is a credentials file by its name, or undefined. */
  byName(relative: string): string | undefined {
    const abs = path.resolve(this.root, relative);
    // Most runs name no credentials file: the lookup is then skipped, as it would find nothing.
    const named = this.files.paths.size > 0 && this.roots.map((r) => this.files.paths.get(path.resolve(r, relative))).find(Boolean);
    if (named) return `a credentials file ${named}`;
    if (GHA_CREDS.test(path.basename(abs))) return 'a credentials file google-github-actions/auth writes';
    return undefined;
  }

  /** True for a path the tools must not show (the predicate Grep and Glob filter their results with). */
  isCredentialFile(relative: string): boolean {
    return this.byName(relative) !== undefined;
  }

  byContent(text: string): string | undefined {
    return credentialTextReason(text, this.holdsSecret);
  }

  /** Why the file is a credentials file by name or by what its first MiB holds; reads it only when its name does not say. */
  async reason(relative: string): Promise<string | undefined> {
    const byName = this.byName(relative);
    if (byName) return byName;
    const text = await readHead(path.resolve(this.root, relative));
    return text === undefined ? undefined : this.byContent(text);
  }

  /** Of these workspace-relative paths, the credentials files and why each is one. */
  async leftOut(paths: readonly string[]): Promise<LeftOut[]> {
    const reasons = await Promise.all(paths.map((p) => this.reason(p)));
    return paths.flatMap((p, i) => (reasons[i] ? [{ path: p, reason: reasons[i] }] : []));
  }
}
