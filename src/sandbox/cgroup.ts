import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { RunCommand } from './run.js';
import type { SandboxOptions } from './types.js';

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

export async function removeCgroup(dir: string): Promise<void> {
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
export function joinCgroup(cgroup: string | undefined, argv: string[]): string[] {
  if (cgroup === undefined) return argv;
  const script = 'echo $$ > "$0" || { echo "could not apply the sandbox process limit" >&2; exit 126; }; exec "$@"';
  return ['/bin/sh', '-c', script, path.join(cgroup, 'cgroup.procs'), ...argv];
}

/** A pids cgroup that a process could join just now, or undefined (and nothing left behind). */
export async function usableCgroup(o: SandboxOptions, run: RunCommand, limit: number): Promise<string | undefined> {
  const cgroup = await createPidsCgroup(o, limit);
  if (cgroup === undefined) return undefined;
  const joined = await run('/bin/sh', joinCgroup(cgroup, ['true']).slice(1));
  if (joined.code === 0) return cgroup;
  await removeCgroup(cgroup);
  return undefined;
}
