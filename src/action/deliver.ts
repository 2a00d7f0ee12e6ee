import { BOT_IDENTITY, Repo, slugify, workflowFiles, type Identity } from '../git/repo.js';
import type { GitHub } from '../github/client.js';
import { openPullRequest, type OpenedPull } from '../github/pulls.js';
import { pushWork } from './push.js';
import type { FinalReport } from '../report/comment.js';
import type { LeftOut } from '../secrets/credential-check.js';

/** Where the work goes, decided before the loop starts. */
export type Plan =
  | { kind: 'pull'; branch: string; pullNumber: number }
  | { kind: 'fork'; pullNumber: number }
  | { kind: 'new-branch'; base: string; branch: string; issueNumber: number | null };

export interface Delivery {
  changedFiles: string[];
  diff: string;
  diffStat: string;
  branch?: string;
  commit?: { sha: string; url: string };
  pr?: OpenedPull;
  pushed: boolean;
  /** What the reader should know: nothing changed, fork PR not pushed, workflow files held back, a failed push. */
  note?: string;
  /**
   * What the run made but could not deliver (a push, a pull request, a review), one entry each in
   * words; any entry makes the conclusion `undelivered`.
   */
  undelivered?: string[];
  /** A review run's posted review. */
  review?: NonNullable<FinalReport['review']>;
}

export interface DeliverOptions {
  repo: Repo;
  /** A second handle whose environment carries push credentials, used for the push alone. */
  pushRepo: Repo;
  gh: GitHub;
  owner: string;
  name: string;
  serverUrl: string;
  plan: Plan;
  task: string;
  requester: { login: string; id?: number } | null;
  requestUrl: string;
  pullRequest: 'auto' | 'draft' | 'never';
  summary: string;
  /** New branches must start with this; nothing else but the PR's own branch is ever pushed. */
  branchPrefix: string;
  /** Push changes under .github/workflows/ too (off: they stay in the diff only). */
  allowWorkflowChanges: boolean;
  /** Of the changed files, the credentials files (never committed, left out of the diff) and why each is one. */
  leaveOut?: (paths: readonly string[]) => Promise<LeftOut[]>;
  /** Applied to everything that leaves: commit message, pull request title and body. */
  redact: (text: string) => string;
  log: (message: string) => void;
  /** Who the commits are by (an App's bot); github-actions[bot] when absent. */
  committer?: Identity;
  /** commit-signing: the commit is made again by GitHub through its Git Data API (see signed-push.ts). */
  commitSigning?: boolean;
  /** Who the token writes as, to say why a commit was not signed. */
  writer?: () => Promise<string | null>;
  /** The input the token comes from, named when GitHub refuses it. */
  credential?: string;
  /** What went where (the log); warnings go to `log`. */
  info?: (message: string) => void;
}

export function commitSubject(task: string): string {
  const first =
    task
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? 'agent changes';
  const subject = `agent: ${first}`;
  return subject.length > 72 ? `${subject.slice(0, 71)}…` : subject;
}

function coAuthor(requester: DeliverOptions['requester']): Identity[] {
  if (!requester) return [];
  const email = requester.id
    ? `${requester.id}+${requester.login}@users.noreply.github.com`
    : `${requester.login}@users.noreply.github.com`;
  return [{ name: requester.login, email }];
}

/** The branch name for new work; never one that exists on the remote already. */
export async function newBranchName(repo: Repo, prefix: string, issueNumber: number | null, task: string, runId: string): Promise<string> {
  const base = issueNumber !== null ? `${prefix}issue-${issueNumber}-${slugify(task, 30)}`.replace(/-+$/, '') : `${prefix}run-${runId}`;
  const name = await repo.uniqueBranchName(base);
  if (!(await repo.isValidBranchName(name))) throw new Error(`refusing to create branch "${name}": not a valid branch name`);
  return name;
}

function commitAt(o: DeliverOptions, sha: string): { sha: string; url: string } {
  return { sha, url: `${o.serverUrl}/${o.owner}/${o.name}/commit/${sha}` };
}

function leftOutNote(leftOut: readonly LeftOut[]): string[] {
  if (leftOut.length === 0) return [];
  const named = leftOut.map((f) => `\`${f.path}\` (${f.reason})`).join(', ');
  return [`Left out of the commit and the diff because they hold credentials: ${named}. They stay in the workspace only.`];
}

/** Commits what the run changed and pushes it where pushing is allowed; opens the pull request. */
export async function deliver(o: DeliverOptions): Promise<Delivery> {
  const all = await o.repo.changedFiles();
  // Credentials files an auth step left in the workspace (or the model wrote) never leave it.
  const leftOut = all.length > 0 && o.leaveOut ? await o.leaveOut(all) : [];
  const secret = new Set(leftOut.map((f) => f.path));
  const changedFiles = all.filter((f) => !secret.has(f));
  const notes = leftOutNote(leftOut);
  // No changed file, no diff: the six git commands that would say so are not run.
  if (changedFiles.length === 0)
    return {
      changedFiles,
      diff: '',
      diffStat: '',
      pushed: false,
      note: [...notes, 'No files were changed, so nothing was committed.'].join(' '),
    };
  // The one scan above says what changed: the diff, the workflow check and the commit stage only those paths.
  const { diff, stat } = await o.repo.diffAndStat({ exclude: [...secret], paths: changedFiles });
  const base: Delivery = { changedFiles, diff, diffStat: stat, pushed: false };
  if (o.plan.kind === 'fork') {
    notes.push('This pull request comes from a fork: nothing was pushed. The diff below can be applied with `git apply`.');
    return { ...base, note: notes.join(' ') };
  }
  const branch = o.plan.branch;
  const allowed =
    o.plan.kind === 'pull' ? branch === o.plan.branch : branch.startsWith(o.branchPrefix) && branch.length > o.branchPrefix.length;
  if (!allowed)
    throw new Error(`refusing to push to ${branch}: only the pull request's branch or new ${o.branchPrefix}* branches are pushed`);
  // A token rarely may push workflow files, and a prompt-injected run must not rewrite CI: hold them back unless allowed.
  const held = o.allowWorkflowChanges ? [] : workflowFiles(changedFiles);
  if (held.length > 0) {
    notes.push(
      `Changes to workflow files were not pushed (allow-workflow-changes is off): ${held.map((f) => `\`${f}\``).join(', ')}. They are in the diff below.`,
    );
  }
  if (o.plan.kind === 'new-branch') await o.repo.createBranch(branch);
  const message = o.redact(`${commitSubject(o.task)}\n\nRequested in ${o.requestUrl}`);
  const sha = await o.repo.commitAll(message, {
    committer: o.committer ?? BOT_IDENTITY,
    author: o.committer ?? BOT_IDENTITY,
    coAuthors: coAuthor(o.requester),
    exclude: [...held, ...secret],
    paths: changedFiles,
  });
  if (!sha) return { ...base, note: [...notes, 'Nothing was committed.'].join(' ') };
  const fresh = o.plan.kind === 'new-branch';
  const pushed = o.commitSigning
    ? await (await import('./signed-push.js')).pushSigned({ ...o, fresh }, branch, sha)
    : await pushWork({ ...o, fresh }, branch, sha);
  // No `commit` then: the commit exists only in this workspace, so nothing may name it as delivered.
  if ('failed' in pushed) return { ...base, branch, note: [...notes, pushed.failed].join(' '), undelivered: [pushed.undelivered] };
  if (pushed.note) notes.push(pushed.note);
  const commit = commitAt(o, pushed.sha);
  const delivered: Delivery = {
    ...base,
    branch: pushed.branch,
    commit,
    pushed: true,
    ...(notes.length > 0 ? { note: notes.join(' ') } : {}),
  };
  if (o.plan.kind !== 'new-branch' || o.pullRequest === 'never') return delivered;
  const closes = o.plan.issueNumber !== null ? `\n\nCloses #${o.plan.issueNumber}` : '';
  try {
    const pr = await openPullRequest(o.gh, {
      owner: o.owner,
      repo: o.name,
      head: pushed.branch,
      base: o.plan.base,
      fresh: true,
      title: o.redact(commitSubject(o.task).replace(/^agent: /, '')),
      body: o.redact(`${o.summary}\n\nRequested in ${o.requestUrl}${closes}`),
      draft: o.pullRequest === 'draft',
    });
    return { ...delivered, pr };
  } catch (error) {
    // The branch is pushed; only the pull request is missing, and the run must not say it delivered one.
    const why = o.redact(error instanceof Error ? error.message : String(error));
    o.log(`opening the pull request failed: ${why}`);
    return { ...delivered, undelivered: [`the pull request for \`${pushed.branch}\`: ${why}`] };
  }
}
