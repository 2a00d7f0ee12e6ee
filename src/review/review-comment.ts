import * as z from '../core/schema.js';
import type { ToolOutcome, ToolSet, ToolSpec } from '../core/tools.js';
import { withTool } from '../tools/compose.js';
import { invalidInput, schemaJson } from '../tools/tool.js';
import type { DiffFile } from './diff.js';
import { renderBody, SEVERITIES, type Finding, type Findings } from './findings.js';
import { checkPlace, findFile, repoPath, workspaceRoots, type Checked } from './validate.js';

export const REVIEW_COMMENT = 'ReviewComment';

/** What a finding is rated when the model does not say. */
const DEFAULT_SEVERITY = 'suggestion';

export const reviewCommentSchema = z.object({
  file_path: z
    .string()
    .check(
      z.minLength(1),
      z.describe('The file the comment is on: a path relative to the repository root (or absolute in the workspace).'),
    ),
  line: z
    .number()
    .check(
      z.int(),
      z.minimum(1),
      z.describe('The line the comment is on (the last line of a multi-line comment), numbered in the version `side` names.'),
    ),
  start_line: z
    .optional(z.number().check(z.int(), z.minimum(1)))
    .check(z.describe('The first line of a multi-line comment; it must be in the same hunk as `line`. Leave it out for one line.')),
  side: z
    .optional(z.enum(['RIGHT', 'LEFT']))
    .check(
      z.describe('RIGHT (default): lines of the new version (added or context lines). LEFT: lines of the old version (deleted lines).'),
    ),
  body: z
    .string()
    .check(z.describe('The comment in Markdown: what is wrong and why, concretely. May be empty only when `suggestion` is given.')),
  suggestion: z
    .optional(z.string())
    .check(
      z.describe(
        'Replacement text for lines start_line..line (or just line) of the new version, offered as a one-click suggestion. ' +
          'The exact new code, indentation included; an empty string deletes the lines. Only with side RIGHT.',
      ),
    ),
  severity: z
    .optional(z.enum(SEVERITIES))
    .check(z.describe(`blocking: must be fixed before merging; suggestion (default): worth changing; nit: minor or a matter of taste.`)),
});

export type ReviewCommentInput = z.infer<typeof reviewCommentSchema>;

const DESCRIPTION = [
  'Records one review comment on the pull request, anchored to lines of its diff. One call per finding.',
  'The lines must lie inside one hunk of the diff for that file: RIGHT-side lines are those of the new version the hunk shows ' +
    '(added and context lines), LEFT-side lines those of the old version (deleted and context lines). A comment outside the diff ' +
    'is refused with the ranges it may use.',
  'Comments are collected and posted together as one review when you finish; an identical comment already on the pull ' +
    'request is not posted again.',
].join('\n');

function toolSpec(): ToolSpec {
  // Readonly: a call only appends to an in-memory list, so it may run alongside the reads of a turn;
  // but not before the answer is whole, or a comment of an answer that was then lost would be posted.
  return {
    name: REVIEW_COMMENT,
    description: DESCRIPTION,
    readOnly: true,
    earlyStart: false,
    input_schema: schemaJson(reviewCommentSchema),
    keyArgument: 'file_path',
  };
}

/** The ReviewComment tool bound to one pull request's diff and the findings of one review. */
export interface ReviewCommentTool {
  readonly spec: ToolSpec;
  /** Validates and records one call's input. Never throws: every refusal is an is_error outcome. */
  execute(input: unknown): ToolOutcome;
}

/** Checks that need no diff: what the input asks for must make sense on its own. */
function checkInput(input: ReviewCommentInput): string | undefined {
  const side = input.side ?? 'RIGHT';
  if (input.suggestion !== undefined && side === 'LEFT') {
    return 'A suggestion replaces lines of the new version, so it needs side RIGHT. Use side RIGHT, or leave suggestion out.';
  }
  if (input.body.trim() === '' && input.suggestion === undefined) {
    return 'body is empty: say what is wrong and why (or give a suggestion).';
  }
  if (input.start_line !== undefined && input.start_line > input.line) {
    return `start_line (${input.start_line}) is after line (${input.line}): start_line is the first line, line the last.`;
  }
  return undefined;
}

function toFinding(input: ReviewCommentInput, files: readonly DiffFile[], roots: readonly string[]): Checked<Finding> {
  const invalid = checkInput(input);
  if (invalid) return { ok: false, error: invalid };
  const relative = repoPath(input.file_path, roots);
  if (!relative.ok) return relative;
  const file = findFile(files, relative.value);
  if (!file.ok) return file;
  const side = input.side ?? 'RIGHT';
  // GitHub refuses a multi-line comment that starts and ends on one line: that is a one-line comment.
  const startLine = input.start_line !== undefined && input.start_line < input.line ? input.start_line : undefined;
  const place = checkPlace(file.value, { line: input.line, side, ...(startLine === undefined ? {} : { startLine }) });
  if (!place.ok) return place;
  const severity = input.severity ?? DEFAULT_SEVERITY;
  const finding: Finding = {
    path: file.value.path,
    line: input.line,
    side,
    body: renderBody(input.body, severity, input.suggestion),
    severity,
  };
  if (startLine !== undefined) finding.startLine = startLine;
  return { ok: true, value: finding };
}

function where(finding: Finding): string {
  const lines = finding.startLine === undefined ? `line ${finding.line}` : `lines ${finding.startLine}-${finding.line}`;
  return `${finding.path} ${lines} (${finding.side})`;
}

function recorded(finding: Finding, findings: Findings): string {
  const counts = findings.bySeverity();
  const tally = SEVERITIES.map((s) => `${counts[s]} ${s}`).join(', ');
  const total = findings.size === 1 ? '1 comment' : `${findings.size} comments`;
  return (
    `Recorded a ${finding.severity} comment on ${where(finding)}. ${total} so far (${tally}); ` +
    'they are posted together as one review when you finish.'
  );
}

/** The tool over the pull request's files; accepted comments go to `findings`, nothing is posted. */
export function reviewCommentTool(files: readonly DiffFile[], findings: Findings, workspaceRoot: string): ReviewCommentTool {
  const roots = workspaceRoots(workspaceRoot);
  const spec = toolSpec();
  const run = (input: unknown): ToolOutcome => {
    const parsed = reviewCommentSchema.safeParse(input);
    if (!parsed.success) return { isError: true, content: invalidInput(REVIEW_COMMENT, parsed.error) };
    const finding = toFinding(parsed.data, files, roots);
    if (!finding.ok) return { isError: true, content: finding.error };
    if (findings.add(finding.value) === 'duplicate') {
      const already = `an identical comment on ${where(finding.value)} is already on the pull request or in this review`;
      return { isError: false, content: `Already posted: ${already}, so it was not added again.` };
    }
    return { isError: false, content: recorded(finding.value, findings) };
  };
  return {
    spec,
    execute(input) {
      try {
        return run(input);
      } catch (error) {
        return { isError: true, content: `${REVIEW_COMMENT} failed: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  };
}

/** `set` with ReviewComment added: its calls are handled here, every other call goes to `set`. */
export function withReviewComment(set: ToolSet, tool: ReviewCommentTool): ToolSet {
  return withTool(set, { spec: tool.spec, execute: (call) => Promise.resolve(tool.execute(call.input)) });
}
