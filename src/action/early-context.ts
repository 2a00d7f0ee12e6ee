import type { GitHub } from '../github/client.js';
import { listIssueComments, type IssueComment } from '../github/comments.js';
import { gatherContext, type PullContext, type TaskContext } from '../github/context.js';
import type { GitHubEvent } from '../github/event.js';
import { repoRef } from '../github/repo.js';
import type { Trigger } from '../github/trigger.js';

/**
 * The context, read while the requester's permission is still being checked: nothing is sent or
 * written before that check passes, but the reads need not wait for it.
 */
export class EarlyContext {
  readonly context: Promise<TaskContext>;
  /** The thread's comments, read once for the context and for finding a re-run's tracking comment. */
  readonly comments: Promise<IssueComment[]> | undefined;
  private pull: PullContext | undefined;
  private listener: ((pull: PullContext) => void) | undefined;

  constructor(gh: GitHub, event: GitHubEvent, trigger: Trigger, owner: string, name: string) {
    const comments = trigger.target.type === 'repo' ? undefined : listIssueComments(gh, owner, name, trigger.target.number);
    // Awaited later (or never, when the run is refused): a failure here must not crash the process.
    comments?.catch(() => undefined);
    this.comments = comments;
    const onPull = (pull: PullContext) => {
      this.pull = pull;
      this.listener?.(pull);
    };
    this.context = repoRef(gh, event, owner, name).then((repo) =>
      gatherContext(gh, event, repo, trigger, { onPull, ...(comments ? { comments } : {}) }),
    );
    this.context.catch(() => undefined);
  }

  /** Calls back with the pull request once known (at once if it already is). */
  onPull(listener: (pull: PullContext) => void): void {
    this.listener = listener;
    if (this.pull) listener(this.pull);
  }
}
