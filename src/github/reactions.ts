import type { GitHub } from './client.js';
import type { Trigger } from './trigger.js';

/**
 * 👀 on what asked for the run, so the requester sees at once that it was picked up: the review
 * comment or issue comment that asked, else the issue or pull request itself.
 */
export async function react(gh: GitHub, owner: string, repo: string, trigger: Trigger): Promise<void> {
  const content = 'eyes' as const;
  if (trigger.source === 'review-comment' && trigger.reviewCommentId !== undefined) {
    await gh.rest.reactions.createForPullRequestReviewComment({ owner, repo, comment_id: trigger.reviewCommentId, content });
  } else if (trigger.commentId !== undefined && trigger.source === 'comment') {
    await gh.rest.reactions.createForIssueComment({ owner, repo, comment_id: trigger.commentId, content });
  } else if (trigger.target.type !== 'repo') {
    await gh.rest.reactions.createForIssue({ owner, repo, issue_number: trigger.target.number, content });
  }
}
