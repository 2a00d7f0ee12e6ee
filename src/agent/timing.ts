export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

/** Waits ms, or less when the signal aborts. */
export const defaultSleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/** The reason of a signal aborted by the deadline, as opposed to a cancellation. */
export class DeadlineReached extends Error {
  constructor() {
    super('deadline');
  }
}

/** The deadline as a signal, so a model call or a tool in flight stops when time runs out. */
export function withDeadline(signal: AbortSignal, deadline: number, clock: () => number): { signal: AbortSignal; dispose: () => void } {
  if (!Number.isFinite(deadline)) return { signal, dispose() {} };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DeadlineReached()), Math.max(0, deadline - clock()));
  return { signal: AbortSignal.any([signal, controller.signal]), dispose: () => clearTimeout(timer) };
}

/** Backoff before retrying a broken stream: doubling from 500 ms up to 8 s, with jitter. */
export function backoffMs(failures: number): number {
  return Math.min(500 * 2 ** failures, 8000) * (0.75 + Math.random() / 2);
}
