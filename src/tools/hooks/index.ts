// The hooks API: settings schema, the runner of one event's hooks, and the ToolSet wrapper for the
// tool events (the session's events are in session/hook-events.ts).
export {
  anyHooks,
  CommandHookSchema,
  commandLine,
  DEFAULT_HOOK_TIMEOUT_S,
  HOOK_EVENTS,
  hookLabel,
  HooksSchema,
  HttpHookSchema,
  readHooks,
} from './schema.js';
export type { CommandHook, HookEvent, HookHandler, HookMatcher, HookSettings, HttpHook } from './schema.js';
export { blockedReasons, HOOK_REFUSED, HookRunner, joined, quoteCommand, stopOf } from './runner.js';
export type { HookContext, HookRun, Ran } from './runner.js';
export { hookRunner, toolHooks } from './hooks.js';
export type { PostToolUseResult, PreToolUseResult, ToolHooks } from './hooks.js';
export { withHooks } from './with-hooks.js';
export { decideHookResult, HookOutputSchema, parseHookStdout } from './decision.js';
export type { HookDecision, HookOutput } from './decision.js';
export { matcherMatches, matchingHooks, TOOL_EVENTS } from './matcher.js';
export { HOOK_OUTPUT_LIMIT, runHookCommand } from './run-hook.js';
export type { HookProcessResult, HookProcessSpec } from './run-hook.js';
