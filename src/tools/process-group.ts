// Commands run as the leaders of their own process groups (spawned detached): one signal to the
// group reaches everything they started, and what they leave behind can be reaped.

/** Signals a whole process group; a group that has already gone is fine. */
export function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: every process of the group has already exited.
  }
}

/** Waits for the pipes to close, but at most ms: a background process may hold them forever. */
export function settle(closed: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return Promise.race([closed, timeout]).finally(() => clearTimeout(timer));
}
