import type { GitHub } from './client.js';
import type { GitHubEvent, RepoRef } from './event-types.js';

/**
 * Whether a pull request's head lives outside its base repository, so nothing may be pushed to
 * it. GitHub owner and repository names are case-insensitive: `Octo/Repo` is `octo/repo`. A
 * deleted head repository ('') counts as a fork, since there is nowhere safe to push.
 */
export function isFork(headRepoFullName: string, baseRepoFullName: string): boolean {
  return headRepoFullName === '' || headRepoFullName.toLowerCase() !== baseRepoFullName.toLowerCase();
}

/** The repository as the event names it; scheduled events name none, so it is asked for. */
export async function repoRef(gh: GitHub, event: GitHubEvent, owner: string, name: string): Promise<RepoRef> {
  if (event.repo) return event.repo;
  const { data } = await gh.rest.repos.get({ owner, repo: name });
  return { owner, name, fullName: data.full_name, defaultBranch: data.default_branch, private: data.private };
}
