/**
 * How the action's requests reach GitHub, as an Octokit plugin. Reads go out at once (at most ten
 * at a time); writes start one after another, the first few without a pause and then a second apart,
 * which is GitHub's advice for clients making many writes. Rate limits are waited out as GitHub's
 * answer says, and transient failures are retried with a growing pause.
 *
 * A run makes a handful of writes (the 👀, the tracking comment, its final text, a pull request),
 * so a fixed second between every two of them would add seconds to every run for nothing; many
 * writes still end up one per second.
 */
import type { Octokit } from '@octokit/rest';
import { statusOf } from './status.js';

export interface PacingOptions {
  /** Retries of a transient failure (5xx, 408, 429 without a rate-limit header, a dropped connection); a request may say `request: { retries: 0 }`. */
  retries: number;
  /** Pause before retry n: base × n². */
  retryBaseMs: number;
  log: (message: string) => void;
  /** Writes that may start without a pause; one more every writeIntervalMs after that. */
  writeBurst?: number;
  writeIntervalMs?: number;
  /** Reads in flight at once. */
  maxReads?: number;
  /** Injected in tests; real time otherwise. */
  clock?: { now(): number; sleep(ms: number): Promise<void> };
}

/**
 * Every 4xx says the request itself is wrong, not allowed or not acceptable (406: a diff past
 * 300 files), and asking again gets the same answer; only a timeout (408) and a rate limit
 * without its headers (429) pass. A 403 or 429 with rate-limit headers is waited out above.
 */
function isFinal(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}
/** Waits on a secondary rate limit, and on the primary one (until its reset). */
const MAX_SECONDARY_WAITS = 3;
const MAX_PRIMARY_WAITS = 2;
/** GitHub's advice when a secondary limit answer carries no retry-after. */
const SECONDARY_FALLBACK_S = 60;

const realClock = { now: () => Date.now(), sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)) };

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
 * per interval. A write does not hold the next one while it waits for its answer: GitHub
 * requests carry no timeout, and one that hangs must not keep the final comment from going out.
 * (The tracking comment orders its own updates.)
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

  run<T>(send: () => Promise<T>): Promise<T> {
    const start = this.tail.then(async () => {
      const wait = this.take();
      if (wait > 0) await this.clock.sleep(wait);
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

interface RequestOptions {
  method: string;
  url: string;
  request?: { retries?: number };
}

function isWrite(o: RequestOptions): boolean {
  return (o.method !== 'GET' && o.method !== 'HEAD') || o.url.endsWith('/graphql');
}

/** The plugin: `Octokit.plugin(pacing)` with `{ pacing: PacingOptions }` among the client's options. */
type Plugin = Parameters<typeof Octokit.plugin>[0];

export const pacing: Plugin = (octokit, clientOptions) => {
  const o = (clientOptions as { pacing?: PacingOptions }).pacing;
  if (!o) return;
  const clock = o.clock ?? realClock;
  const writes = new WriteQueue(o.writeBurst ?? 5, o.writeIntervalMs ?? 1000, clock);
  const reads = new ReadSlots(o.maxReads ?? 10);
  octokit.hook.wrap('request', async (request, options) => {
    const opts = options as unknown as RequestOptions;
    const once = async () => request(options);
    const send = () => (isWrite(opts) ? writes.run(once) : reads.run(once));
    const retries = opts.request?.retries ?? o.retries;
    let failures = 0;
    const waited = { secondary: 0, primary: 0 };
    for (;;) {
      try {
        return await send();
      } catch (error) {
        const limit = rateLimitWait(error, clock.now());
        if (limit) {
          // A rate-limited request was refused before it did anything: asking again is safe even for a write.
          if (waited[limit.kind]++ >= (limit.kind === 'secondary' ? MAX_SECONDARY_WAITS : MAX_PRIMARY_WAITS)) throw error;
          o.log(
            `GitHub ${limit.kind === 'secondary' ? 'secondary ' : ''}rate limit on ${opts.method} ${opts.url}; waiting ${limit.seconds}s`,
          );
          await clock.sleep(limit.seconds * 1000);
          continue;
        }
        const status = statusOf(error);
        if (status === undefined || status < 400 || isFinal(status) || failures >= retries) throw error;
        failures++;
        await clock.sleep(o.retryBaseMs * failures * failures);
      }
    }
  });
};
