import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isInside } from '../core/paths.js';
import type { BwrapLayout, HiddenPath, UserMapping } from './bwrap-args.js';
import type { SandboxOptions } from './types.js';

/** Dirs under HOME that hold the toolchains PATH points at; bound back read-only. */
export const TOOLCHAIN_DIRS: readonly string[] = [
  '.cargo',
  '.rustup',
  '.dotnet',
  '.nvm',
  '.pyenv',
  '.rbenv',
  '.local/bin',
  'go/bin',
  '.bun',
  '.deno',
];

const DEFAULT_SANDBOX_UID = 1000;

async function kindOf(p: string): Promise<{ real: string; kind: HiddenPath['kind'] } | undefined> {
  try {
    const real = await fs.realpath(p);
    return { real, kind: (await fs.stat(real)).isDirectory() ? 'dir' : 'file' };
  } catch {
    return undefined;
  }
}

async function existingDirs(paths: string[]): Promise<string[]> {
  const found = await Promise.all(paths.map(async (p) => ((await kindOf(p))?.kind === 'dir' ? p : undefined)));
  return found.filter((p): p is string => p !== undefined);
}

/** The mounts for o, with every path checked: bwrap refuses to bind what does not exist. */
export async function layoutFor(o: SandboxOptions, user: UserMapping): Promise<BwrapLayout> {
  const realHome = o.home ? (await kindOf(o.home))?.real : undefined;
  // A HOME of / (seen in containers) would hide the whole system.
  const home = realHome && realHome !== path.parse(realHome).root ? realHome : undefined;
  const toolchainDirs = home ? await existingDirs(TOOLCHAIN_DIRS.map((d) => path.join(home, d))) : [];
  const hidden = await Promise.all((o.hide ?? []).map(kindOf));
  const readOnly = await Promise.all((o.readOnlyInWorkspace ?? []).map((p) => kindOf(path.resolve(o.workspace, p))));
  return {
    workspace: o.workspace,
    ...(home ? { home } : {}),
    toolchainDirs,
    hide: hidden.flatMap((h) => (h ? [{ path: h.real, kind: h.kind }] : [])),
    readOnlyInWorkspace: readOnly.flatMap((r) => (r && isInside(r.real, o.workspace) ? [r.real] : [])),
    network: o.network,
    env: o.env,
    user,
  };
}

/** The user mappings to try, best first: root's own uid would make every host file writable. */
export function userCandidates(o: SandboxOptions): UserMapping[] {
  if (process.getuid?.() !== 0) return [{ kind: 'unprivileged' }];
  const uid = o.sandboxUid ?? DEFAULT_SANDBOX_UID;
  return [{ kind: 'mapped', uid, gid: uid }, { kind: 'root-no-caps' }];
}
