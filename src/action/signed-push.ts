import type { Repo } from '../git/repo.js';
import type { TreeChange } from '../git/objects.js';
import type { GitHub } from '../github/client.js';
import {
  branchHead,
  createBlob,
  createBranchRef,
  createCommit,
  createTree,
  fastForward,
  refRefusal,
  type MadeCommit,
  type RepoRef,
  type TreeEntry,
  type TreeMode,
} from '../github/git-data.js';
import { statusOf } from '../github/status.js';
import { MAX_CATCH_UPS, TRANSIENT_DELAYS_MS, type Pushed } from './push.js';

/**
 * `commit-signing: true`: the commit made in the workspace is made again by GitHub through the
 * Git Data API (blobs, a tree on the parent's tree, a commit naming no author or committer, a
 * fast-forward of the branch or a new branch), so GitHub signs it as the token's bot or App.
 */
export interface SignedPushInput {
  repo: Repo;
  /** The handle whose git commands carry the credentials: fetching GitHub's commit back. */
  pushRepo: Repo;
  gh: GitHub;
  owner: string;
  name: string;
  /** A branch this run created (POST /git/refs); else the pull request's branch (a fast-forward). */
  fresh: boolean;
  redact: (text: string) => string;
  /** Warnings. */
  log: (message: string) => void;
  /** What went where. */
  info?: (message: string) => void;
  sleep?: (ms: number) => Promise<void>;
  /** Who the token writes as (a bot's login ends in `[bot]`), to say why a commit was not signed. */
  writer?: () => Promise<string | null>;
  /** The token as a refusal names it (its input): `the github-token` by default. */
  credential?: string;
}

/** Text files up to this size go inside the tree request; bigger and binary files are blobs of their own. */
export const INLINE_MAX_BYTES = 256 * 1024;
/** One tree request holds at most this many entries or this much inline text; more are chained on each other. */
export const TREE_CHUNK_ENTRIES = 2000;
export const TREE_CHUNK_BYTES = 4 * 1024 * 1024;
/** Blobs in flight at once (the client paces writes on top of that). */
export const BLOB_CONCURRENCY = 4;

const TYPE_OF_MODE: Record<string, 'blob' | 'tree' | 'commit'> = {
  '100644': 'blob',
  '100755': 'blob',
  '120000': 'blob',
  '160000': 'commit',
};

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function isText(bytes: Buffer): boolean {
  return !bytes.includes(0) && Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes);
}

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** The tree entries of the changes, by object id (every blob is on GitHub already). */
function entriesBySha(changes: readonly TreeChange[]): TreeEntry[] {
  return [
    ...changes.filter((c) => c.status === 'D').map((c) => deletion(c)),
    ...changes
      .filter((c) => c.status !== 'D')
      .map((c): TreeEntry => ({ path: c.path, mode: c.newMode as TreeMode, type: TYPE_OF_MODE[c.newMode] ?? 'blob', sha: c.newSha })),
  ];
}

function deletion(c: TreeChange): TreeEntry {
  return { path: c.path, mode: c.oldMode as TreeMode, type: TYPE_OF_MODE[c.oldMode] ?? 'blob', sha: null };
}

/**
 * The entries of the first tree: deletions, text inline, binary and large files as blobs
 * (base64, a few at a time), submodules by commit id. Modes are kept as git has them.
 */
async function uploadEntries(o: SignedPushInput, r: RepoRef, changes: readonly TreeChange[]): Promise<TreeEntry[]> {
  const kept = changes.filter((c) => c.status !== 'D');
  const files = kept.filter((c) => TYPE_OF_MODE[c.newMode] === 'blob');
  const bytes = await o.repo.blobs(files.map((c) => c.newSha));
  const big = files.filter((c) => {
    const b = bytes.get(c.newSha)!;
    return b.length > INLINE_MAX_BYTES || !isText(b);
  });
  const uploaded = new Map<string, string>();
  await mapLimit([...new Set(big.map((c) => c.newSha))], BLOB_CONCURRENCY, async (sha) => {
    const made = await createBlob(o.gh, r, bytes.get(sha)!);
    if (made !== sha) throw new Error(`GitHub stored blob ${made} for the local blob ${sha}`);
    uploaded.set(sha, made);
  });
  const entries: TreeEntry[] = changes.filter((c) => c.status === 'D').map(deletion);
  for (const c of kept) {
    const mode = c.newMode as TreeMode;
    const type = TYPE_OF_MODE[c.newMode] ?? 'blob';
    if (type !== 'blob' || uploaded.has(c.newSha)) entries.push({ path: c.path, mode, type, sha: c.newSha });
    else entries.push({ path: c.path, mode, type: 'blob', content: bytes.get(c.newSha)!.toString('utf8') });
  }
  return entries;
}

/** Trees of at most TREE_CHUNK_* each, every one on the tree before it: the last is the commit's. */
async function buildTree(o: SignedPushInput, r: RepoRef, baseTree: string, entries: readonly TreeEntry[]): Promise<string> {
  let tree = baseTree;
  let chunk: TreeEntry[] = [];
  let size = 0;
  const flush = async () => {
    if (chunk.length === 0) return;
    tree = await createTree(o.gh, r, tree, chunk);
    chunk = [];
    size = 0;
  };
  for (const e of entries) {
    const bytes = 'content' in e ? Buffer.byteLength(e.content) : 0;
    if (chunk.length >= TREE_CHUNK_ENTRIES || (chunk.length > 0 && size + bytes > TREE_CHUNK_BYTES)) await flush();
    chunk.push(e);
    size += bytes;
  }
  await flush();
  return tree;
}

interface State {
  branch: string;
  /** The commit the branch is expected to be on before the update (the new commit's parent). */
  base: string;
  commit: MadeCommit;
  takenName?: string;
  rebuilt: boolean;
  transient: number;
  catchUps: number;
}

type Step = 'done' | 'again' | Pushed;

/** Commits what the workspace's commit `localSha` changed, through GitHub, to `branch`. */
export async function pushSigned(o: SignedPushInput, branch: string, localSha: string): Promise<Pushed> {
  const r: RepoRef = { owner: o.owner, repo: o.name };
  let s: State | undefined;
  try {
    const parent = await o.repo.parentOf(localSha);
    const changes = await o.repo.treeChanges(parent, localSha);
    const message = await o.repo.commitMessage(localSha);
    const tree = await buildTree(o, r, await o.repo.treeOf(parent), await uploadEntries(o, r, changes));
    const commit = await createCommit(o.gh, r, message, tree, [parent]);
    s = { branch, base: parent, commit, rebuilt: false, transient: 0, catchUps: 0 };
    for (;;) {
      const step = await updateRef(o, r, s, changes, message);
      if (step === 'again') continue;
      if (step !== 'done') return step;
      return await landed(o, s, branch);
    }
  } catch (error) {
    return failure(o, s?.branch ?? branch, error);
  }
}

/** One ref update, and what its answer calls for. */
async function updateRef(o: SignedPushInput, r: RepoRef, s: State, changes: readonly TreeChange[], message: string): Promise<Step> {
  try {
    if (o.fresh) await createBranchRef(o.gh, r, s.branch, s.commit.sha);
    else await fastForward(o.gh, r, s.branch, s.commit.sha);
    return 'done';
  } catch (error) {
    let refusal = refRefusal(error);
    o.log(`updating ${s.branch} to ${s.commit.sha.slice(0, 7)} failed: ${o.redact(errorText(error))}`);
    if (refusal === 'transient') {
      // The update may have gone through before the answer was lost: the branch says.
      const head = await branchHead(o.gh, r, s.branch);
      if (head === s.commit.sha) return 'done';
      const untouched = o.fresh ? head === null : head === s.base;
      if (untouched) {
        const delay = TRANSIENT_DELAYS_MS[s.transient];
        if (delay === undefined) throw error;
        s.transient += 1;
        o.log(`updating ${s.branch} again in ${delay / 1000} s`);
        await (o.sleep ?? defaultSleep)(delay);
        return 'again';
      }
      refusal = o.fresh ? 'exists' : 'behind';
    }
    if (refusal === 'exists' && o.fresh && s.catchUps < MAX_CATCH_UPS) {
      s.catchUps += 1;
      s.takenName ??= s.branch;
      s.branch = await o.pushRepo.uniqueBranchName(s.branch);
      return 'again';
    }
    if (refusal === 'behind' && !s.rebuilt) return rebuild(o, r, s, changes, message);
    if (refusal === 'behind') {
      return {
        failed: `Other pushes to \`${s.branch}\` kept landing while this run committed (GitHub: ${errorText(error)}). Nothing was pushed or forced; this run's diff is below.`,
        undelivered: o.redact(
          `the signed commit to ${s.branch}: the branch moved again after the commit was made on its new head (${errorText(error)})`,
        ),
      };
    }
    throw error;
  }
}

/** The branch moved on: the same changes, committed again on its new head, once; or the conflict. */
async function rebuild(o: SignedPushInput, r: RepoRef, s: State, changes: readonly TreeChange[], message: string): Promise<Step> {
  s.rebuilt = true;
  const head = await o.pushRepo.fetchBranch(s.branch);
  const theirs = new Set(await o.repo.changedBetween(s.base, head));
  const both = changes
    .map((c) => c.path)
    .filter((p) => theirs.has(p) || [...theirs].some((t) => t.startsWith(`${p}/`) || p.startsWith(`${t}/`)));
  if (both.length > 0) {
    const files = both.map((f) => `\`${f}\``).join(', ');
    return {
      failed: `Another run pushed to \`${s.branch}\` while this one worked, and their changes conflict in ${files}. Nothing was pushed or forced; this run's diff is below.`,
      undelivered: o.redact(`the push to ${s.branch}: another run's changes to it conflict in ${both.join(', ')}`),
    };
  }
  const tree = await buildTree(o, r, await o.repo.treeOf(head), entriesBySha(changes));
  s.base = head;
  s.commit = await createCommit(o.gh, r, message, tree, [head]);
  return 'again';
}

/** The workspace ends on GitHub's commit; the notes say what happened on the way. */
async function landed(o: SignedPushInput, s: State, localBranch: string): Promise<Pushed> {
  const notes: string[] = [];
  const info = o.info ?? o.log;
  try {
    await o.pushRepo.fetchBranch(s.branch);
    await o.repo.moveBranchTo(s.branch, s.commit.sha);
    if (s.branch !== localBranch) await o.repo.deleteLocalBranch(localBranch);
  } catch (error) {
    o.log(`the workspace could not be moved onto ${s.commit.sha.slice(0, 7)}: ${o.redact(errorText(error))}`);
  }
  if (s.takenName !== undefined)
    notes.push(`Another run created \`${s.takenName}\` meanwhile, so this run's work went to \`${s.branch}\`.`);
  if (s.rebuilt) notes.push(`Another run pushed to \`${s.branch}\` meanwhile: this run's commit was made again on top of it.`);
  if (s.commit.verified) {
    info(`agent-action: ${s.commit.sha} on ${s.branch} was made by GitHub and signed (verified)`);
  } else {
    const writer = (await o.writer?.().catch(() => null)) ?? null;
    const why =
      writer !== null && !writer.endsWith('[bot]')
        ? `the token is a personal token (it acts as @${writer}), and GitHub signs API commits only for a bot's or an App's token`
        : `GitHub answered \`${s.commit.reason}\``;
    const line = `The commit was made through GitHub's API, but it is not signed: ${why}.`;
    o.log(line);
    notes.push(line);
  }
  return { sha: s.commit.sha, branch: s.branch, ...(notes.length > 0 ? { note: notes.join(' ') } : {}) };
}

function errorText(error: unknown): string {
  const status = statusOf(error);
  const message = error instanceof Error ? error.message : String(error);
  return status !== undefined && !message.includes(String(status)) ? `${status} ${message}` : message;
}

function failure(o: SignedPushInput, branch: string, error: unknown): Pushed {
  const line =
    statusOf(error) === 401
      ? `GitHub refused ${o.credential ?? 'the github-token'} (401 Bad credentials): it expired or was revoked during the run`
      : o.redact(errorText(error));
  return {
    failed: `The commit could not be made on \`${branch}\` through GitHub's API (${line}). Nothing of it is on the branch; the diff is below.`,
    undelivered: `the signed commit to ${branch}: ${line}`,
  };
}
