import { REVIEW_TRACKING_MARKER } from '../core/markers.js';
import type { JobInput } from './job-input.js';
import { implementMode } from './modes/implement.js';
import type { Mode } from './modes/mode.js';
import { reviewMode } from './modes/review.js';
import { requestUrl } from './runner.js';
import { Tracking } from './tracking.js';
import { credentialName } from './access.js';

function where(j: JobInput) {
  const [owner, name] = j.runner.GITHUB_REPOSITORY.split('/') as [string, string];
  return { gh: j.gh, owner, name, identity: j.identity };
}

/** The run's tracking comment: in mode review one per pull request follows every push; otherwise one per run (or thread, when sticky). */
export function jobTracking(j: JobInput, runUrl: string): Tracking {
  const { event, trigger, io, redactor, runner, startedAt, early } = j;
  return new Tracking({
    ...where(j),
    event,
    trigger,
    io,
    redactor,
    runId: runner.GITHUB_RUN_ID,
    runUrl,
    startedAt,
    ...(early.comments ? { comments: early.comments } : {}),
    ...(j.settings.mode === 'review' && trigger.mode === 'review' ? { marker: REVIEW_TRACKING_MARKER } : {}),
    sticky: j.settings.stickyComment && trigger.source !== 'review-comment',
    credential: credentialName(j.settings),
  });
}

/** What the run does with the loop's tools, prompt and result: a review, or an implementation delivered as a push or a pull request. */
export function jobMode(j: JobInput, runUrl: string): Mode {
  const { trigger, io, redactor, runner } = j;
  const modeInput = { ...where(j), settings: j.settings, trigger, io, redactor, credentials: j.credentials };
  if (trigger.mode === 'review') return reviewMode({ ...modeInput, workspace: runner.GITHUB_WORKSPACE });
  return implementMode({
    ...modeInput,
    serverUrl: runner.GITHUB_SERVER_URL,
    requestUrl: requestUrl(j, runUrl),
    ...(j.committer ? { committer: j.committer } : {}),
  });
}
