/**
 * How long the action's GitHub requests may take, all told: until the run's deadline (its
 * timeout plus a short grace for the final report), or a few seconds once the run is cancelled,
 * so that a cancelled run still posts its final comment but never hangs on GitHub. Every attempt
 * carries its own timeout too, so that one request that never answers cannot use the whole budget.
 */

export interface BudgetOptions {
  /** Epoch ms by which every request and every wait must be over. */
  deadline: number;
  /** The run's cancellation (SIGINT/SIGTERM): from then on only `cancelGraceMs` are left. */
  signal?: AbortSignal;
  cancelGraceMs?: number;
  /** Longest one attempt may wait for its answer. */
  attemptTimeoutMs?: number;
}

export const ATTEMPT_TIMEOUT_MS = 30_000;
export const CANCEL_GRACE_MS = 4_000;

/** The error an attempt that ran out of time ends with, as a transport failure (status 500 in Octokit's terms). */
export class RequestTimeout extends Error {
  override readonly name = 'TimeoutError';
  constructor(readonly ms: number) {
    super(`GitHub did not answer within ${Math.round(ms / 1000)}s`);
  }
}

export class Budget {
  private cancelledAt: number | null = null;

  constructor(
    private readonly o: BudgetOptions,
    private readonly now: () => number,
  ) {
    const mark = () => (this.cancelledAt ??= this.now());
    if (o.signal?.aborted) mark();
    else o.signal?.addEventListener('abort', mark, { once: true });
  }

  /** When everything must be over. */
  deadline(): number {
    if (this.cancelledAt === null) return this.o.deadline;
    return Math.min(this.o.deadline, this.cancelledAt + (this.o.cancelGraceMs ?? CANCEL_GRACE_MS));
  }

  left(): number {
    return this.deadline() - this.now();
  }

  /** Whether a wait of `ms` still ends before the deadline. */
  allows(ms: number): boolean {
    return ms < this.left();
  }

  /**
   * A signal for one attempt: it aborts after the attempt's timeout or at the deadline, whichever
   * comes first, and is moved earlier when the run is cancelled mid-attempt.
   */
  attempt(): { signal: AbortSignal; dispose: () => void } {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const started = this.now();
    const arm = () => {
      clearTimeout(timer);
      const ms = Math.max(0, Math.min(this.o.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS, this.left()));
      timer = setTimeout(() => controller.abort(new RequestTimeout(this.now() - started)), ms);
    };
    arm();
    this.o.signal?.addEventListener('abort', arm, { once: true });
    return {
      signal: controller.signal,
      dispose: () => {
        clearTimeout(timer);
        this.o.signal?.removeEventListener('abort', arm);
      },
    };
  }

  /** The run's cancellation, which ends a wait early (the caller then finds the budget nearly spent). */
  get signal(): AbortSignal | undefined {
    return this.o.signal;
  }
}
