import type { GitHub } from './client.js';
import { statusOf } from './status.js';
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

/** The contents API lists at most 1,000 entries of a folder: a root that full is no complete answer. */
const LISTING_CAP = 1000;

/** Root listings by client, repository and ref: the names at the top of the tree, asked for once. */
const roots = new WeakMap<GitHub, Map<string, Promise<Set<string> | null>>>();

/**
 * Whether the top-level entry a path starts with exists at ref, from one listing of the root per
 * ref: most of the files a run looks for (CLAUDE.md, AGENTS.md, .mcp.json, `.claude`) are not
 * there, and one listing answers for all of them instead of a 404 each. Undefined when the
 * listing cannot say (it failed, or it is cut at 1,000 entries): then the path itself is asked for.
 */
export async function presentAtRoot(
  gh: GitHub,
  where: { owner: string; repo: string },
  path: string,
  ref: string,
): Promise<boolean | undefined> {
  let byRepo = roots.get(gh);
  if (!byRepo) roots.set(gh, (byRepo = new Map<string, Promise<Set<string> | null>>()));
  const key = `${where.owner}/${where.repo}\0${ref}`;
  let listing = byRepo.get(key);
  if (!listing) {
    listing = gh.rest.repos.getContent({ ...where, path: '', ref }).then(
      ({ data }) => (Array.isArray(data) && data.length < LISTING_CAP ? new Set(data.map((e) => e.name)) : null),
      // No such ref, or an empty repository: nothing is there.
      (error: unknown) => (statusOf(error) === 404 ? new Set<string>() : null),
    );
    byRepo.set(key, listing);
  }
  const names = await listing;
  return names ? names.has(path.replace(/^\/+/, '').split('/')[0] ?? '') : undefined;
}

/** A text file of the repository at ref through the contents API; null when there is none (or it is not a file). */
export async function readRepoFile(gh: GitHub, where: { owner: string; repo: string }, path: string, ref: string): Promise<string | null> {
  if ((await presentAtRoot(gh, where, path, ref)) === false) return null;
  try {
    const { data } = await gh.rest.repos.getContent({ ...where, path, ref });
    if (Array.isArray(data) || data.type !== 'file' || !('content' in data) || data.encoding !== 'base64') return null;
    return Buffer.from(data.content, 'base64').toString('utf8');
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw error;
  }
}

/** What a folder of the repository holds at ref; nothing when there is no such folder (404) or it is a file. */
export async function listRepoDir(
  gh: GitHub,
  where: { owner: string; repo: string },
  path: string,
  ref: string,
): Promise<{ name: string; type: string; size: number }[]> {
  if ((await presentAtRoot(gh, where, path, ref)) === false) return [];
  try {
    const { data } = await gh.rest.repos.getContent({ ...where, path, ref });
    return Array.isArray(data) ? data.map((e) => ({ name: e.name, type: e.type, size: e.size })) : [];
  } catch (error) {
    if (statusOf(error) === 404) return [];
    throw error;
  }
}

/** Every file of a pull request with its patch, as `GET /pulls/{n}/files` lists them (3,000 at most). */
export function listPullFiles(gh: GitHub, where: { owner: string; repo: string }, pullNumber: number) {
  return gh.paginate(gh.rest.pulls.listFiles, { ...where, pull_number: pullNumber, per_page: 100 });
}
