import { findPhrase } from '../untrusted/prose.js';
import type { Actor, GitHubEvent, IssueRef } from './event.js';
import { sameLogin } from './identity.js';
import { TRACKING_MARKER } from '../core/markers.js';

/**
 * Whether an event asks for a run, and what it asks. Who may ask is decided elsewhere
 * (permissions.ts): this module only reads the event.
 */

export interface TriggerSettings {
  triggerPhrase: string;
  labelTrigger: string;
  assigneeTrigger: string;
  prompt: string;
}

export type Target = { type: 'issue'; number: number } | { type: 'pull'; number: number } | { type: 'repo' };

export interface Trigger {
  source: 'comment' | 'review-comment' | 'review' | 'issue-body' | 'label' | 'assignee' | 'prompt' | 'pull-request';
  /** What the run does: change the code, or review a pull request (no commit, no push). */
  mode?: 'review';
  /**
   * What was asked: the text after the phrase (the whole text when the phrase is mid-text; '' for
   * a bare phrase), the prompt input, or the issue's title and body for a label or assignee.
   * Raw from the payload: sanitize before it reaches a model.
   */
  task: string;
  requester: Actor | null;
  target: Target;
  /** The issue comment that asked (react to it); absent for other sources. */
  commentId?: number;
  /** The pull request review comment that asked; its thread is `inReplyToId ?? id` of the event's comment. */
  reviewCommentId?: number;
  /** When the asking text was last as the requester saw it: later comments are left out. */
  triggerTime?: string;
}

export type TriggerDecision = { run: true; trigger: Trigger } | { run: false; reason: string };

type EventOf<K extends GitHubEvent['kind']> = Extract<GitHubEvent, { kind: K }>;

/**
 * `writer` is who the action writes as (see identity.ts): a text carrying the action's marker is
 * the action's own, and never answered, when that identity wrote it, or when the identity is not
 * known (undefined or null: then a marked text is skipped, so that the action never answers
 * itself). Someone else's text with a copied marker is read like any other.
 */
export function findTrigger(event: GitHubEvent, settings: TriggerSettings, writer?: string | null): TriggerDecision {
  const marked = markedBy(event);
  if (marked !== null && (writer === undefined || writer === null || sameLogin(marked, writer))) {
    return skip(`the text carries the action's tracking marker and ${marked} wrote it: it is the action's own comment`);
  }
  const prompt = settings.prompt.trim();
  if (prompt !== '') return run(promptTrigger(event, prompt));
  const phrase = settings.triggerPhrase;
  switch (event.kind) {
    case 'issue_comment':
      return commentTrigger(event, phrase);
    case 'pull_request_review_comment':
      return reviewCommentTrigger(event, phrase);
    case 'pull_request_review':
      return reviewTrigger(event, phrase);
    case 'issues':
      return issuesTrigger(event, settings);
    case 'pull_request':
      return skip('pull_request events start a run only with a prompt');
    case 'automation':
      return skip(`${event.name} events start a run only with a prompt`);
    case 'other':
      return skip(`event ${event.name} is not handled`);
  }
}

function run(trigger: Trigger): TriggerDecision {
  return { run: true, trigger };
}

function skip(reason: string): TriggerDecision {
  return { run: false, reason };
}

/** The text the event is about and its author, when the action could have written it itself. */
function ownText(event: GitHubEvent): { text: string; author: string } | null {
  switch (event.kind) {
    case 'issue_comment':
    case 'pull_request_review_comment':
      return { text: event.comment.body, author: event.comment.user.login };
    case 'pull_request_review':
      return { text: event.review.body, author: event.review.user.login };
    case 'issues':
      return event.action === 'opened' ? { text: event.issue.body, author: event.issue.user.login } : null;
    default:
      return null;
  }
}

/** Who wrote the event's text, when it carries the action's tracking marker; null otherwise. */
export function markedBy(event: GitHubEvent): string | null {
  const own = ownText(event);
  return own !== null && own.text.includes(TRACKING_MARKER) ? own.author : null;
}

function targetOf(event: GitHubEvent): Target {
  switch (event.kind) {
    case 'issue_comment':
      return { type: event.issue.isPullRequest ? 'pull' : 'issue', number: event.issue.number };
    case 'issues':
      return { type: 'issue', number: event.issue.number };
    case 'pull_request_review_comment':
    case 'pull_request_review':
    case 'pull_request':
      return { type: 'pull', number: event.pull.number };
    default:
      return { type: 'repo' };
  }
}

/** The moment the event's item was last changed; what came later was not seen by whoever asked. */
function eventTime(event: GitHubEvent): string {
  switch (event.kind) {
    case 'issue_comment':
    case 'pull_request_review_comment':
      return event.comment.updatedAt;
    case 'pull_request_review':
      return event.review.submittedAt || event.pull.updatedAt;
    case 'issues':
      return event.issue.updatedAt;
    case 'pull_request':
      return event.pull.updatedAt;
    default:
      return '';
  }
}

/** Spreads to nothing for an unknown time: an empty string would cut every comment. */
function timeField(time: string): { triggerTime?: string } {
  return time === '' ? {} : { triggerTime: time };
}

function promptTrigger(event: GitHubEvent, prompt: string): Trigger {
  return { source: 'prompt', task: prompt, requester: event.sender, target: targetOf(event), ...timeField(eventTime(event)) };
}

function onlyNewComments(action: string): TriggerDecision | null {
  return action === 'created' ? null : skip(`the comment was ${action}; only new comments start a run`);
}

function commentTrigger(event: EventOf<'issue_comment'>, phrase: string): TriggerDecision {
  const { comment } = event;
  const refused = onlyNewComments(event.action);
  if (refused) return refused;
  if (!containsTriggerPhrase(comment.body, phrase)) return skip('no trigger phrase in the comment');
  return run({
    source: 'comment',
    task: taskAfterPhrase(comment.body, phrase),
    requester: comment.user,
    target: targetOf(event),
    commentId: comment.id,
    ...timeField(comment.createdAt),
  });
}

function reviewCommentTrigger(event: EventOf<'pull_request_review_comment'>, phrase: string): TriggerDecision {
  const { comment } = event;
  const refused = onlyNewComments(event.action);
  if (refused) return refused;
  if (!containsTriggerPhrase(comment.body, phrase)) return skip('no trigger phrase in the review comment');
  return run({
    source: 'review-comment',
    task: taskAfterPhrase(comment.body, phrase),
    requester: comment.user,
    target: targetOf(event),
    reviewCommentId: comment.id,
    ...timeField(comment.createdAt),
  });
}

function reviewTrigger(event: EventOf<'pull_request_review'>, phrase: string): TriggerDecision {
  const { review } = event;
  if (event.action !== 'submitted') return skip(`the review was ${event.action}; only submitted reviews start a run`);
  if (!containsTriggerPhrase(review.body, phrase)) return skip('no trigger phrase in the review');
  return run({
    source: 'review',
    task: taskAfterPhrase(review.body, phrase),
    requester: review.user,
    target: targetOf(event),
    ...timeField(review.submittedAt),
  });
}

function issuesTrigger(event: EventOf<'issues'>, settings: TriggerSettings): TriggerDecision {
  switch (event.action) {
    case 'opened':
      return openedTrigger(event, settings.triggerPhrase);
    case 'labeled':
      return labeledTrigger(event, settings.labelTrigger);
    case 'assigned':
      return assignedTrigger(event, settings.assigneeTrigger);
    default:
      return skip(`issues ${event.action} does not start a run`);
  }
}

function openedTrigger(event: EventOf<'issues'>, phrase: string): TriggerDecision {
  const { issue } = event;
  const asking = [issue.body, issue.title].find((text) => containsTriggerPhrase(text, phrase));
  if (asking === undefined) return skip('no trigger phrase in the issue title or body');
  // A bare phrase asks for what the issue itself says.
  const task = taskAfterPhrase(asking, phrase) || issueTask(issue);
  return run({ source: 'issue-body', task, requester: issue.user, target: targetOf(event), ...timeField(issue.updatedAt) });
}

function labeledTrigger(event: EventOf<'issues'>, labelTrigger: string): TriggerDecision {
  const wanted = labelTrigger.trim();
  if (wanted === '') return skip('label-trigger is not set');
  // GitHub label names are unique regardless of case.
  if (event.label?.toLowerCase() !== wanted.toLowerCase()) {
    return skip(`label "${event.label ?? ''}" is not the label trigger "${wanted}"`);
  }
  return issueTrigger(event, 'label');
}

function assignedTrigger(event: EventOf<'issues'>, assigneeTrigger: string): TriggerDecision {
  const wanted = assigneeTrigger.trim().replace(/^@/, '');
  if (wanted === '') return skip('assignee-trigger is not set');
  // Logins are case-insensitive.
  if (event.assignee?.toLowerCase() !== wanted.toLowerCase()) {
    return skip(`assignee @${event.assignee ?? ''} is not the assignee trigger @${wanted}`);
  }
  return issueTrigger(event, 'assignee');
}

/** The person who added the label or assignee is the one asking. */
function issueTrigger(event: EventOf<'issues'>, source: 'label' | 'assignee'): TriggerDecision {
  const { issue } = event;
  return run({ source, task: issueTask(issue), requester: event.sender, target: targetOf(event), ...timeField(issue.updatedAt) });
}

function issueTask(issue: IssueRef): string {
  return `${issue.title}\n\n${issue.body}`.trim();
}

// ---------------------------------------------------------------------------------------------
// The phrase as a word

export function containsTriggerPhrase(text: string, phrase: string): boolean {
  return findPhrase(text, phrase) !== null;
}

/**
 * The request that follows the phrase. When something precedes the phrase ("please /agent"), the
 * whole text is the request, since the words before it are part of what was asked.
 */
export function taskAfterPhrase(text: string, phrase: string): string {
  const found = findPhrase(text, phrase);
  if (!found || text.slice(0, found.start).trim() !== '') return text.trim();
  return text
    .slice(found.end)
    .replace(/^[ \t]*[:,\u2013\u2014-](?=\s|$)/, '')
    .trim();
}
