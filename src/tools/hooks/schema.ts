import * as z from '../../core/schema.js';

/** The hook events honoured, with Claude Code's names. */
export const HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
  'SessionStart',
  'SessionEnd',
  'PreCompact',
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** One command hook: run with the event's JSON on stdin; `timeout` in seconds (default 60). */
export const CommandHookSchema = z.object({
  type: z.literal('command', { error: 'only "command" hooks are supported' }),
  command: z.string().check(z.trim(), z.minLength(1, 'command must not be empty')),
  timeout: z.optional(z.number().check(z.positive(), z.maximum(3600))),
});
export type CommandHook = z.infer<typeof CommandHookSchema>;

/** Hooks of one event whose `matcher` (a regular expression over tool names; empty or `*` = all) matches. */
export const HookMatcherSchema = z.object({
  matcher: z
    .optional(z.string())
    .check(
      z.refine((m) => m === undefined || m === '' || m === '*' || isRegExp(m), { error: 'matcher is not a valid regular expression' }),
    ),
  hooks: z.array(CommandHookSchema),
});
export type HookMatcher = z.infer<typeof HookMatcherSchema>;

/** The `hooks` key of Claude Code's settings: event name -> matchers. */
export const HooksSchema = z.partialRecord(
  z.enum(HOOK_EVENTS, { error: `unknown hook event; events: ${HOOK_EVENTS.join(', ')}` }),
  z.array(HookMatcherSchema),
);
export type HookSettings = z.infer<typeof HooksSchema>;

/** Whether the settings configure any hook at all. */
export function anyHooks(settings: HookSettings | undefined): boolean {
  return HOOK_EVENTS.some((event) => (settings?.[event]?.length ?? 0) > 0);
}

function isRegExp(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}
