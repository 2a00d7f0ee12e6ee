import { BOT_IDENTITY, Repo, type Identity } from '../git/repo.js';
import { pushRefusal } from '../git/push-refusal.js';
import { gitErrorLine } from '../git/safe.js';

export interface PushInput {
  repo: Repo;
  /** The handle whose git commands carry the push credentials. */
  pushRepo: Repo;
  /** A branch this run created: if the name was taken meanwhile, the work goes to another new name. */
  fresh: boolean;
  redact: (text: string) => string;
  log: (message: string) => void;
  /** Waits between attempts; tests pass one that does not. */
  sleep?: (ms: number) => Promise<void>;
  /** Who the rebased commits are by; github-actions[bot] when absent. */
  committer?: Identity;
}

/**
 * Pushed, or why not: `failed` is for the comment, `undelivered` names the push and git's answer
 * in a line (the run's conclusion says the work did not arrive).
 */
export type Pushed = { sha: string; branch: string; note?: string } | { failed: string; undelivered: string };

/** Waits before pushing again after a server or connection failure: a few seconds in all. */
export const TRANSIENT_DELAYS_MS = [1_000, 2_000, 4_000];
/**
 * How many times the branch may move on under this run's push (fetch, rebase, push again each
 * time): enough for several runs racing on one pull request, never an endless chase.
 */
export const MAX_CATCH_UPS = 5;

/** Where the push stands: the branch it goes to, and what happened on the way. */
interface State {
  branch: string;
  behind: boolean;
  rebased: boolean;
  takenName?: string;
  transient: number;
  catchUps: number;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function why(o: PushInput, error: unknown): string {
  return o.redact(gitErrorLine(error));
}

/**
 * Pushes the commit. A server or connection failure is retried after a pause. When the branch
 * moved on under the push (another run pushed first, or won a race for the ref), that work is
 * fetched, this commit rebased onto it and pushed again, a bounded number of times; a conflict
 * is reported, never forced over. A new branch whose name another run took meanwhile is pushed
 * under the next free name instead, so two runs' unrelated work never shares a branch.
 */
export async function pushWork(o: PushInput, branch: string, sha: string): Promise<Pushed> {
  const s: State = { branch, behind: false, rebased: false, transient: 0, catchUps: 0 };
  for (;;) {
    try {
      const conflict = s.behind ? await catchUp(o, s) : null;
      if (conflict) return conflict;
      await o.pushRepo.push(s.branch);
      return await pushed(o, s, sha);
    } catch (error) {
      o.log(`push to ${s.branch} failed: ${why(o, error)}`);
      if (!(await mayRetry(o, s, error))) return failure(o, s, error);
    }
  }
}

/** Whether to try again, after the pause a transient failure calls for. */
async function mayRetry(o: PushInput, s: State, error: unknown): Promise<boolean> {
  const refusal = pushRefusal(error);
  if (refusal === 'behind' && s.catchUps < MAX_CATCH_UPS) {
    s.catchUps += 1;
    s.behind = true;
    return true;
  }
  const delay = TRANSIENT_DELAYS_MS[s.transient];
  if (refusal !== 'transient' || delay === undefined) return false;
  s.transient += 1;
  o.log(`pushing to ${s.branch} again in ${delay / 1000} s`);
  await (o.sleep ?? defaultSleep)(delay);
  return true;
}

/** After the branch moved on: a new branch takes the next free name, a shared one is rebased. */
async function catchUp(o: PushInput, s: State): Promise<Pushed | null> {
  if (o.fresh) {
    s.takenName ??= s.branch;
    s.branch = await o.pushRepo.uniqueBranchName(s.branch);
    s.behind = false;
    return null;
  }
  const { conflicts } = await o.pushRepo.rebaseOnRemote(s.branch, o.committer ?? BOT_IDENTITY);
  s.behind = false;
  if (conflicts.length === 0) {
    s.rebased = true;
    return null;
  }
  const files = conflicts.map((f) => `\`${f}\``).join(', ');
  return {
    failed: `Another run pushed to \`${s.branch}\` while this one worked, and their changes conflict in ${files}. Nothing was pushed or forced; this run's diff is below.`,
    undelivered: o.redact(`the push to ${s.branch}: another run's changes to it conflict in ${conflicts.join(', ')}`),
  };
}

async function pushed(o: PushInput, s: State, sha: string): Promise<Pushed> {
  if (s.takenName !== undefined) {
    const note = `Another run created \`${s.takenName}\` meanwhile, so this run's work went to \`${s.branch}\`.`;
    return { sha, branch: s.branch, note };
  }
  if (!s.rebased) return { sha, branch: s.branch };
  const note = `Another run pushed to \`${s.branch}\` meanwhile: this run's commit was rebased onto it.`;
  return { sha: await o.repo.headSha(), branch: s.branch, note };
}

function failure(o: PushInput, s: State, error: unknown): Pushed {
  const line = why(o, error);
  const tries = s.transient + s.catchUps > 0 ? `, after ${s.transient + s.catchUps + 1} attempts` : '';
  return {
    failed: `The commit could not be pushed to \`${s.branch}\` (${line}${tries}). Nothing of it is on the remote; the diff is below.`,
    undelivered: `the push to ${s.branch}: ${line}`,
  };
}
