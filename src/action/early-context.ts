import type { GitHub } from '../github/client.js';
import { listIssueComments, type IssueComment } from '../github/comments.js';
import { gatherContext, type PullContext, type TaskContext } from '../github/context.js';
import type { GitHubEvent } from '../github/event.js';
import type { WriterIdentity } from '../github/identity.js';
import { repoRef } from '../github/repo.js';
import type { Trigger } from '../github/trigger.js';
import { readRepoConfig, type RepoConfig } from './trusted-config.js';

/**
 * The context, read while the requester's permission is still being checked: nothing is sent or
 * written before that check passes, but the reads need not wait for it.
 */
export class EarlyContext {
  readonly context: Promise<TaskContext>;
  /** The thread's comments, read once for the context and for finding a re-run's tracking comment. */
  readonly comments: Promise<IssueComment[]> | undefined;
  /** The repository's own configuration, from the ref trusted for this trigger (see trusted-settings.ts). */
  readonly repoConfig: Promise<RepoConfig>;
  private pull: PullContext | undefined;
  private listener: ((pull: PullContext) => void) | undefined;

  constructor(gh: GitHub, event: GitHubEvent, trigger: Trigger, owner: string, name: string, identity?: WriterIdentity) {
    const comments = trigger.target.type === 'repo' ? undefined : listIssueComments(gh, owner, name, trigger.target.number);
    // Awaited later (or never, when the run is refused): a failure here must not crash the process.
    comments?.catch(() => undefined);
    this.comments = comments;
    const where = { owner, repo: name };
    const repo = repoRef(gh, event, owner, name);
    let base: Promise<RepoConfig> | undefined;
    // First, as the longest chain of requests (the pull request, its checks, their logs).
    this.context = repo.then((r) => {
      const onPull = (pull: PullContext) => {
        this.pull = pull;
        if (pull.baseRef !== r.defaultBranch) {
          base = readRepoConfig(gh, where, pull.baseRef, 'base branch');
          base.catch(() => undefined);
        }
        this.listener?.(pull);
      };
      return gatherContext(gh, event, r, trigger, { onPull, ...(comments ? { comments } : {}), ...(identity ? { identity } : {}) });
    });
    this.context.catch(() => undefined);
    // A pull request's configuration comes from its base branch, which is usually the default
    // branch: that is read at once, and the real base as soon as it turns out to differ.
    const isPull = trigger.target.type === 'pull';
    const guessed = repo.then((r) => readRepoConfig(gh, where, r.defaultBranch, isPull ? 'base branch' : 'default branch'));
    guessed.catch(() => undefined);
    this.repoConfig = this.context.then(() => base ?? guessed);
    this.repoConfig.catch(() => undefined);
  }

  /** Calls back with the pull request once known (at once if it already is). */
  onPull(listener: (pull: PullContext) => void): void {
    this.listener = listener;
    if (this.pull) listener(this.pull);
  }
}
