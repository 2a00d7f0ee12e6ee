import { lstatSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_ALLOWED_DOMAINS, hostPolicy, type HostPolicy } from '../network/hosts.js';
import { startProxy } from '../network/proxy.js';
import type { CommandWrap, ConfinedPaths, WrapExtras } from '../core/confine.js';
import { bwrapArgs, limitProcesses, type BwrapLayout } from './bwrap-args.js';
import { joinCgroup, removeCgroup, usableCgroup } from './cgroup.js';
import { describeSandbox, describeUnsandboxed, OFF_DESCRIPTION, strictFailure, unavailableReason } from './describe.js';
import { findOnPath, findWorkingLayout, isExecutable, type Found } from './probe.js';
import { Placeholder } from './placeholder.js';
import { defaultRun } from './run.js';
import { SandboxUnavailableError, type Sandbox, type SandboxOptions } from './types.js';

export { bwrapArgs, limitProcesses, type BwrapLayout, type HiddenPath, type UserMapping } from './bwrap-args.js';
export { TOOLCHAIN_DIRS } from './layout.js';
export type { RunCommand, RunResult } from './run.js';
export {
  SandboxUnavailableError,
  type NetworkMode,
  type Sandbox,
  type SandboxMode,
  type SandboxOptions,
  type Wrap,
  type WrapExtras,
} from './types.js';

export const DEFAULT_PROCESS_LIMIT = 2048;

function none(description: string): Sandbox {
  return { kind: 'none', description, wrap: (argv) => argv, processesLimited: false, dispose: () => Promise.resolve() };
}

function unsandboxed(o: SandboxOptions, reason: string): Sandbox {
  if (o.mode === 'strict') throw new SandboxUnavailableError(strictFailure(reason));
  return none(describeUnsandboxed(reason, o.network));
}

function stillThere(paths: ConfinedPaths): ConfinedPaths {
  const exists = (p: string) => lstatSync(p, { throwIfNoEntry: false }) !== undefined;
  return { unreadable: paths.unreadable.filter((u) => exists(u.path)), readOnly: paths.readOnly.filter(exists) };
}

function bubblewrap(bwrap: string, layout: BwrapLayout, limit: number, cgroup: string | undefined, found: Found): Sandbox {
  const placeholder = new Placeholder();
  const wrapIn = (l: BwrapLayout) => (argv: string[], extras?: WrapExtras) =>
    joinCgroup(cgroup, [bwrap, ...bwrapArgs(l, limitProcesses(argv, limit), extras)]);
  // The deny rules are known (and the checkout done) only once the tools start, after the probe.
  const confine = (paths: ConfinedPaths) => {
    if (paths.unreadable.length + paths.readOnly.length === 0) return wrapIn(layout);
    const file = placeholder.file();
    // bwrap refuses to mount over a path that is gone (a hook may have removed one): each command
    // mounts what is still there.
    return (argv: string[], extras?: WrapExtras) =>
      wrapIn({ ...layout, confined: { ...stillThere(paths), placeholder: file } })(argv, extras);
  };
  const wrap: CommandWrap = Object.assign(wrapIn(layout), { confine });
  return {
    kind: 'bubblewrap',
    description: describeSandbox(layout, limit, cgroup, found.apparmor),
    wrap,
    processesLimited: cgroup !== undefined || layout.user.kind === 'unprivileged',
    dispose: async () => {
      await placeholder.remove();
      if (cgroup) await removeCgroup(cgroup);
    },
  };
}

/**
 * Finds and probes bubblewrap and returns the sandbox Bash commands run in. Fails closed in
 * 'strict' mode; in 'auto' mode a missing or broken bubblewrap gives kind 'none', said plainly.
 */
export async function prepareSandbox(o: SandboxOptions): Promise<Sandbox> {
  if (o.mode === 'off') return none(o.network === 'on' ? OFF_DESCRIPTION : `${OFF_DESCRIPTION} The network is open.`);
  const bwrap = o.bwrapPath ?? (await findOnPath('bwrap', o.path ?? o.env['PATH'] ?? ''));
  if (bwrap === undefined) return unsandboxed(o, 'bubblewrap (bwrap) is not installed');
  if (!(await isExecutable(bwrap))) return unsandboxed(o, `bubblewrap was not found at ${bwrap}`);
  const limit = o.processLimit ?? DEFAULT_PROCESS_LIMIT;
  const run = o.run ?? defaultRun;
  const found = await findWorkingLayout(o, run, bwrap, limit);
  if (!found.layout) return unsandboxed(o, unavailableReason(found));
  const cgroup = await usableCgroup(o, run, limit);
  if (o.network !== 'allowlist') return bubblewrap(bwrap, found.layout, limit, cgroup, found);
  const proxy = await startSandboxProxy(hostPolicy(o.allowedDomains ?? DEFAULT_ALLOWED_DOMAINS));
  const layout = { ...found.layout, proxy: { socketDir: proxy.dir, socketName: PROXY_SOCKET, node: process.execPath } };
  const sandbox = bubblewrap(bwrap, layout, limit, cgroup, found);
  return {
    ...sandbox,
    networkRefused: () => proxy.proxy.refusedByHost(),
    dispose: async () => {
      await sandbox.dispose();
      await proxy.close();
    },
  };
}

const PROXY_SOCKET = 'proxy.sock';

/**
 * The proxy on a socket in a folder of its own: the sandbox's user (another uid when the runner
 * is root) may pass through the folder and connect, not list or replace it.
 */
async function startSandboxProxy(policy: HostPolicy) {
  const dir = await mkdtemp(join(tmpdir(), 'agent-action-network-'));
  await chmod(dir, 0o711);
  const proxy = await startProxy(policy, join(dir, PROXY_SOCKET));
  await chmod(proxy.socketPath, 0o666);
  return { dir, proxy, close: async () => (await proxy.close(), await rm(dir, { recursive: true, force: true })) };
}
