import type { GitHub } from './client.js';
import { statusOf } from './status.js';

export interface OpenedPull {
  number: number;
  url: string;
  /** False when an open pull request for the branch already existed. */
  created: boolean;
}

export interface PullRequestSpec {
  owner: string;
  repo: string;
  head: string;
  base: string;
  title: string;
  body: string;
  draft: boolean;
  /**
   * The run's own push just created the branch (a push that must not overwrite anything): no pull
   * request can have it as head yet, so none is looked for before creating one.
   */
  fresh?: boolean;
}

async function existing(gh: GitHub, spec: PullRequestSpec): Promise<OpenedPull | null> {
  const { data } = await gh.rest.pulls.list({
    owner: spec.owner,
    repo: spec.repo,
    head: `${spec.owner}:${spec.head}`,
    state: 'open',
    per_page: 10,
  });
  const hit = data[0];
  return hit ? { number: hit.number, url: hit.html_url, created: false } : null;
}

/**
 * Opens the pull request once. A 5xx may arrive after GitHub made it, so on a transient error
 * (and before creating at all, but for a branch the run just created) an open pull request for the
 * branch is looked for first.
 */
export async function openPullRequest(gh: GitHub, spec: PullRequestSpec): Promise<OpenedPull> {
  const before = spec.fresh ? null : await existing(gh, spec);
  if (before) return before;
  const create = async () => {
    const { owner, repo, head, base, title, body, draft } = spec;
    const { data } = await gh.rest.pulls.create({ owner, repo, head, base, title, body, draft, request: { retries: 0 } });
    return { number: data.number, url: data.html_url, created: true };
  };
  try {
    return await create();
  } catch (error) {
    const status = statusOf(error);
    if (status !== undefined && status < 500 && status !== 422) throw error;
    const after = await existing(gh, spec);
    if (after) return after;
    if (status === 422) throw error;
    return create();
  }
}
