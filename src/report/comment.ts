import type { Todo } from '../core/todo.js';
import type { Usage } from '../core/usage.js';
import { TRACKING_MARKER } from '../core/markers.js';
import { formatDuration, formatUsd, runFigures } from './format.js';

/** The one marker, shared with trigger detection so the action never answers its own comments. */
export { TRACKING_MARKER as MARKER };
/** GitHub rejects longer bodies; JS length counts UTF-16 units, never fewer than GitHub's characters. */
export const COMMENT_LIMIT = 65536;

export interface Progress {
  runUrl: string;
  task: string;
  todos: Todo[];
  currentStep: string | null;
  steps: number;
  costUsd: number;
  startedAt: number;
  now: number;
}

export interface FinalReport {
  conclusion: string;
  reason: string;
  result: string;
  runUrl: string;
  steps: number;
  usage: Usage;
  costUsd: number;
  durationMs: number;
  diff: string;
  diffStat: string;
  changedFiles: string[];
  commit?: { sha: string; url: string };
  pr?: { url: string; number: number };
  branch?: string;
  pushed: boolean;
  /** e.g. 'fork PR: not pushed, apply the diff below', 'nothing changed', 'workflow files not pushed' */
  note?: string;
  /** The verify command and whether it passed in the end. */
  verified?: { command: string; passed: boolean };
  /** The pull request review a review run posted. */
  review?: { url: string; comments: number; folded: number; bySeverity: Record<string, number> };
  /** Calls the rules or hooks refused: how many, and the first few with the reason given. */
  refused?: { count: number; first: { tool: string; reason: string }[] };
}

/** The refused calls in one line, so a maintainer can tune the rules; null when there were none. */
export function verifiedLine(r: FinalReport): string | null {
  if (!r.verified) return null;
  const how = r.verified.passed ? '✅ **Verified**' : '❌ **Unverified**: still failing';
  return `${how} by \`${inline(r.verified.command, 200)}\``;
}

/** The refused calls in one line, so a maintainer can tune the rules; null when there were none. */
export function refusedLine(r: FinalReport): string | null {
  if (!r.refused || r.refused.count === 0) return null;
  const shown = r.refused.first.map((f) => `\`${inline(f.tool, 80)}\`: ${inline(f.reason, 300)}`).join('; ');
  const more = r.refused.count > r.refused.first.length ? `; and ${r.refused.count - r.refused.first.length} more` : '';
  return `> **Refused:** ${plural(r.refused.count, 'call')} refused by the tool rules or hooks: ${shown}${more}`;
}

/** Longer diffs fold into <details> so the final text stays the first thing a reader sees. */
const DETAILS_OVER_LINES = 40;
/** Below this the cut diff would be a fragment nobody can use; the job summary has it whole. */
const MIN_USEFUL_DIFF = 500;
const MAX_TODOS = 100;
const MAX_INLINE = 300;

/** One line of untrusted text: no line breaks to escape a list item, no raw HTML to hide what follows. */
export function inline(text: string, max = MAX_INLINE): string {
  const line = text.replace(/\s+/g, ' ').trim().replace(/</g, '&lt;');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function lineCount(text: string): number {
  if (text === '') return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < text.length - 1; i = text.indexOf('\n', i + 1)) n += 1;
  return n;
}

/** A fence longer than any backtick run inside, so the content can never close it early. */
export function fencedBlock(content: string, info: string): string {
  let longest = 0;
  for (const run of content.match(/`{3,}/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${content.replace(/\n$/, '')}\n${fence}`;
}

const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})/;

/** Model text with an unclosed code fence would swallow everything after it (links, stats). */
export function closeOpenFence(text: string): string {
  let open: string | null = null;
  for (const line of text.split('\n')) {
    const run = FENCE_LINE.exec(line)?.[1];
    if (run === undefined) continue;
    if (open === null) open = run;
    else if (run[0] === open[0] && run.length >= open.length && line.trim() === run) open = null;
  }
  return open === null ? text : `${text}\n${open}`;
}

/** Whole lines of `text` within `maxChars`, and how many lines that kept. */
export function cutToLines(text: string, maxChars: number): { text: string; shown: number; total: number } {
  const total = lineCount(text);
  if (text.length <= maxChars) return { text, shown: total, total };
  const end = text.lastIndexOf('\n', maxChars - 1);
  const kept = end < 0 ? '' : text.slice(0, end + 1);
  return { text: kept, shown: lineCount(kept), total };
}

/** Cut without splitting a surrogate pair, preferring a line or word break near the end. */
export function cutText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let end = Math.max(0, maxChars);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  const breakAt = Math.max(text.lastIndexOf('\n', end), text.lastIndexOf(' ', end));
  if (breakAt > end - 200 && breakAt > 0) end = breakAt;
  return text.slice(0, end).trimEnd();
}

// --- progress ---

function todoLine(todo: Todo): string {
  if (todo.status === 'completed') return `- [x] ${inline(todo.content)}`;
  if (todo.status === 'in_progress') return `- [ ] **${inline(todo.activeForm ?? todo.content)}**`;
  return `- [ ] ${inline(todo.content)}`;
}

function checklist(todos: Todo[]): string {
  const lines = todos.slice(0, MAX_TODOS).map(todoLine);
  if (todos.length > MAX_TODOS) lines.push(`- … and ${todos.length - MAX_TODOS} more`);
  return lines.join('\n');
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function progressComment(p: Progress): string {
  const header = `⏳ **Working…** · ${plural(p.steps, 'step')} · ${formatUsd(p.costUsd)} · ${formatDuration(Math.max(0, p.now - p.startedAt))} · [View run](${p.runUrl})`;
  const parts = [TRACKING_MARKER, header];
  if (p.task.trim() !== '') parts.push(`> ${inline(p.task)}`);
  if (p.todos.length > 0) parts.push(checklist(p.todos));
  if (p.currentStep !== null && p.currentStep.trim() !== '') parts.push(`→ ${inline(p.currentStep)}`);
  return parts.join('\n\n');
}

// --- final ---

function statusLine(r: FinalReport): string {
  if (r.conclusion === 'success') return '**✅ Success**';
  const reason = r.reason.trim() === '' ? r.conclusion : r.reason;
  return `**⚠️ Stopped (${inline(r.conclusion, 40)}):** ${inline(reason)}`;
}

function reviewLink(review: NonNullable<FinalReport['review']>): string {
  const counts = Object.entries(review.bySeverity)
    .filter(([, n]) => n > 0)
    .map(([severity, n]) => `${n} ${severity}`)
    .join(', ');
  const folded = review.folded > 0 ? `, ${review.folded} in its body (GitHub refused them inline)` : '';
  return `[Review](${review.url}): ${plural(review.comments, 'inline comment')}${counts ? ` (${counts})` : ''}${folded}`;
}

function linksLine(r: FinalReport): string | null {
  const links: string[] = [];
  if (r.review) links.push(reviewLink(r.review));
  if (r.commit) links.push(`Commit [\`${r.commit.sha.slice(0, 7)}\`](${r.commit.url})`);
  if (r.branch) links.push(`Branch \`${inline(r.branch, 200)}\`${r.pushed ? '' : ' (not pushed)'}`);
  if (r.pr) links.push(`Pull request [#${r.pr.number}](${r.pr.url})`);
  return links.length === 0 ? null : links.join(' · ');
}

export function statsLine(r: FinalReport): string {
  return `${runFigures(r)} · [View run](${r.runUrl})`;
}

/** The last line of `git diff --stat` ("3 files changed, …"), or a count of the files. */
export function diffSummary(r: FinalReport): string {
  const last = r.diffStat.trim().split('\n').pop()?.trim();
  if (last && /changed/.test(last)) return last;
  return plural(r.changedFiles.length, 'file') + ' changed';
}

interface DiffCut {
  shown: number;
  total: number;
}

function diffSection(r: FinalReport, diff: string, cut: DiffCut | null): string {
  const note = cut
    ? `\n\n_✂️ Diff cut to fit a comment: ${cut.shown} of ${cut.total} lines shown. The full diff is in the [job summary](${r.runUrl})._`
    : '';
  const block = fencedBlock(diff, 'diff') + note;
  if (cut === null && lineCount(diff) <= DETAILS_OVER_LINES) return `**Diff** (${inline(diffSummary(r))})\n\n${block}`;
  return `<details>\n<summary>Diff: ${inline(diffSummary(r))}</summary>\n\n${block}\n\n</details>`;
}

function diffTooLong(r: FinalReport): string {
  return `_The diff (${plural(lineCount(r.diff), 'line')}, ${inline(diffSummary(r))}) is too long for a comment; it is in the [job summary](${r.runUrl})._`;
}

function render(r: FinalReport, text: string, diffPart: string | null): string {
  const parts = [TRACKING_MARKER, statusLine(r)];
  if (r.note) parts.push(`> **Note:** ${inline(r.note, 1000)}`);
  const refused = refusedLine(r);
  if (refused) parts.push(refused);
  const verified = verifiedLine(r);
  if (verified) parts.push(verified);
  parts.push(text);
  const links = linksLine(r);
  if (links) parts.push(links);
  if (diffPart) parts.push(diffPart);
  parts.push(`<sub>${statsLine(r)}</sub>`);
  return parts.join('\n\n');
}

function resultText(r: FinalReport): string {
  return r.result.trim() === '' ? '_(no final text)_' : closeOpenFence(r.result.trim());
}

/** Fits the diff into what the rest of the comment leaves, or replaces it with a pointer. */
function fittedDiff(r: FinalReport, text: string, limit: number): string | null {
  if (r.diff.trim() === '') return null;
  const whole = diffSection(r, r.diff, null);
  if (render(r, text, whole).length <= limit) return whole;
  const lines = lineCount(r.diff);
  let budget = limit - render(r, text, diffSection(r, '', { shown: lines, total: lines })).length;
  // The fence and the note's numbers depend on what is kept, so measure and shrink until it fits.
  for (let attempt = 0; attempt < 4; attempt += 1) {
    const kept = cutToLines(r.diff, budget);
    if (kept.text.length < MIN_USEFUL_DIFF) break;
    const section = diffSection(r, kept.text, kept);
    const over = render(r, text, section).length - limit;
    if (over <= 0) return section;
    budget -= over;
  }
  return diffTooLong(r);
}

function fittedText(r: FinalReport, text: string, diffPart: string | null, limit: number): string {
  const note = `\n\n_✂️ Text cut to fit a comment; the full text is in the [job summary](${r.runUrl})._`;
  let budget = limit - render(r, '', diffPart).length - note.length;
  for (let attempt = 0; attempt < 4; attempt += 1) {
    const cut = `${closeOpenFence(cutText(text, budget))}${note}`;
    const over = render(r, cut, diffPart).length - limit;
    if (over <= 0) return cut;
    budget -= over;
  }
  return note.trim();
}

/** `limit` is lower when the caller appends to the body (a per-run marker, say). */
export function finalComment(r: FinalReport, limit = COMMENT_LIMIT): string {
  const text = resultText(r);
  const diffPart = fittedDiff(r, text, limit);
  const full = render(r, text, diffPart);
  if (full.length <= limit) return full;
  // Even without the diff the text is too long: the diff becomes a pointer and the text is cut.
  const pointer = r.diff.trim() === '' ? null : diffTooLong(r);
  const fitted = render(r, fittedText(r, text, pointer, limit), pointer);
  // Note and branch are capped by inline(), so only a tiny `limit` gets here; a cut body beats a rejected one.
  return fitted.length <= limit ? fitted : cutText(fitted, limit);
}
