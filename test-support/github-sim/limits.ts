/**
 * GitHub under load and faults, as its documentation describes them
 * (https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api):
 * - a secondary rate limit on writes ("content-generating requests"): beyond `perSecond` writes in
 *   any second, a 403 (or 429) "You have exceeded a secondary rate limit" with `retry-after`;
 * - the primary limit: `requests` per window, then a 403 "API rate limit exceeded" with
 *   `x-ratelimit-remaining: 0` and `x-ratelimit-reset` (epoch seconds of the window's end);
 * - a token that stops being valid (expired installation token): 401 "Bad credentials" from then on;
 * - requests that are read and never answered (a hung connection).
 */
import type { Reply } from './reply.js';
import { errorBody } from './reply.js';

export interface SecondaryLimit {
  perSecond: number;
  /** GitHub answers with either; default 403. */
  status?: 403 | 429;
  /** Seconds; default 1. */
  retryAfterS?: number;
}

export interface PrimaryLimit {
  requests: number;
  windowS: number;
}

export interface SimHang {
  method?: string;
  path: RegExp;
  /** How many matching requests are left unanswered. Default: all of them. */
  times?: number;
}

export interface LimitStats {
  /** Writes answered with a secondary rate limit. */
  secondary: number;
  /** Requests answered with the primary limit. */
  primary: number;
  /** Requests refused with 401 once the token expired. */
  badCredentials: number;
  /** Requests left unanswered. */
  hung: number;
}

const RATE_DOCS = 'https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api';
const SECONDARY_MESSAGE = 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.';
const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

export class SimLimits {
  secondary: SecondaryLimit | null = null;
  primary: PrimaryLimit | null = null;
  tokenExpired = false;
  readonly hangs: (SimHang & { remaining: number })[] = [];
  readonly stats: LimitStats = { secondary: 0, primary: 0, badCredentials: 0, hung: 0 };
  /** When accepted writes arrived, for the secondary limit's sliding second. */
  private writes: number[] = [];
  private window = { startsAt: 0, used: 0 };

  /** Whether this request is to be left unanswered. */
  hang(method: string, path: string): boolean {
    const h = this.hangs.find((x) => x.remaining > 0 && (x.method === undefined || x.method.toUpperCase() === method) && x.path.test(path));
    if (!h) return false;
    h.remaining -= 1;
    this.stats.hung += 1;
    return true;
  }

  /** GitHub's refusal of this request, checked in GitHub's order (credentials, then limits), or null. */
  refuse(method: string, nowMs: number): Reply | null {
    if (this.tokenExpired) {
      this.stats.badCredentials += 1;
      return { status: 401, json: errorBody(401, 'Bad credentials', 'https://docs.github.com/rest') };
    }
    return this.primaryRefusal(nowMs) ?? (WRITES.has(method) ? this.secondaryRefusal(nowMs) : null);
  }

  private primaryRefusal(nowMs: number): Reply | null {
    const p = this.primary;
    if (!p) return null;
    if (nowMs >= this.window.startsAt + p.windowS * 1000) this.window = { startsAt: nowMs, used: 0 };
    if (this.window.used < p.requests) {
      this.window.used += 1;
      return null;
    }
    this.stats.primary += 1;
    const headers = { ...this.headers(), 'x-ratelimit-remaining': '0' };
    return { status: 403, headers, json: errorBody(403, 'API rate limit exceeded for installation ID 1.', RATE_DOCS) };
  }

  private secondaryRefusal(nowMs: number): Reply | null {
    const l = this.secondary;
    if (!l) return null;
    this.writes = this.writes.filter((t) => t > nowMs - 1000);
    if (this.writes.length < l.perSecond) {
      this.writes.push(nowMs);
      return null;
    }
    this.stats.secondary += 1;
    const headers = { 'retry-after': String(l.retryAfterS ?? 1) };
    return { status: l.status ?? 403, headers, json: errorBody(l.status ?? 403, SECONDARY_MESSAGE, RATE_DOCS) };
  }

  /** The primary limit's headers on every answer while it is configured. */
  headers(): Record<string, string> {
    const p = this.primary;
    if (!p) return {};
    const remaining = Math.max(0, p.requests - this.window.used);
    return {
      'x-ratelimit-limit': String(p.requests),
      'x-ratelimit-remaining': String(remaining),
      'x-ratelimit-used': String(this.window.used),
      'x-ratelimit-reset': String(Math.ceil((this.window.startsAt + p.windowS * 1000) / 1000)),
    };
  }
}
