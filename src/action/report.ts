import { ZERO_USAGE } from '../core/usage.js';
import type { FinalReport } from '../report/comment.js';
import type { Redactor } from '../secrets/redactor.js';
import { jobSummary } from '../report/summary.js';
import type { TaskResult } from '../session/run.js';
import type { Delivery } from './deliver.js';
import type { ActionIo, ActionOutcome } from './io.js';

type OutputName =
  | 'conclusion'
  | 'result'
  | 'branch'
  | 'commit-sha'
  | 'pr-url'
  | 'comment-url'
  | 'steps'
  | 'input-tokens'
  | 'output-tokens'
  | 'cache-read-tokens'
  | 'cost-usd'
  | 'transcript'
  | 'verified'
  | 'review-url'
  | 'review-comments'
  | 'undelivered'
  | 'structured-output';
export type Outputs = Partial<Record<OutputName, string>>;

/** Sets the step's outputs, each redacted: outputs are visible to every later step. */
export function setOutputs(io: ActionIo, redactor: Redactor, outputs: Outputs): void {
  for (const [name, value] of Object.entries(outputs)) io.setOutput(name, redactor.redact(value ?? ''));
}

/**
 * How the run ended once its delivery is known: work it made that did not reach GitHub makes it
 * `undelivered`, whatever the loop said, except for a cancelled run (the cancel is why).
 */
export function concluded(result: Pick<TaskResult, 'conclusion' | 'reason'>, undelivered: string[]): ActionOutcome {
  if (undelivered.length === 0 || result.conclusion === 'cancelled') return { conclusion: result.conclusion, reason: result.reason };
  const loop = result.conclusion === 'success' ? '' : ` (the run itself ended ${result.conclusion}: ${result.reason})`;
  return { conclusion: 'undelivered', reason: `not delivered to GitHub: ${undelivered.join('; ')}${loop}` };
}

/** The run as the final comment and the job summary show it. */
export function finalReport(
  result: TaskResult,
  delivery: Delivery,
  o: { runUrl: string; startedAt: number; notes: string[]; refused?: FinalReport['refused']; verify?: string },
): FinalReport {
  return {
    ...concluded(result, delivery.undelivered ?? []),
    result: result.result,
    runUrl: o.runUrl,
    steps: result.steps,
    usage: result.usage,
    costUsd: result.costUsd,
    durationMs: Date.now() - o.startedAt,
    diff: delivery.diff,
    diffStat: delivery.diffStat,
    changedFiles: delivery.changedFiles,
    pushed: delivery.pushed,
    ...(delivery.commit ? { commit: delivery.commit } : {}),
    ...(delivery.pr ? { pr: { url: delivery.pr.url, number: delivery.pr.number } } : {}),
    ...(delivery.branch ? { branch: delivery.branch } : {}),
    ...(o.notes.length > 0 ? { note: o.notes.join(' ') } : {}),
    ...(o.refused && o.refused.count > 0 ? { refused: o.refused } : {}),
    ...(delivery.review ? { review: delivery.review } : {}),
    ...(result.verified !== null && o.verify ? { verified: { command: o.verify, passed: result.verified } } : {}),
  };
}

/** A run that failed before it could report anything else. */
export function failedReport(message: string, runUrl: string, startedAt: number): FinalReport {
  const nothing = { diff: '', diffStat: '', changedFiles: [], pushed: false };
  return {
    conclusion: 'error',
    reason: message,
    result: '',
    runUrl,
    steps: 0,
    usage: ZERO_USAGE,
    costUsd: 0,
    durationMs: Date.now() - startedAt,
    ...nothing,
  };
}

export interface Published {
  commentUrl: string;
  transcript: string;
  /** Who asked, for the summary: "comment by @octocat". */
  trigger: string;
  /** Everything that did not reach GitHub, the final comment included. */
  undelivered: string[];
}

/**
 * The job summary and the outputs, with the conclusion the delivery decided. The addresses name
 * only what exists on GitHub: no commit that was not pushed.
 */
export async function publish(
  io: ActionIo,
  redactor: Redactor,
  report: FinalReport,
  result: TaskResult,
  delivery: Delivery,
  p: Published,
): Promise<ActionOutcome> {
  const outcome = concluded(result, p.undelivered);
  const summary = jobSummary({ ...report, ...outcome, trigger: p.trigger, undelivered: p.undelivered, commentUrl: p.commentUrl });
  // The summary goes out even when GitHub is unreachable: it is the one place the final text and the diff are sure to be.
  await io.summary(redactor.redact(summary)).catch((e: unknown) => io.warning(`the job summary could not be written: ${String(e)}`));
  setOutputs(io, redactor, {
    conclusion: outcome.conclusion,
    result: result.result,
    branch: delivery.pushed ? (delivery.branch ?? '') : '',
    'commit-sha': delivery.pushed ? (delivery.commit?.sha ?? '') : '',
    'pr-url': delivery.pr?.url ?? '',
    'comment-url': p.commentUrl,
    steps: String(result.steps),
    'input-tokens': String(result.usage.input_tokens),
    'output-tokens': String(result.usage.output_tokens),
    'cache-read-tokens': String(result.usage.cache_read_input_tokens),
    'cost-usd': result.costUsd.toFixed(6),
    transcript: p.transcript,
    verified: result.verified === null ? '' : String(result.verified),
    'review-url': delivery.review?.url ?? '',
    'review-comments': delivery.review ? String(delivery.review.comments) : '',
    undelivered: p.undelivered.join('\n'),
    'structured-output': result.structuredOutput === undefined ? '' : JSON.stringify(result.structuredOutput),
  });
  return outcome;
}
