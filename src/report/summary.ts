import {
  closeOpenFence,
  cutText,
  cutToLines,
  diffSummary,
  fencedBlock,
  inline,
  refusedLine,
  verifiedLine,
  type FinalReport,
} from './comment.js';
import { formatCount as count, formatDuration, formatUsd } from './format.js';

/** GitHub accepts 1 MiB per step summary; this leaves room for the table and notes. */
export const SUMMARY_LIMIT = 1_000_000;

export type SummaryReport = FinalReport & {
  trigger: string;
  /** What did not reach GitHub, one entry each; the summary is then the one place the work is told. */
  undelivered?: string[];
  /** The tracking comment, when one exists on GitHub. */
  commentUrl?: string;
};

/** A table cell holds one line, and a `|` would end the cell early. */
function cell(text: string): string {
  return inline(text, 500).replace(/\|/g, '\\|');
}

function conclusionCell(r: SummaryReport): string {
  const icon = r.conclusion === 'success' ? '✅' : '⚠️';
  const reason = r.reason.trim() === '' ? '' : `: ${cell(r.reason)}`;
  return `${icon} \`${cell(r.conclusion)}\`${reason}`;
}

function rows(r: SummaryReport): [string, string][] {
  const u = r.usage;
  const out: [string, string][] = [
    ['Trigger', cell(r.trigger)],
    ['Conclusion', conclusionCell(r)],
    ['Steps', count(r.steps)],
    [
      'Tokens',
      `${count(u.input_tokens)} uncached input · ${count(u.output_tokens)} output · ${count(u.cache_read_input_tokens)} cache read · ${count(u.cache_creation_input_tokens)} cache write`,
    ],
    ['Cost', formatUsd(r.costUsd)],
    ['Time', formatDuration(r.durationMs)],
    ['Files changed', count(r.changedFiles.length)],
  ];
  if (r.commit) out.push(['Commit', `[\`${r.commit.sha.slice(0, 7)}\`](${r.commit.url})`]);
  if (r.branch) out.push(['Branch', `\`${cell(r.branch)}\`${r.pushed ? '' : ' (not pushed)'}`]);
  if (r.pr) out.push(['Pull request', `[#${r.pr.number}](${r.pr.url})`]);
  out.push(['Run', `[View run](${r.runUrl})`]);
  return out;
}

function table(r: SummaryReport): string {
  return ['| | |', '| --- | --- |', ...rows(r).map(([k, v]) => `| ${k} | ${v} |`)].join('\n');
}

/** Enough to see what a run touched; a vendored tree of 100k files would crowd out the diff. */
const MAX_LISTED_FILES = 1000;

function filesList(files: string[]): string | null {
  if (files.length === 0) return null;
  const listed = files.slice(0, MAX_LISTED_FILES).map((f) => `- \`${cell(f)}\``);
  if (files.length > MAX_LISTED_FILES) listed.push(`- … and ${count(files.length - MAX_LISTED_FILES)} more`);
  const items = listed.join('\n');
  return `<details>\n<summary>${count(files.length)} changed file${files.length === 1 ? '' : 's'}</summary>\n\n${items}\n\n</details>`;
}

function diffPart(r: SummaryReport, diff: string, cut: { shown: number; total: number } | null): string | null {
  if (r.diff.trim() === '') return null;
  const note = cut ? `\n\n_✂️ Diff cut to fit the job summary: ${count(cut.shown)} of ${count(cut.total)} lines shown._` : '';
  return `### Diff (${inline(diffSummary(r))})\n\n${fencedBlock(diff, 'diff')}${note}`;
}

/** What reached GitHub and what did not, so that a reader knows where to look for the work. */
function deliveryPart(r: SummaryReport): string {
  const done: string[] = [];
  if (r.commit && r.pushed)
    done.push(`- ✅ Commit [\`${r.commit.sha.slice(0, 7)}\`](${r.commit.url}) pushed to \`${cell(r.branch ?? '')}\``);
  if (r.pr) done.push(`- ✅ Pull request [#${r.pr.number}](${r.pr.url})`);
  if (r.review) done.push(`- ✅ [Review](${r.review.url}) with ${count(r.review.comments)} comments`);
  if (r.commentUrl) done.push(`- ✅ [Tracking comment](${r.commentUrl})`);
  const missing = (r.undelivered ?? []).map((u) => `- ❌ Not delivered: ${inline(u, 1000)}`);
  if (missing.length > 0 && r.commit && !r.pushed) {
    missing.push(`- The commit \`${r.commit.sha.slice(0, 7)}\` is in the runner's workspace; the diff below holds the same changes.`);
  }
  const lines = [...done, ...missing];
  return `### Delivery\n\n${lines.length > 0 ? lines.join('\n') : '_Nothing to deliver._'}`;
}

function render(r: SummaryReport, text: string, diff: string | null): string {
  const parts = [`## agent-action: ${r.conclusion === 'success' ? '✅' : '⚠️'} ${inline(r.conclusion, 40)}`, table(r)];
  if (r.note) parts.push(`> **Note:** ${inline(r.note, 1000)}`);
  const refused = refusedLine(r);
  if (refused) parts.push(refused);
  const verified = verifiedLine(r);
  if (verified) parts.push(verified);
  parts.push(deliveryPart(r), '### Result', text);
  const files = filesList(r.changedFiles);
  if (files) parts.push(files);
  if (diff) parts.push(diff);
  return `${parts.join('\n\n')}\n`;
}

function fitDiff(r: SummaryReport, text: string): string | null {
  const whole = diffPart(r, r.diff, null);
  if (render(r, text, whole).length <= SUMMARY_LIMIT) return whole;
  let budget = SUMMARY_LIMIT - render(r, text, diffPart(r, '', { shown: 0, total: 0 })).length - 64;
  for (let attempt = 0; attempt < 4; attempt += 1) {
    const kept = cutToLines(r.diff, Math.max(0, budget));
    const part = diffPart(r, kept.text, kept);
    const over = render(r, text, part).length - SUMMARY_LIMIT;
    if (over <= 0) return part;
    budget -= over;
  }
  return null;
}

export function jobSummary(r: SummaryReport): string {
  const text = r.result.trim() === '' ? '_(no final text)_' : closeOpenFence(r.result.trim());
  const full = render(r, text, fitDiff(r, text));
  if (full.length <= SUMMARY_LIMIT) return full;
  const note = '\n\n_✂️ Text cut to fit the job summary._';
  const budget = SUMMARY_LIMIT - render(r, '', null).length - note.length - 64;
  const fitted = render(r, `${closeOpenFence(cutText(text, budget))}${note}`, null);
  return fitted.length <= SUMMARY_LIMIT ? fitted : cutText(fitted, SUMMARY_LIMIT);
}
