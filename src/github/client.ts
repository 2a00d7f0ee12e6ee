import { Octokit } from '@octokit/rest';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { httpFetch } from '../http/fetch.js';

const GitHubClient = Octokit.plugin(retry, throttling);
export type GitHub = InstanceType<typeof GitHubClient>;

export interface GitHubOptions {
  token: string;
  /** GITHUB_API_URL: github.com, GHES, or a simulator. */
  baseUrl: string;
  log?: (message: string) => void;
  /** Base of the retry plugin's backoff, ms. */
  retryBaseMs?: number;
}

/**
 * Octokit with retries of transient failures and GitHub's rate-limit rules honoured (primary
 * and secondary limits wait for `retry-after`). Writes that must not happen twice turn retries
 * off per request and check for their own effect instead (see comments.ts, pulls.ts).
 */
export function createGitHub(options: GitHubOptions): GitHub {
  const log = options.log ?? (() => {});
  return new GitHubClient({
    auth: options.token,
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    userAgent: 'agent-action',
    request: { fetch: httpFetch },
    retry: { retries: 3, retryAfterBaseValue: options.retryBaseMs ?? 1000 },
    throttle: {
      onRateLimit: (after: number, req: { method: string; url: string }, _o: unknown, count: number) => {
        log(`GitHub rate limit on ${req.method} ${req.url}; waiting ${after}s`);
        return count < 2;
      },
      onSecondaryRateLimit: (after: number, req: { method: string; url: string }, _o: unknown, count: number) => {
        log(`GitHub secondary rate limit on ${req.method} ${req.url}; waiting ${after}s`);
        return count < 3;
      },
    },
    log: { debug: () => {}, info: () => {}, warn: log, error: log },
  });
}
