import * as z from '../../core/schema.js';

/** The hook events honoured, with Claude Code's names; others in settings are skipped with one log line. */
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

/** Claude Code's default for a command or http hook without `timeout`, in seconds. */
export const DEFAULT_HOOK_TIMEOUT_S = 600;

const Timeout = z.optional(z.number().check(z.positive('timeout must be a positive number of seconds')));
/** `if`: one permission rule (`Bash(git *)`, `Edit(src/**)`) a tool event's call must match for the hook to run. */
const If = z.optional(z.string().check(z.trim(), z.minLength(1, 'if must not be empty')));

/**
 * A command hook: `command` runs in bash with the event's JSON on stdin, or, with `args`, is the
 * program run with those arguments and no shell (exec form). Other keys Claude Code knows
 * (`statusMessage`, `async`, `shell`, `once`) are accepted and have no effect here.
 */
export const CommandHookSchema = z.looseObject({
  type: z.literal('command'),
  command: z.string().check(z.trim(), z.minLength(1, 'command must not be empty')),
  args: z.optional(z.array(z.string({ error: 'args must be strings' }), { error: 'args must be an array of strings' })),
  if: If,
  timeout: Timeout,
});
export type CommandHook = z.infer<typeof CommandHookSchema>;

/** An http hook: the event's JSON is POSTed to `url`; the response body is the hook's output. */
export const HttpHookSchema = z.looseObject({
  type: z.literal('http'),
  url: z.string().check(z.refine((u) => /^https?:\/\//.test(u), 'url must be an http or https URL')),
  /** Values may name `$VAR` / `${VAR}` of the variables allowedEnvVars lists; others expand to nothing. */
  headers: z.optional(z.record(z.string(), z.string())),
  allowedEnvVars: z.optional(z.array(z.string())),
  if: If,
  timeout: Timeout,
});
export type HttpHook = z.infer<typeof HttpHookSchema>;

export type HookHandler = CommandHook | HttpHook;

/** Hooks of one event whose `matcher` selects the call (see matcher.ts). */
export interface HookMatcher {
  matcher?: string | undefined;
  hooks: HookHandler[];
}

/** The `hooks` key of Claude Code's settings as honoured: event name -> matcher groups. */
export type HookSettings = Partial<Record<HookEvent, HookMatcher[]>>;

/** Handlers as written, each checked by its type once the event and type are known to be honoured. */
const RawGroupSchema = z.looseObject({
  matcher: z.optional(z.string({ error: 'matcher must be a string' })),
  hooks: z.array(z.looseObject({ type: z.string({ error: 'type must be a string' }) }), { error: 'expected an array of hooks' }),
});

/** The `hooks` key as written: any event name, any handler type (what is not honoured is skipped, not fatal). */
export const HooksSchema = z.record(z.string(), z.array(RawGroupSchema, { error: 'expected an array of matcher groups' }));
export type RawHooks = z.infer<typeof HooksSchema>;

export interface HooksRead {
  hooks: HookSettings;
  /** What was skipped, for one log line: `Notification hooks`, `prompt hook in PreToolUse`. */
  skipped: string[];
  /** Malformed handlers of honoured types: key path (from `hooks`) and problem. */
  problems: { path: (string | number)[]; message: string }[];
}

/** Keeps the events and handler types this product runs; Claude Code's others are named as skipped. */
export function readHooks(raw: RawHooks): HooksRead {
  const out: HooksRead = { hooks: {}, skipped: [], problems: [] };
  for (const [event, groups] of Object.entries(raw)) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      out.skipped.push(`${event} hooks`);
      continue;
    }
    const kept: HookMatcher[] = [];
    groups.forEach((group, g) => {
      const hooks: HookHandler[] = [];
      group.hooks.forEach((handler, h) => {
        const schema = handler.type === 'command' ? CommandHookSchema : handler.type === 'http' ? HttpHookSchema : undefined;
        if (!schema) {
          out.skipped.push(`${handler.type} hook in ${event}`);
          return;
        }
        const parsed = schema.safeParse(handler, { reportInput: true });
        if (parsed.success) hooks.push(parsed.data);
        else
          for (const issue of parsed.error.issues) {
            out.problems.push({
              path: [event, g, 'hooks', h, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))],
              message: issue.code === 'invalid_type' && issue.input === undefined ? 'required' : issue.message,
            });
          }
      });
      kept.push({ ...(group.matcher !== undefined ? { matcher: group.matcher } : {}), hooks });
    });
    out.hooks[event as HookEvent] = kept;
  }
  return out;
}

/** Whether the settings configure any hook at all. */
export function anyHooks(settings: HookSettings | undefined): boolean {
  return HOOK_EVENTS.some((event) => (settings?.[event] ?? []).some((group) => group.hooks.length > 0));
}

/** Single quotes for bash: the text stays one literal word. */
function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

const PROJECT_DIR = '${CLAUDE_PROJECT_DIR}';

/**
 * The bash line a command hook runs: `command` itself, or for the exec form the program and its
 * arguments as literal words, only `${CLAUDE_PROJECT_DIR}` in them expanded, as Claude Code does
 * (left to bash, which has the variable: so a pull request run's trusted copies are found the same way).
 */
export function commandLine(hook: CommandHook): string {
  if (hook.args === undefined) return hook.command;
  const word = (w: string) =>
    w === ''
      ? "''"
      : w
          .split(PROJECT_DIR)
          .map((part) => (part === '' ? '' : shellQuote(part)))
          .join(`"${PROJECT_DIR}"`);
  return [hook.command, ...hook.args].map(word).join(' ');
}

/** What names a hook in messages and logs: its command line, or its URL. */
export function hookLabel(hook: HookHandler): string {
  return hook.type === 'http' ? hook.url : commandLine(hook);
}
