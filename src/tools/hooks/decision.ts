import * as z from '../../core/schema.js';
import { capText } from '../output.js';
import type { HookProcessResult } from './run-hook.js';
import type { HookEvent } from './schema.js';

/** How long a hook's message may be in a reason: enough to act on, not a second tool output. */
const REASON_LIMIT = 2000;

/**
 * Claude Code's JSON output of a hook (exit 0). Unknown fields are ignored, as Claude Code does;
 * known fields of the wrong type make the whole output invalid, which PreToolUse treats as a refusal.
 */
export const HookOutputSchema = z.object({
  continue: z.optional(z.boolean()),
  stopReason: z.optional(z.string()),
  suppressOutput: z.optional(z.boolean()),
  systemMessage: z.optional(z.string()),
  // 'approve' is Claude Code's deprecated PreToolUse spelling of permissionDecision 'allow'.
  decision: z.optional(z.enum(['block', 'approve'])),
  reason: z.optional(z.string()),
  hookSpecificOutput: z.optional(
    z.object({
      hookEventName: z.optional(z.string()),
      permissionDecision: z.optional(z.enum(['allow', 'deny', 'ask'])),
      permissionDecisionReason: z.optional(z.string()),
      updatedInput: z.optional(z.record(z.string(), z.unknown())),
      additionalContext: z.optional(z.string()),
    }),
  ),
});
export type HookOutput = z.infer<typeof HookOutputSchema>;

/** What one hook run means for its event. */
export interface HookDecision {
  /** blocked: exit 2, decision "block", or permissionDecision deny/ask. failed: crash, timeout, bad output. */
  outcome: 'ok' | 'blocked' | 'failed';
  /** blocked: the hook's message (may be empty); failed: what went wrong, for the model and the log. */
  reason?: string;
  /** PreToolUse only. 'allow' means "no objection": it never overrides a permission rule. */
  permission?: 'allow' | 'deny' | 'ask';
  /** PreToolUse only: the input to run the call with instead. */
  updatedInput?: Record<string, unknown>;
  additionalContext?: string;
  /** Set when the hook said `continue: false`: the run should end, with this reason. */
  stop?: string;
  /** Something for the log only: systemMessage, or stderr of an exit 2 that blocks nothing for this event. */
  notice?: string;
}

/** Events where exit 2 and decision "block" mean something (Claude Code: the rest only show stderr to the user). */
const BLOCKING_EVENTS: ReadonlySet<HookEvent> = new Set([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
]);

/** Events whose plain (non-JSON) stdout on exit 0 is context for the model, as in Claude Code. */
const PLAIN_CONTEXT_EVENTS: ReadonlySet<HookEvent> = new Set(['UserPromptSubmit', 'SessionStart']);

/** Events that honour hookSpecificOutput.additionalContext. */
const CONTEXT_EVENTS: ReadonlySet<HookEvent> = new Set([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'SessionStart',
]);

function excerpt(text: string): string {
  return capText(text.trim(), REASON_LIMIT);
}

/** Why a run that did not end with exit 0 or 2 failed, in words that complete "the hook ...". */
function failureReason(result: HookProcessResult, timeoutMs: number): string {
  const stderr = excerpt(result.stderr);
  const detail = stderr.length > 0 ? `: ${stderr}` : '';
  if (result.timedOut) return `did not finish within ${timeoutMs / 1000} s and was killed${detail}`;
  if (result.cancelled) return 'was cancelled';
  if (result.startError !== undefined) return `could not be started (${result.startError})`;
  if (result.exitCode === null) return `was killed by signal ${result.exitSignal ?? 'unknown'}${detail}`;
  return `failed with exit code ${result.exitCode}${detail}`;
}

type Parsed = { kind: 'plain'; text: string } | { kind: 'json'; output: HookOutput } | { kind: 'invalid'; why: string };

/** Output that starts with `{` is meant as JSON: if it is not valid, reading it as plain text would hide a refusal. */
export function parseHookStdout(stdout: string): Parsed {
  const text = stdout.trim();
  if (!text.startsWith('{')) return { kind: 'plain', text };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { kind: 'invalid', why: `printed invalid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  const parsed = HookOutputSchema.safeParse(json);
  if (parsed.success) return { kind: 'json', output: parsed.data };
  const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
  return { kind: 'invalid', why: `printed JSON output of the wrong shape (${issues.join('; ')})` };
}

function fromJson(event: HookEvent, output: HookOutput): HookDecision {
  const specific = output.hookSpecificOutput ?? {};
  const decision: HookDecision = { outcome: 'ok' };
  if (output.continue === false) decision.stop = output.stopReason ?? '';
  if (output.systemMessage !== undefined) decision.notice = output.systemMessage;
  if (CONTEXT_EVENTS.has(event) && specific.additionalContext !== undefined) decision.additionalContext = specific.additionalContext;
  if (event === 'PreToolUse') {
    const permission = specific.permissionDecision ?? (output.decision === 'approve' ? 'allow' : undefined);
    if (permission !== undefined) decision.permission = permission;
    if (specific.updatedInput !== undefined) decision.updatedInput = specific.updatedInput;
    if (permission === 'deny' || permission === 'ask') {
      return { ...decision, outcome: 'blocked', reason: specific.permissionDecisionReason ?? output.reason ?? '' };
    }
  }
  if (output.decision === 'block' && BLOCKING_EVENTS.has(event)) return { ...decision, outcome: 'blocked', reason: output.reason ?? '' };
  return decision;
}

/**
 * The meaning of one hook run for event: exit 2 blocks (stderr the reason) where the event can be
 * blocked; exit 0 is read as JSON when stdout starts with `{`, else as plain output; anything else failed.
 */
export function decideHookResult(event: HookEvent, result: HookProcessResult, timeoutMs: number): HookDecision {
  if (result.exitCode === 2 && !result.timedOut && !result.cancelled) {
    const stderr = excerpt(result.stderr);
    return BLOCKING_EVENTS.has(event) ? { outcome: 'blocked', reason: stderr } : { outcome: 'ok', notice: stderr };
  }
  if (result.exitCode !== 0 || result.timedOut || result.cancelled) return { outcome: 'failed', reason: failureReason(result, timeoutMs) };
  const parsed = parseHookStdout(result.stdout);
  if (parsed.kind === 'invalid') return { outcome: 'failed', reason: parsed.why };
  if (parsed.kind === 'json') return fromJson(event, parsed.output);
  if (PLAIN_CONTEXT_EVENTS.has(event) && parsed.text.length > 0) return { outcome: 'ok', additionalContext: parsed.text };
  return { outcome: 'ok' };
}
