import * as z from '../core/schema.js';
import {
  ActorSchema,
  IssueCommentPayload,
  IssuesPayload,
  PullRequestPayload,
  RepoSchema,
  ReviewCommentPayload,
  ReviewPayload,
} from './event-schemas.js';
import { AUTOMATION_EVENTS, type Actor, type AutomationEventName, type GitHubEvent, type RepoRef } from './event-types.js';

/**
 * The webhook payload of the run, read once into the few fields the action uses. The schemas are
 * loose (unknown fields pass) and double as type guards: a payload that does not fit its event's
 * schema becomes an 'other' event rather than an exception, so a surprising payload ends the run
 * as "not handled" instead of crashing it.
 */

export {
  AUTOMATION_EVENTS,
  type Actor,
  type ActorType,
  type AutomationEventName,
  type CommentRef,
  type GitHubEvent,
  type IssueRef,
  type PullRef,
  type RepoRef,
  type ReviewCommentRef,
  type ReviewRef,
} from './event-types.js';

/** Read one webhook payload; never throws. */
export function parseEvent(name: string, payload: unknown): GitHubEvent {
  return parseKnown(name, payload) ?? { kind: 'other', name, ...repoAndSender(payload) };
}

function parseKnown(name: string, payload: unknown): GitHubEvent | null {
  switch (name) {
    case 'issue_comment': {
      const p = IssueCommentPayload.safeParse(payload);
      return p.success ? { kind: name, ...common(p.data), issue: p.data.issue, comment: p.data.comment } : null;
    }
    case 'issues': {
      const p = IssuesPayload.safeParse(payload);
      if (!p.success) return null;
      const { label, assignee } = p.data;
      return {
        kind: name,
        ...common(p.data),
        issue: p.data.issue,
        ...(label ? { label: label.name } : {}),
        ...(assignee ? { assignee: assignee.login } : {}),
      };
    }
    case 'pull_request_review_comment': {
      const p = ReviewCommentPayload.safeParse(payload);
      return p.success ? { kind: name, ...common(p.data), pull: p.data.pull_request, comment: p.data.comment } : null;
    }
    case 'pull_request_review': {
      const p = ReviewPayload.safeParse(payload);
      return p.success ? { kind: name, ...common(p.data), pull: p.data.pull_request, review: p.data.review } : null;
    }
    case 'pull_request':
    case 'pull_request_target': {
      // Same payload; pull_request_target runs the base branch's workflow with the repository's secrets.
      const p = PullRequestPayload.safeParse(payload);
      return p.success ? { kind: 'pull_request', name, ...common(p.data), pull: p.data.pull_request } : null;
    }
    default:
      return isAutomation(name) ? { kind: 'automation', name, ...repoAndSender(payload) } : null;
  }
}

function common(data: { action: string; repository: RepoRef; sender: Actor }): {
  action: string;
  repo: RepoRef;
  sender: Actor;
} {
  return { action: data.action, repo: data.repository, sender: data.sender };
}

function isAutomation(name: string): name is AutomationEventName {
  return AUTOMATION_EVENTS.some((n) => n === name);
}

const Envelope = z.looseObject({ repository: z.unknown(), sender: z.unknown() });

/** Whatever of the repository and sender can be read; a schedule payload carries neither. */
function repoAndSender(payload: unknown): { repo: RepoRef | null; sender: Actor | null } {
  const envelope = Envelope.safeParse(payload);
  if (!envelope.success) return { repo: null, sender: null };
  const repo = RepoSchema.safeParse(envelope.data.repository);
  const sender = ActorSchema.safeParse(envelope.data.sender);
  return { repo: repo.success ? repo.data : null, sender: sender.success ? sender.data : null };
}
