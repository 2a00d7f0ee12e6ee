/**
 * How the action's requests reach GitHub, as an Octokit plugin. Reads go out at once (at most ten
 * at a time); writes start one after another, the first few without a pause and then a second apart,
 * which is GitHub's advice for clients making many writes; edits of one resource (the tracking
 * comment) never overtake each other. Rate limits are waited out as GitHub's answer says for as
 * long as the run's time budget lasts (budget.ts), transient failures are retried with a growing
 * pause, and every attempt has a timeout.
 *
 * A run makes a handful of writes (the 👀, the tracking comment, its final text, a pull request),
 * so a fixed second between every two of them would add seconds to every run for nothing; many
 * writes still end up one per second.
 */
import type { Octokit } from '@octokit/rest';
import { Budget, RequestTimeout, type BudgetOptions } from './budget.js';
import { statusOf } from './status.js';

export interface PacingOptions {
  /**
   * Retries of a transient failure (5xx, 408, 429 without a rate-limit header, a dropped connection,
   * a timeout of an idempotent request); a request may say `request: { retries: 0 }`.
   */
  retries: number;
  /** Pause before retry n: base × n². */
  retryBaseMs: number;
  log: (message: string) => void;
  /** Writes that may start without a pause; one more every writeIntervalMs after that. */
  writeBurst?: number;
  writeIntervalMs?: number;
  /** Reads in flight at once. */
  maxReads?: number;
  /** Injected in tests; real time otherwise. A sleep ends early when the signal aborts. */
  clock?: { now(): number; sleep(ms: number, signal?: AbortSignal): Promise<void> };
  /** The time budget; by default each request may wait DEFAULT_BUDGET_MS. */
  budget?: Partial<BudgetOptions>;
}

/**
 * Every 4xx says the request itself is wrong, not allowed or not acceptable (406: a diff past
 * 300 files), and asking again gets the same answer; only a timeout (408) and a rate limit
 * without its headers (429) pass. A 403 or 429 with rate-limit headers is waited out before this.
 */
function isFinal(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}
/** How long a request may keep waiting out rate limits when the caller set no deadline. */
const DEFAULT_BUDGET_MS = 10 * 60_000;
/** Methods that may be sent again after a timeout: a repeat has the effect of one. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE']);
/** GitHub's advice when a secondary limit answer carries no retry-after. */
const SECONDARY_FALLBACK_S = 60;

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

const realClock = { now: () => Date.now(), sleep };

type Headers = Record<string, string | number | undefined>;

function headersOf(error: unknown): Headers {
  const response = typeof error === 'object' && error !== null && 'response' in error ? error.response : undefined;
  const headers = typeof response === 'object' && response !== null && 'headers' in response ? response.headers : undefined;
  return typeof headers === 'object' && headers !== null ? (headers as Headers) : {};
}

/** Seconds to wait before asking again when the error is a rate limit, else null. */
export function rateLimitWait(error: unknown, nowMs: number): { kind: 'secondary' | 'primary'; seconds: number } | null {
  const status = statusOf(error);
  if (status !== 403 && status !== 429) return null;
  const headers = headersOf(error);
  const message = error instanceof Error ? error.message : '';
  const retryAfter = Number(headers['retry-after']);
  if (/secondary rate/i.test(message) || Number.isFinite(retryAfter)) {
    return { kind: 'secondary', seconds: Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : SECONDARY_FALLBACK_S };
  }
  if (String(headers['x-ratelimit-remaining']) === '0') {
    const reset = Number(headers['x-ratelimit-reset']) * 1000;
    // One second past the reset, so that the next request is counted in the new window.
    return { kind: 'primary', seconds: Number.isFinite(reset) ? Math.max(0, Math.ceil((reset - nowMs) / 1000)) + 1 : SECONDARY_FALLBACK_S };
  }
  return null;
}

/**
 * Writes start one after another, in the order asked, from a bucket of `burst` that refills one
 * per interval. A write does not hold the next one while it waits for its answer: one that
 * hangs until its timeout must not keep the final comment from going out. (Edits of one resource
 * are ordered apart, by ResourceOrder.)
 */
class WriteQueue {
  private tail: Promise<void> = Promise.resolve();
  private tokens: number;
  private refilledAt: number;

  constructor(
    private readonly burst: number,
    private readonly intervalMs: number,
    private readonly clock: NonNullable<PacingOptions['clock']>,
  ) {
    this.tokens = burst;
    this.refilledAt = clock.now();
  }

  /** A cancel (the signal) lets the waiting writes go at once: the run has seconds left, and the final comment is among them. */
  run<T>(send: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const start = this.tail.then(async () => {
      const wait = this.take();
      if (wait > 0) await this.clock.sleep(wait, signal);
    });
    this.tail = start;
    return start.then(send);
  }

  /** Milliseconds until this write may start, its token taken. */
  private take(): number {
    const now = this.clock.now();
    this.tokens = Math.min(this.burst, this.tokens + (now - this.refilledAt) / this.intervalMs);
    this.refilledAt = now;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : Math.ceil(-this.tokens * this.intervalMs);
  }
}

/** At most `max` reads in flight; the rest wait their turn in order. */
class ReadSlots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly max: number) {}

  async run<T>(send: () => Promise<T>): Promise<T> {
    // A read that waits is handed the slot of the one that ends, so no newcomer slips in between.
    if (this.active >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await send();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

/**
 * Edits of one resource go one at a time, each with its retries and rate-limit waits, in the
 * order asked: a progress edit that waits out a limit must not land after the final text.
 */
class ResourceOrder {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, send: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const mine = previous.then(send, send);
    const settled = mine.catch(() => undefined);
    this.tails.set(key, settled);
    // The map keeps only edits still pending, not every resource the run ever touched.
    void settled.then(() => this.tails.get(key) === settled && this.tails.delete(key));
    return mine;
  }
}

interface RequestOptions {
  method: string;
  url: string;
  request?: { retries?: number; signal?: AbortSignal };
}

function isWrite(o: RequestOptions): boolean {
  return (o.method !== 'GET' && o.method !== 'HEAD') || o.url.endsWith('/graphql');
}

/** An edit of a resource that exists: its order matters. */
function isEdit(o: RequestOptions): boolean {
  return o.method === 'PATCH' || o.method === 'PUT' || o.method === 'DELETE';
}

/** The plugin: `Octokit.plugin(pacing)` with `{ pacing: PacingOptions }` among the client's options. */
type Plugin = Parameters<typeof Octokit.plugin>[0];

interface Attempts<T> {
  o: PacingOptions;
  clock: NonNullable<PacingOptions['clock']>;
  budget: Budget;
  /** One attempt, through the write queue or the read slots. */
  send: (signal: AbortSignal) => Promise<T>;
  opts: RequestOptions;
}

/** A request's attempts until one is answered, the answer is final, or the budget is spent. */
async function attempts<T>(a: Attempts<T>): Promise<T> {
  const { o, clock, budget, opts } = a;
  const retries = opts.request?.retries ?? o.retries;
  let failures = 0;
  for (;;) {
    const attempt = budget.attempt();
    let error: unknown;
    try {
      return await a.send(attempt.signal);
    } catch (e) {
      error = attempt.signal.reason instanceof RequestTimeout ? timedOut(e, attempt.signal.reason) : e;
    } finally {
      attempt.dispose();
    }
    const limit = rateLimitWait(error, clock.now());
    if (limit) {
      // A rate-limited request was refused before it did anything: asking again is safe even for a write.
      const what = `GitHub ${limit.kind === 'secondary' ? 'secondary ' : ''}rate limit on ${opts.method} ${opts.url}`;
      if (!budget.allows(limit.seconds * 1000)) {
        o.log(`${what}: waiting ${limit.seconds}s would pass the run's deadline; giving up`);
        throw error;
      }
      o.log(`${what}; waiting ${limit.seconds}s`);
      await clock.sleep(limit.seconds * 1000, budget.signal);
      continue;
    }
    if (!retryable(error, opts, failures, retries)) throw error;
    failures++;
    const pause = o.retryBaseMs * failures * failures;
    if (!budget.allows(pause)) throw error;
    await clock.sleep(pause, budget.signal);
  }
}

/** A timed-out attempt, as Octokit reports a failed transport: status 500, the timeout as the cause. */
function timedOut(error: unknown, timeout: RequestTimeout): unknown {
  return Object.assign(error instanceof Error ? error : new Error(String(error)), { status: 500, message: timeout.message, timeout });
}

function retryable(error: unknown, opts: RequestOptions, failures: number, retries: number): boolean {
  if (failures >= retries) return false;
  // A write that timed out may have happened: only an idempotent one is sent again here; the
  // others' callers look for their effect first (comments.ts, pulls.ts).
  if (typeof error === 'object' && error !== null && 'timeout' in error) return IDEMPOTENT.has(opts.method);
  const status = statusOf(error);
  return status !== undefined && status >= 400 && !isFinal(status);
}

export const pacing: Plugin = (octokit, clientOptions) => {
  const o = (clientOptions as { pacing?: PacingOptions }).pacing;
  if (!o) return;
  const clock = o.clock ?? realClock;
  const writes = new WriteQueue(o.writeBurst ?? 5, o.writeIntervalMs ?? 1000, clock);
  const reads = new ReadSlots(o.maxReads ?? 10);
  const order = new ResourceOrder();
  const now = () => clock.now();
  const shared = o.budget?.deadline !== undefined ? new Budget({ ...o.budget, deadline: o.budget.deadline }, now) : null;
  octokit.hook.wrap('request', async (request, options) => {
    const opts = options as unknown as RequestOptions;
    const budget = shared ?? new Budget({ ...o.budget, deadline: clock.now() + DEFAULT_BUDGET_MS }, now);
    const own = opts.request?.signal;
    const once = async (signal: AbortSignal) => {
      // The hooks inside this one read the options they were first given, so the attempt's signal goes in place.
      options.request = { ...options.request, signal: own ? AbortSignal.any([own, signal]) : signal };
      return request(options);
    };
    const send = (signal: AbortSignal) => (isWrite(opts) ? writes.run(() => once(signal), budget.signal) : reads.run(() => once(signal)));
    const all = () => attempts({ o, clock, budget, send, opts });
    if (!isEdit(opts)) return all();
    return order.run(octokit.request.endpoint.parse(options).url, all);
  });
};
