import { Octokit } from '@octokit/rest';
import { httpFetch } from '../http/fetch.js';
import type { BudgetOptions } from './budget.js';
import { pacing, type PacingOptions } from './pacing.js';

const GitHubClient = Octokit.plugin(pacing);
export type GitHub = InstanceType<typeof GitHubClient>;

export interface GitHubOptions {
  token: string;
  /** GITHUB_API_URL: github.com, GHES, or a simulator. */
  baseUrl: string;
  log?: (message: string) => void;
  /** Base of the retries' backoff, ms. */
  retryBaseMs?: number;
  /** The writes' pace and the clock, for tests (see pacing.ts). */
  pacing?: Partial<Pick<PacingOptions, 'writeBurst' | 'writeIntervalMs' | 'maxReads' | 'clock'>>;
  /** The run's deadline and cancellation, which bound every request and every wait (see budget.ts). */
  budget?: Partial<BudgetOptions>;
}

/**
 * Octokit with retries of transient failures and GitHub's rate-limit rules honoured (primary
 * and secondary limits are waited out as the answer says, within the budget), each attempt with
 * a timeout. Writes that must not happen twice turn
 * retries off per request and check for their own effect instead (see comments.ts, pulls.ts).
 */
export function createGitHub(options: GitHubOptions): GitHub {
  const log = options.log ?? (() => {});
  const paced: PacingOptions = {
    retries: 3,
    retryBaseMs: options.retryBaseMs ?? 1000,
    log,
    ...options.pacing,
    ...(options.budget ? { budget: options.budget } : {}),
  };
  return new GitHubClient({
    auth: options.token,
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    userAgent: 'agent-action',
    request: { fetch: httpFetch },
    pacing: paced,
    // Octokit logs every failed request as an error; the caller decides what a failure means (a
    // 404 for CLAUDE.md says the file is absent), so only Octokit's own warnings reach the log.
    log: { debug: () => {}, info: () => {}, warn: log, error: () => {} },
  });
}
