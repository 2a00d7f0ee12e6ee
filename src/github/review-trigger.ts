import type { GitHubEvent } from './event.js';
import { findTrigger, type Trigger, type TriggerDecision, type TriggerSettings } from './trigger.js';

export interface ReviewTriggerSettings extends TriggerSettings {
  /** `auto`: phrases only (`/agent review` asks for a review); `review`: pull request events review too. */
  mode: 'auto' | 'review';
  reviewDrafts: boolean;
}

/** The pull request events a review answers: new code to look at, or a pull request ready again. */
const REVIEW_ACTIONS = ['opened', 'synchronize', 'reopened', 'ready_for_review'];

/** `review`, then the focus: `/agent review the error handling` reviews with that focus. */
const REVIEW_REQUEST = /^review(?:$|[\s:,]+)([\s\S]*)$/i;

/**
 * Whether the event asks for a run and of which kind: in `mode: review` a pull request event is a
 * review request by itself; on a pull request, a phrase followed by `review` asks for one too.
 * `writer` is who the action writes as (see findTrigger).
 */
export function findRunTrigger(event: GitHubEvent, settings: ReviewTriggerSettings, writer?: string | null): TriggerDecision {
  if (event.kind === 'pull_request' && settings.mode === 'review' && settings.prompt.trim() === '') {
    return pullRequestReview(event, settings);
  }
  const decision = findTrigger(event, settings, writer);
  if (!decision.run || decision.trigger.target.type !== 'pull' || decision.trigger.source === 'prompt') return decision;
  const asked = REVIEW_REQUEST.exec(decision.trigger.task);
  if (!asked) return decision;
  return { run: true, trigger: { ...decision.trigger, mode: 'review', task: (asked[1] ?? '').trim() } };
}

function pullRequestReview(event: Extract<GitHubEvent, { kind: 'pull_request' }>, settings: ReviewTriggerSettings): TriggerDecision {
  const { pull } = event;
  if (!REVIEW_ACTIONS.includes(event.action)) {
    return { run: false, reason: `pull request ${event.action} does not start a review (${REVIEW_ACTIONS.join(', ')} do)` };
  }
  if (pull.draft && !settings.reviewDrafts)
    return { run: false, reason: 'the pull request is a draft (set review-drafts: true to review drafts)' };
  const trigger: Trigger = {
    source: 'pull-request',
    mode: 'review',
    task: '',
    // Whoever opened the pull request asked for its review; who may is decided by review-authors.
    requester: pull.user,
    target: { type: 'pull', number: pull.number },
    ...(pull.updatedAt ? { triggerTime: pull.updatedAt } : {}),
  };
  return { run: true, trigger };
}
