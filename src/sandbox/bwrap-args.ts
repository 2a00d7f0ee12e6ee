import type { ConfinedPaths } from '../core/confine.js';
import { isInside } from '../core/paths.js';
import type { NetworkMode, WrapExtras } from './types.js';
import { behindRelay, PROXY_VARIABLES, SANDBOX_NETWORK_DIR } from '../network/relay.js';

/**
 * How the sandbox's user relates to the runner's: an unprivileged runner needs a user namespace;
 * root maps to an unprivileged uid in one, or, failing that, stays root without capabilities.
 */
export type UserMapping = { kind: 'unprivileged' } | { kind: 'mapped'; uid: number; gid: number } | { kind: 'root-no-caps' };

export interface HiddenPath {
  path: string;
  kind: 'dir' | 'file';
}

export interface BwrapLayout {
  workspace: string;
  /** Tmpfs'd and used as the private HOME; absent: HOME is the private /tmp. */
  home?: string;
  /** Absolute and existing: bound read-only over the tmpfs home. */
  toolchainDirs?: string[];
  hide?: HiddenPath[];
  /** Absolute and existing, inside the workspace. */
  readOnlyInWorkspace?: string[];
  network: NetworkMode;
  /** Under `allowlist`: the filtering proxy's socket (in socketDir) and the node binary the relay runs on. */
  proxy?: { socketDir: string; socketName: string; node: string };
  env: Record<string, string>;
  user: UserMapping;
  /** The deny rules' paths, mounted last; unreadable files get placeholder (mode 000) bound over them. */
  confined?: ConfinedPaths & { placeholder: string };
}

function userArgs(user: UserMapping): string[] {
  switch (user.kind) {
    case 'unprivileged':
      return ['--unshare-user-try'];
    case 'mapped':
      return ['--unshare-user', '--uid', String(user.uid), '--gid', String(user.gid)];
    case 'root-no-caps':
      return ['--cap-drop', 'ALL'];
  }
}

/** A dir gets an empty tmpfs, a file /dev/null: bwrap can mount over either, but not delete it. */
function hideArgs(entry: HiddenPath): string[] {
  return entry.kind === 'dir' ? ['--tmpfs', entry.path] : ['--ro-bind', '/dev/null', entry.path];
}

/** Edit-denied paths read-only, then Read-denied ones replaced by what no one in the sandbox can open. */
function confinedArgs(confined: BwrapLayout['confined']): string[] {
  if (!confined) return [];
  const unreadable = confined.unreadable.flatMap((u) =>
    // An empty tmpfs of mode 000, read-only so its owner cannot chmod it open (and it stays empty).
    u.kind === 'dir' ? ['--perms', '0000', '--tmpfs', u.path, '--remount-ro', u.path] : ['--ro-bind', confined.placeholder, u.path],
  );
  return [...confined.readOnly.flatMap((p) => ['--ro-bind', p, p]), ...unreadable];
}

function envArgs(env: Record<string, string>, home: string): string[] {
  const args = ['--clearenv'];
  for (const [name, value] of Object.entries({ ...env, HOME: home })) args.push('--setenv', name, value);
  return args;
}

/** The bubblewrap command line for argv; pure, so the mount order can be checked without bwrap. */
export function bwrapArgs(layout: BwrapLayout, argv: string[], extras: WrapExtras = {}): string[] {
  const hide = layout.hide ?? [];
  // Mounts apply in order: the workspace may live under HOME or a hidden dir, so it is bound
  // after them, and hidden paths inside the workspace go after it.
  const hiddenInside = hide.filter((h) => isInside(h.path, layout.workspace));
  const hiddenOutside = hide.filter((h) => !isInside(h.path, layout.workspace));
  return [
    '--die-with-parent',
    '--new-session',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...userArgs(layout.user),
    ...['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--perms', '1777', '--tmpfs', '/tmp'],
    ...(layout.home ? ['--tmpfs', layout.home] : []),
    ...(layout.toolchainDirs ?? []).flatMap((dir) => ['--ro-bind', dir, dir]),
    ...hiddenOutside.flatMap(hideArgs),
    ...['--bind', layout.workspace, layout.workspace],
    ...hiddenInside.flatMap(hideArgs),
    ...(layout.readOnlyInWorkspace ?? []).flatMap((p) => ['--ro-bind', p, p]),
    ...confinedArgs(layout.confined),
    // Last, so a process's own binds (trusted files over the workspace's) cover what is above.
    ...(extras.binds ?? []).flatMap((b) => ['--ro-bind', b.source, b.dest]),
    ...(layout.proxy
      ? ['--ro-bind', layout.proxy.node, `${SANDBOX_NETWORK_DIR}/node`, '--bind', layout.proxy.socketDir, `${SANDBOX_NETWORK_DIR}/socket`]
      : []),
    // Under the allowlist the sandbox has only its loopback: the relay to the proxy is the way out.
    ...(layout.network !== 'on' ? ['--unshare-net'] : []),
    ...envArgs({ ...layout.env, ...extras.env, ...(layout.proxy ? PROXY_VARIABLES : {}) }, layout.home ?? '/tmp'),
    ...['--chdir', layout.workspace],
    '--',
    ...(layout.proxy ? behindRelay(argv, layout.proxy.socketName) : argv),
  ];
}

/** Runs argv under RLIMIT_NPROC; bash's own ulimit, since bash is there whenever the Bash tool is. */
export function limitProcesses(argv: string[], max: number): string[] {
  return ['bash', '-c', 'ulimit -u "$0" 2>/dev/null; exec "$@"', String(max), ...argv];
}
