/**
 * GitHub's Git Data API (https://docs.github.com/rest/git): commits made by GitHub itself, which
 * it signs as the token's bot or App when the request names no author or committer.
 */
import type { GitHub } from './client.js';
import { statusOf } from './status.js';

export interface RepoRef {
  owner: string;
  repo: string;
}

export type TreeMode = '100644' | '100755' | '040000' | '160000' | '120000';

/** An entry of `POST /git/trees`: an object by id, text GitHub writes as a blob, or `sha: null` (deleted). */
export type TreeEntry =
  | { path: string; mode: TreeMode; type: 'blob' | 'tree' | 'commit'; sha: string | null }
  | { path: string; mode: TreeMode; type: 'blob'; content: string };

export interface MadeCommit {
  sha: string;
  /** GitHub's verdict on the signature (`valid`, `unsigned`, ...). */
  verified: boolean;
  reason: string;
}

/** A blob, sent as base64 so any bytes arrive unchanged. */
export async function createBlob(gh: GitHub, r: RepoRef, bytes: Buffer): Promise<string> {
  const { data } = await gh.rest.git.createBlob({ ...r, content: bytes.toString('base64'), encoding: 'base64' });
  return data.sha;
}

export async function createTree(gh: GitHub, r: RepoRef, baseTree: string, tree: TreeEntry[]): Promise<string> {
  const { data } = await gh.rest.git.createTree({ ...r, base_tree: baseTree, tree });
  return data.sha;
}

/** A commit with no author or committer named: GitHub takes the token's identity, and signs it for a bot. */
export async function createCommit(gh: GitHub, r: RepoRef, message: string, tree: string, parents: string[]): Promise<MadeCommit> {
  const { data } = await gh.rest.git.createCommit({ ...r, message, tree, parents });
  return { sha: data.sha, verified: data.verification?.verified === true, reason: data.verification?.reason ?? 'unknown' };
}

/** The branch's head commit, or null when there is no such branch. */
export async function branchHead(gh: GitHub, r: RepoRef, branch: string): Promise<string | null> {
  try {
    const { data } = await gh.rest.git.getRef({ ...r, ref: `heads/${branch}` });
    return data.object.sha;
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw error;
  }
}

/**
 * Moves the branch to `sha`, a fast-forward only (never forced). Sent once: after a failure the
 * caller reads the branch to learn whether the update went through.
 */
export async function fastForward(gh: GitHub, r: RepoRef, branch: string, sha: string): Promise<void> {
  await gh.rest.git.updateRef({ ...r, ref: `heads/${branch}`, sha, force: false, request: { retries: 0 } });
}

/** Creates the branch at `sha`; sent once, as fastForward. */
export async function createBranchRef(gh: GitHub, r: RepoRef, branch: string, sha: string): Promise<void> {
  await gh.rest.git.createRef({ ...r, ref: `refs/heads/${branch}`, sha, request: { retries: 0 } });
}

/** What a refused ref update means: the branch moved on (not a fast-forward), the name is taken, or something else. */
export function refRefusal(error: unknown): 'behind' | 'exists' | 'transient' | 'final' {
  const status = statusOf(error);
  const message = error instanceof Error ? error.message : String(error);
  if (status === 422 && /not a fast forward/i.test(message)) return 'behind';
  if (status === 422 && /already exists/i.test(message)) return 'exists';
  if (status === undefined || status >= 500 || status === 408 || status === 429) return 'transient';
  return 'final';
}
