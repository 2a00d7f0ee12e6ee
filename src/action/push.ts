import { BOT_IDENTITY, Repo, type Identity } from '../git/repo.js';
import { gitErrorLine } from '../git/safe.js';

export interface PushInput {
  repo: Repo;
  /** The handle whose git commands carry the push credentials. */
  pushRepo: Repo;
  /** A branch this run created: if the name was taken meanwhile, the work goes to another new name. */
  fresh: boolean;
  redact: (text: string) => string;
  log: (message: string) => void;
  /** Who the rebased commits are by; github-actions[bot] when absent. */
  committer?: Identity;
}

export type Pushed = { sha: string; branch: string; note?: string } | { failed: string };

function why(o: PushInput, error: unknown): string {
  return o.redact(gitErrorLine(error));
}

/**
 * Pushes the commit. When another run pushed to the branch first, its work is fetched, this
 * commit rebased onto it and pushed once more; a conflict is reported, never forced over. A new
 * branch whose name another run took meanwhile is pushed under the next free name instead, so
 * two runs' unrelated work never shares a branch.
 */
export async function pushOnce(o: PushInput, branch: string, sha: string): Promise<Pushed> {
  try {
    await o.pushRepo.push(branch);
    return { sha, branch };
  } catch (error) {
    o.log(`push to ${branch} failed: ${why(o, error)}`);
    if (!Repo.isRejectedAsBehind(error))
      return { failed: `The commit could not be pushed to \`${branch}\` (${why(o, error)}). The diff is below.` };
  }
  return o.fresh ? pushElsewhere(o, branch, sha) : rebaseAndPush(o, branch);
}

async function pushElsewhere(o: PushInput, taken: string, sha: string): Promise<Pushed> {
  try {
    const branch = await o.pushRepo.uniqueBranchName(taken);
    await o.pushRepo.push(branch);
    return { sha, branch, note: `Another run created \`${taken}\` meanwhile, so this run's work went to \`${branch}\`.` };
  } catch (error) {
    return { failed: `The commit could not be pushed to a new branch (${why(o, error)}). The diff is below.` };
  }
}

async function rebaseAndPush(o: PushInput, branch: string): Promise<Pushed> {
  try {
    const { conflicts } = await o.pushRepo.rebaseOnRemote(branch, o.committer ?? BOT_IDENTITY);
    if (conflicts.length > 0) {
      const files = conflicts.map((f) => `\`${f}\``).join(', ');
      return {
        failed: `Another run pushed to \`${branch}\` while this one worked, and their changes conflict in ${files}. Nothing was pushed or forced; this run's diff is below.`,
      };
    }
    await o.pushRepo.push(branch);
    const note = `Another run pushed to \`${branch}\` meanwhile: this run's commit was rebased onto it.`;
    return { sha: await o.repo.headSha(), branch, note };
  } catch (error) {
    o.log(`push to ${branch} after rebasing failed: ${why(o, error)}`);
    return {
      failed: `The commit could not be pushed to \`${branch}\` (${why(o, error)}), even after rebasing onto what another run pushed. The diff is below.`,
    };
  }
}
