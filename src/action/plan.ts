import type { Repo } from '../git/repo.js';
import type { PullContext, TaskContext } from '../github/context.js';
import type { Trigger } from '../github/trigger.js';
import type { Redactor } from '../secrets/redactor.js';
import type { Plan } from './deliver.js';
import { load } from './lazy.js';

/** The workspace twice: as is, and with push credentials in the environment of its git commands. */
export interface Git {
  repo: Repo;
  netRepo: Repo;
  /** Called once the workspace is ready for the model: git's own files are kept as they are now. */
  seal(): Promise<void>;
}

/**
 * Commands that reach the origin get the token in their own environment, nowhere else. The
 * credential is scoped to the server's URL, so an origin elsewhere (a local path, another host)
 * never sees it, and no git process is needed to find out which kind of origin this is. Both
 * handles are tied to the repository as found now, before the model runs, and share one guard.
 */
export async function openGit(workspace: string, token: string, serverUrl: string, log?: (m: string) => void): Promise<Git> {
  const [{ Repo }, { authEnv }, { locateGitDirs }, { GitDirGuard }] = await Promise.all([
    load.repo(),
    load.credentials(),
    import('../git/git-dir.js'),
    import('../git/guard.js'),
  ]);
  const dirs = locateGitDirs(workspace);
  const guard = dirs ? GitDirGuard.for(dirs, log) : undefined;
  return {
    repo: Repo.open(workspace, { dirs, ...(guard ? { guard } : {}) }),
    netRepo: Repo.open(workspace, { dirs, env: authEnv(token, serverUrl), ...(guard ? { guard } : {}) }),
    seal: async () => guard?.seal(),
  };
}

/** Where a pull request's work goes: its branch, or for a fork nowhere but its head commit. */
export function pullPlan(pull: PullContext): Plan {
  return pull.isFork ? { kind: 'fork', pullNumber: pull.number } : { kind: 'pull', branch: pull.headRef, pullNumber: pull.number };
}

/** Checks out the pull request's code: its branch, or for a fork its head commit. */
export async function checkoutPull(pull: PullContext, netRepo: Repo): Promise<void> {
  if (pull.isFork) await netRepo.checkoutPullRef(pull.number);
  else await netRepo.checkoutPullHead(pull.headRef);
}

export interface NewBranchInput {
  trigger: Trigger;
  redactor: Redactor;
  branchPrefix: string;
  runId: string;
  /** base-branch: checked out already (checkoutBase); else the branch the workflow checked out. */
  base?: string;
}

/** base-branch: fetched and checked out before the loop, so the work starts from it and the new branch grows on it. */
export async function checkoutBase(netRepo: Repo, branch: string): Promise<void> {
  try {
    await netRepo.checkoutPullHead(branch);
  } catch (error) {
    const why = error instanceof Error ? (error.message.split('\n').find((l) => /fatal|error/.test(l)) ?? error.message) : String(error);
    throw new Error(`input base-branch: cannot check out ${branch} from origin (${why.trim()})`);
  }
}

/** Work that is not a pull request's goes to a new branch, named after the issue or the run. */
export async function planNewBranch(context: TaskContext, git: Git, o: NewBranchInput): Promise<Plan> {
  const { newBranchName } = await load.deliver();
  const issueNumber = o.trigger.target.type === 'issue' ? o.trigger.target.number : null;
  const title = o.redactor.redact(context.issue?.title ?? o.trigger.task);
  const branch = await newBranchName(git.netRepo, o.branchPrefix, issueNumber, title, o.runId);
  return { kind: 'new-branch', base: o.base || (await git.repo.currentBranch()), branch, issueNumber };
}

/** Where the agent is, in one sentence of its task. */
export function whereNote(plan: Plan): string {
  if (plan.kind === 'pull') return `You are on the pull request's branch ${plan.branch}.`;
  if (plan.kind === 'fork') return "You are on the pull request's head commit.";
  return `You are on ${plan.base}; your changes will go to a new branch.`;
}
