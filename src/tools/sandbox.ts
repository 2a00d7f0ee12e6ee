import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { bashTool, createBashTool } from './bash.js';

export type SandboxMode = 'auto' | 'strict' | 'off';
export type NetworkMode = 'on' | 'off';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}
export type RunCommand = (cmd: string, args: string[]) => Promise<RunResult>;

export interface SandboxOptions {
  mode: SandboxMode;
  network: NetworkMode;
  /** Real path; the only place a command may write besides its private /tmp and home. */
  workspace: string;
  /** The runner's HOME: hidden behind a tmpfs, with the toolchain dirs under it bound back read-only. */
  home?: string;
  /** More paths made unreachable (tmpfs over a dir, /dev/null over a file): RUNNER_TEMP, the runner's own dir. */
  hide?: string[];
  /** Relative to the workspace, e.g. '.git/config': re-bound read-only when they exist. */
  readOnlyInWorkspace?: string[];
  /** The allowlisted environment; the only variables a command sees (HOME becomes the private home). */
  env: Record<string, string>;
  /** Default: bwrap found on PATH. */
  bwrapPath?: string;
  /** RUNNER_ENVIRONMENT === 'github-hosted': only there is the AppArmor sysctl lifted with sudo. */
  githubHosted?: boolean;
  /** Runs a helper program; injectable for tests. Default: execFile with a short timeout. */
  run?: RunCommand;
  /** Most processes a command may have at once (a fork bomb's ceiling). Default 2048. */
  processLimit?: number;
  /** Where Ubuntu's AppArmor switch for unprivileged user namespaces is read; injectable for tests. */
  apparmorSysctlPath?: string;
  /**
   * Directory of a pids cgroup hierarchy to create the limit group under, or false for none.
   * Default: detected, and only when running as root (the process limit does not bind root).
   */
  pidsCgroup?: string | false;
  /** The uid and gid a root runner's commands get inside a user namespace. Default 1000. */
  sandboxUid?: number;
}

export interface Sandbox {
  kind: 'bubblewrap' | 'none';
  /** One plain sentence for the log and the final comment. */
  description: string;
  wrap?: (argv: string[]) => string[];
  /** True when a fork bomb hits a ceiling (rlimit or pids cgroup) before the machine's own. */
  processesLimited: boolean;
  /** Removes what prepareSandbox created (the pids cgroup); safe to call more than once. */
  dispose(): Promise<void>;
}

export class SandboxUnavailableError extends Error {
  override name = 'SandboxUnavailableError';
}

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

export const DEFAULT_PROCESS_LIMIT = 2048;
const APPARMOR_SYSCTL = '/proc/sys/kernel/apparmor_restrict_unprivileged_userns';
const DEFAULT_SANDBOX_UID = 1000;
const HELPER_TIMEOUT_MS = 10_000;

/**
 * How the sandbox's user relates to the runner's: an unprivileged runner needs a user namespace;
 * root maps to an unprivileged uid in one, or, failing that, stays root without capabilities.
 */
export type UserMapping = { kind: 'unprivileged' } | { kind: 'mapped'; uid: number; gid: number } | { kind: 'root-no-caps' };

export interface BwrapLayout {
  workspace: string;
  /** Tmpfs'd and used as the private HOME; absent: HOME is the private /tmp. */
  home?: string;
  /** Absolute and existing: bound read-only over the tmpfs home. */
  toolchainDirs?: string[];
  hide?: { path: string; kind: 'dir' | 'file' }[];
  /** Absolute and existing, inside the workspace. */
  readOnlyInWorkspace?: string[];
  network: NetworkMode;
  env: Record<string, string>;
  user: UserMapping;
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
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

function hideArgs(entry: { path: string; kind: 'dir' | 'file' }): string[] {
  return entry.kind === 'dir' ? ['--tmpfs', entry.path] : ['--ro-bind', '/dev/null', entry.path];
}

function envArgs(env: Record<string, string>, home: string): string[] {
  const args = ['--clearenv'];
  for (const [name, value] of Object.entries({ ...env, HOME: home })) args.push('--setenv', name, value);
  return args;
}

/** The bubblewrap command line for argv; pure, so the mount order can be checked without bwrap. */
export function bwrapArgs(layout: BwrapLayout, argv: string[]): string[] {
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
    ...(layout.network === 'off' ? ['--unshare-net'] : []),
    ...envArgs(layout.env, layout.home ?? '/tmp'),
    ...['--chdir', layout.workspace],
    '--',
    ...argv,
  ];
}

/** Runs argv under RLIMIT_NPROC; bash's own ulimit, since bash is there whenever the Bash tool is. */
export function limitProcesses(argv: string[], max: number): string[] {
  return ['bash', '-c', 'ulimit -u "$0" 2>/dev/null; exec "$@"', String(max), ...argv];
}

const defaultRun: RunCommand = (cmd, args) =>
  new Promise((resolve) => {
    execFile(cmd, args, { timeout: HELPER_TIMEOUT_MS, maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 127;
      resolve({ code, stdout, stderr: stderr || (error?.message ?? '') });
    });
  });

async function isExecutable(file: string): Promise<boolean> {
  try {
    await fs.access(file, constants.X_OK);
    return (await fs.stat(file)).isFile();
  } catch {
    return false;
  }
}

async function findOnPath(name: string): Promise<string | undefined> {
  for (const dir of (process.env['PATH'] ?? '').split(path.delimiter)) {
    const candidate = path.join(dir || '.', name);
    if (await isExecutable(candidate)) return candidate;
  }
  return undefined;
}

async function kindOf(p: string): Promise<{ real: string; kind: 'dir' | 'file' } | undefined> {
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
async function layoutFor(o: SandboxOptions, user: UserMapping): Promise<BwrapLayout> {
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

function userCandidates(o: SandboxOptions): UserMapping[] {
  if (process.getuid?.() !== 0) return [{ kind: 'unprivileged' }];
  const uid = o.sandboxUid ?? DEFAULT_SANDBOX_UID;
  return [{ kind: 'mapped', uid, gid: uid }, { kind: 'root-no-caps' }];
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.trim() ?? '';
}

/** Runs what a real command gets, plus a write to the workspace, which must stay writable. */
async function probe(run: RunCommand, bwrap: string, layout: BwrapLayout, limit: number): Promise<string | undefined> {
  const marker = path.join(layout.workspace, `.agent-action-sandbox-probe-${randomBytes(6).toString('hex')}`);
  const check = ['bash', '-c', ': > "$0" && rm -f -- "$0"', marker];
  const result = await run(bwrap, bwrapArgs(layout, limitProcesses(check, limit)));
  await fs.rm(marker, { force: true });
  if (result.code === 0) return undefined;
  return firstLine(result.stderr) || `bwrap exited with code ${result.code}`;
}

interface Probed {
  layout?: BwrapLayout;
  reason: string;
}

async function probeCandidates(o: SandboxOptions, run: RunCommand, bwrap: string, limit: number): Promise<Probed> {
  let reason = '';
  for (const user of userCandidates(o)) {
    const layout = await layoutFor(o, user);
    const failure = await probe(run, bwrap, layout, limit);
    if (failure === undefined) return { layout, reason: '' };
    reason ||= failure;
  }
  return { reason };
}

async function readsOne(file: string): Promise<boolean> {
  try {
    return (await fs.readFile(file, 'utf8')).trim() === '1';
  } catch {
    return false;
  }
}

/** Ubuntu 24.04 restricts unprivileged user namespaces; a GitHub-hosted runner may lift that with sudo. */
async function liftAppArmor(o: SandboxOptions, run: RunCommand): Promise<'restricted' | 'lifted' | 'none'> {
  if (!(await readsOne(o.apparmorSysctlPath ?? APPARMOR_SYSCTL))) return 'none';
  if (!o.githubHosted || (await run('sudo', ['-n', 'true'])).code !== 0) return 'restricted';
  const sysctl = await run('sudo', ['-n', 'sysctl', '-w', 'kernel.apparmor_restrict_unprivileged_userns=0']);
  return sysctl.code === 0 ? 'lifted' : 'restricted';
}

interface Found {
  layout?: BwrapLayout;
  reason: string;
  apparmor: 'restricted' | 'lifted' | 'none';
}

async function findWorkingLayout(o: SandboxOptions, run: RunCommand, bwrap: string, limit: number): Promise<Found> {
  const first = await probeCandidates(o, run, bwrap, limit);
  if (first.layout) return { ...first, apparmor: 'none' };
  const apparmor = await liftAppArmor(o, run);
  if (apparmor !== 'lifted') return { ...first, apparmor };
  return { ...(await probeCandidates(o, run, bwrap, limit)), apparmor };
}

/** The pids hierarchy our own process sits in, from /proc/self/cgroup (v1 first, then pure v2). */
async function detectPidsCgroup(): Promise<string | undefined> {
  const lines = (await fs.readFile('/proc/self/cgroup', 'utf8').catch(() => '')).split('\n');
  const v1 = lines.map((l) => l.split(':')).find((f) => f[1]?.split(',').includes('pids'));
  if (v1?.[2] !== undefined) return path.join('/sys/fs/cgroup/pids', v1[2]);
  const v2 = lines.find((l) => l.startsWith('0::'));
  const controllers = await fs.readFile('/sys/fs/cgroup/cgroup.controllers', 'utf8').catch(() => '');
  return v2 && controllers.split(/\s+/).includes('pids') ? path.join('/sys/fs/cgroup', v2.slice(3)) : undefined;
}

/**
 * A child pids cgroup capped at max, or undefined when none can be made. Root needs it: the
 * kernel exempts uid 0 from RLIMIT_NPROC, also inside a user namespace whose ids map to root.
 */
async function createPidsCgroup(o: SandboxOptions, max: number): Promise<string | undefined> {
  if (o.pidsCgroup === false || (o.pidsCgroup === undefined && process.getuid?.() !== 0)) return undefined;
  const parent = o.pidsCgroup ?? (await detectPidsCgroup());
  if (parent === undefined) return undefined;
  const dir = path.join(parent, `agent-action-sandbox-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await fs.mkdir(dir);
    await fs.writeFile(path.join(dir, 'pids.max'), String(max));
    return dir;
  } catch {
    await fs.rmdir(dir).catch(() => undefined);
    return undefined;
  }
}

async function removeCgroup(dir: string): Promise<void> {
  // A killed pid namespace is torn down asynchronously: rmdir says EBUSY until the group is empty.
  for (let attempt = 0; attempt < 30; attempt++) {
    const busy = await fs.rmdir(dir).then(
      () => false,
      (error: NodeJS.ErrnoException) => error.code === 'EBUSY',
    );
    if (!busy) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Puts the wrapped process into the cgroup before bwrap starts; refuses to run when that fails. */
function joinCgroup(cgroup: string | undefined, argv: string[]): string[] {
  if (cgroup === undefined) return argv;
  const script = 'echo $$ > "$0" || { echo "could not apply the sandbox process limit" >&2; exit 126; }; exec "$@"';
  return ['/bin/sh', '-c', script, path.join(cgroup, 'cgroup.procs'), ...argv];
}

/** A pids cgroup that a process could join just now, or undefined (and nothing left behind). */
async function usableCgroup(o: SandboxOptions, limit: number): Promise<string | undefined> {
  const cgroup = await createPidsCgroup(o, limit);
  if (cgroup === undefined) return undefined;
  const joined = await (o.run ?? defaultRun)('/bin/sh', joinCgroup(cgroup, ['true']).slice(1));
  if (joined.code === 0) return cgroup;
  await removeCgroup(cgroup);
  return undefined;
}

function describeUser(user: UserMapping): string {
  switch (user.kind) {
    case 'mapped':
      return `, as uid ${user.uid} in a user namespace without root capabilities`;
    case 'root-no-caps':
      return ', as root without capabilities';
    case 'unprivileged':
      return '';
  }
}

function describeLimit(limit: number, cgroup: string | undefined, user: UserMapping): string {
  if (cgroup) return `at most ${limit} processes (pids cgroup)`;
  if (user.kind === 'unprivileged') return `at most ${limit} processes`;
  return 'no process limit (the kernel exempts root from it, so only the timeout stops a fork bomb)';
}

function describeSandbox(layout: BwrapLayout, limit: number, cgroup: string | undefined, apparmor: Found['apparmor']): string {
  const hidden = [layout.home ? "the runner's home" : '', ...(layout.hide ?? []).map((h) => h.path)].filter(Boolean);
  const lifted = apparmor === 'lifted' ? " (after lifting Ubuntu's AppArmor restriction on user namespaces with sudo sysctl)" : '';
  return (
    `Bash commands run in a bubblewrap sandbox${lifted}: read-only system, writable workspace ${layout.workspace}, ` +
    `private /tmp${hidden.length > 0 ? `, ${hidden.join(', ')} hidden` : ''}, network ${layout.network}, ` +
    `${describeLimit(limit, cgroup, layout.user)}${describeUser(layout.user)}.`
  );
}

function unavailableReason(found: Found): string {
  const apparmor =
    found.apparmor === 'restricted'
      ? "; Ubuntu's AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns=1) and it could not be lifted with sudo"
      : '';
  return `bubblewrap could not start a sandbox (${found.reason})${apparmor}`;
}

function unsandboxed(o: SandboxOptions, reason: string): Sandbox {
  if (o.mode === 'strict') throw new SandboxUnavailableError(`The Bash sandbox is required (sandbox: strict) but ${reason}.`);
  return {
    kind: 'none',
    description: `Bash commands run WITHOUT a sandbox, because ${reason}: they can read and write whatever the runner's user can.`,
    processesLimited: false,
    dispose: async () => undefined,
  };
}

function bubblewrap(bwrap: string, layout: BwrapLayout, limit: number, cgroup: string | undefined, found: Found): Sandbox {
  return {
    kind: 'bubblewrap',
    description: describeSandbox(layout, limit, cgroup, found.apparmor),
    wrap: (argv) => joinCgroup(cgroup, [bwrap, ...bwrapArgs(layout, limitProcesses(argv, limit))]),
    processesLimited: cgroup !== undefined || layout.user.kind === 'unprivileged',
    dispose: async () => {
      if (cgroup) await removeCgroup(cgroup);
    },
  };
}

/**
 * Finds and probes bubblewrap and returns the sandbox Bash commands run in. Fails closed in
 * 'strict' mode; in 'auto' mode a missing or broken bubblewrap gives kind 'none', said plainly.
 */
export async function prepareSandbox(o: SandboxOptions): Promise<Sandbox> {
  if (o.mode === 'off') {
    return {
      kind: 'none',
      description: "The Bash sandbox is off (sandbox: off): commands can read and write whatever the runner's user can.",
      processesLimited: false,
      dispose: async () => undefined,
    };
  }
  const bwrap = o.bwrapPath ?? (await findOnPath('bwrap'));
  if (bwrap === undefined) return unsandboxed(o, 'bubblewrap (bwrap) is not installed');
  if (!(await isExecutable(bwrap))) return unsandboxed(o, `bubblewrap was not found at ${bwrap}`);
  const limit = o.processLimit ?? DEFAULT_PROCESS_LIMIT;
  const found = await findWorkingLayout(o, o.run ?? defaultRun, bwrap, limit);
  if (!found.layout) return unsandboxed(o, unavailableReason(found));
  const cgroup = await usableCgroup(o, limit);
  return bubblewrap(bwrap, found.layout, limit, cgroup, found);
}

/** The Bash tool, wrapped in the sandbox when there is one. */
export function sandboxedBashTool(sandbox: Sandbox): typeof bashTool {
  return sandbox.kind === 'none' || !sandbox.wrap ? bashTool : createBashTool({ wrap: sandbox.wrap });
}
