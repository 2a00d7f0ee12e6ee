import { randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { bwrapArgs, limitProcesses, type BwrapLayout } from './bwrap-args.js';
import { layoutFor, userCandidates } from './layout.js';
import type { RunCommand } from './run.js';
import type { SandboxOptions } from './types.js';

const APPARMOR_SYSCTL = '/proc/sys/kernel/apparmor_restrict_unprivileged_userns';

export type AppArmorState = 'restricted' | 'lifted' | 'none';

export interface Found {
  layout?: BwrapLayout;
  reason: string;
  apparmor: AppArmorState;
}

export async function isExecutable(file: string): Promise<boolean> {
  try {
    await fs.access(file, constants.X_OK);
    return (await fs.stat(file)).isFile();
  } catch {
    return false;
  }
}

/** Searches the PATH handed in, not this process's: the caller decides which environment counts. */
export async function findOnPath(name: string, searchPath: string): Promise<string | undefined> {
  for (const dir of searchPath.split(path.delimiter)) {
    const candidate = path.join(dir || '.', name);
    if (await isExecutable(candidate)) return candidate;
  }
  return undefined;
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

async function probeCandidates(o: SandboxOptions, run: RunCommand, bwrap: string, limit: number): Promise<Omit<Found, 'apparmor'>> {
  let reason = '';
  for (const user of userCandidates(o)) {
    const layout = await layoutFor(o, user);
    const failure = await probe(run, bwrap, layout, limit);
    if (failure === undefined) return { layout, reason: '' };
    // The first failure is the telling one: later candidates are fallbacks with fewer namespaces.
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
async function liftAppArmor(o: SandboxOptions, run: RunCommand): Promise<AppArmorState> {
  if (!(await readsOne(o.apparmorSysctlPath ?? APPARMOR_SYSCTL))) return 'none';
  if (!o.githubHosted || (await run('sudo', ['-n', 'true'])).code !== 0) return 'restricted';
  const sysctl = await run('sudo', ['-n', 'sysctl', '-w', 'kernel.apparmor_restrict_unprivileged_userns=0']);
  return sysctl.code === 0 ? 'lifted' : 'restricted';
}

/** A layout bwrap accepts, lifting the AppArmor restriction only once plain probing has failed. */
export async function findWorkingLayout(o: SandboxOptions, run: RunCommand, bwrap: string, limit: number): Promise<Found> {
  const first = await probeCandidates(o, run, bwrap, limit);
  if (first.layout) return { ...first, apparmor: 'none' };
  const apparmor = await liftAppArmor(o, run);
  if (apparmor !== 'lifted') return { ...first, apparmor };
  return { ...(await probeCandidates(o, run, bwrap, limit)), apparmor };
}
