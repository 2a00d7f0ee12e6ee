import type { GitHub } from '../../github/client.js';
import type { WriterIdentity } from '../../github/identity.js';
import type { PullContext } from '../../github/context.js';
import { readRepoFile } from '../../github/repo.js';
import { earlierReviews, postReview } from '../../github/reviews.js';
import type { Trigger } from '../../github/trigger.js';
import { reviewPrompt, type ReviewPromptInput } from '../../prompt/review.js';
import type { Redactor } from '../../secrets/redactor.js';
import { diffFileFromPullFile, Findings, reviewCommentTool, withReviewComment, type DiffFile } from '../../review/index.js';
import type { Delivery } from '../deliver.js';
import type { ActionIo } from '../io.js';
import { whereNote } from '../plan.js';
import type { ActionSettings } from '../inputs.js';
import type { Mode, Work } from './mode.js';
import { reviewTools } from './review-tools.js';

export interface ReviewInput {
  settings: ActionSettings;
  trigger: Trigger;
  gh: GitHub;
  /** Who the action writes as: only its own earlier reviews count (see earlierReviews). */
  identity: WriterIdentity;
  owner: string;
  name: string;
  io: ActionIo;
  redactor: Redactor;
  /** The workspace root, for the paths the model names. */
  workspace: string;
}

/** The repository's own review instructions, as Claude Code's `/review` command would use them. */
const REVIEW_COMMAND = '.claude/commands/review.md';
/** The diff since the last review is in the task up to this size; the model reads the rest with tools. */
const INCREMENTAL_DIFF_CHARS = 60_000;

interface Prepared {
  pull: PullContext;
  head: string;
  root: string;
  files: DiffFile[];
  findings: Findings;
  prompt: ReviewPromptInput;
}

/** Everything the review needs once the pull request is checked out: its diff, the earlier reviews, the instructions. */
async function prepare(o: ReviewInput, pull: PullContext, work: Work): Promise<Prepared> {
  const where = { owner: o.owner, repo: o.name };
  // The files were listed once with the pull request (see context.ts): their patches give the review's line ranges.
  const [earlier, instructions, head] = await Promise.all([
    earlierReviews(o.gh, { ...where, pullNumber: pull.number }, o.identity),
    readRepoFile(o.gh, where, REVIEW_COMMAND, pull.baseRef),
    work.git.repo.headSha(),
  ]);
  const prompt: ReviewPromptInput = { focus: o.trigger.task, earlier: earlier.comments };
  if (instructions) prompt.instructions = { path: REVIEW_COMMAND, content: instructions };
  // Only what was pushed since the last review, when that review's head is still in the history.
  const last = earlier.reviews.at(-1);
  if (last && last.head !== head && (await work.git.netRepo.reaches(last.head))) {
    prompt.incremental = { from: last.head, to: head, diff: await work.git.repo.diffSince(last.head, INCREMENTAL_DIFF_CHARS) };
  }
  return { pull, head, root: o.workspace, files: pull.files.map(diffFileFromPullFile), findings: new Findings(earlier.comments), prompt };
}

function reviewBody(summary: string, findings: Findings): string {
  const text = summary.trim() === '' ? '_(no summary)_' : summary.trim();
  return findings.size === 0 ? `**No issues found.**\n\n${text}` : text;
}

/** The agent reviews a pull request: read-only tools and ReviewComment in, one pull request review out. */
export function reviewMode(o: ReviewInput): Mode {
  let state: Prepared | undefined;
  const ready = (): Prepared => {
    if (!state) throw new Error('the review was not prepared before it ran');
    return state;
  };
  return {
    name: 'review',
    allow: ['ReviewComment'],
    async prepare(context, work) {
      if (!context.pull) throw new Error('a review needs a pull request');
      state = await prepare(o, context.pull, work);
    },
    tools(base) {
      const s = ready();
      return withReviewComment(reviewTools(base, { bash: !s.pull.isFork }), reviewCommentTool(s.files, s.findings, s.root));
    },
    prompt: (context, plan) => reviewPrompt(context, whereNote(plan), ready().prompt),
    async deliver(result): Promise<Delivery> {
      const s = ready();
      const nothing: Delivery = { changedFiles: [], diff: '', diffStat: '', pushed: false };
      if (result.conclusion !== 'success' && s.findings.size === 0)
        return { ...nothing, note: 'No review was posted: the run ended before the review was done.' };
      const event = o.settings.reviewEvent === 'auto' && s.findings.hasBlocking() ? 'REQUEST_CHANGES' : 'COMMENT';
      const where = { owner: o.owner, repo: o.name, pullNumber: s.pull.number };
      const review = { commitId: s.head, body: reviewBody(result.result, s.findings), event, findings: s.findings.list() } as const;
      const redact = (t: string) => o.redactor.redact(t);
      try {
        const posted = await postReview(o.gh, where, review, { redact, log: (m: string) => o.io.warning(redact(m)), identity: o.identity });
        const bySeverity = s.findings.bySeverity();
        return { ...nothing, review: { url: posted.url, comments: posted.posted.length, folded: posted.folded.length, bySeverity } };
      } catch (error) {
        // The findings are not lost: the tracking comment says the review could not be posted, and why.
        const why = redact(error instanceof Error ? error.message : String(error));
        o.io.warning(`posting the review failed: ${why}`);
        const undelivered = [`the review (${s.findings.size} findings): ${why}`];
        return { ...nothing, note: `Posting the review failed (${s.findings.size} findings): ${why}`, undelivered };
      }
    },
  };
}
