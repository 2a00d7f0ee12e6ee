// The hooks API: settings schema, the session-level events, and the ToolSet wrapper for tool events.
export { anyHooks, CommandHookSchema, HOOK_EVENTS, HookMatcherSchema, HooksSchema } from './schema.js';
export type { CommandHook, HookEvent, HookMatcher, HookSettings } from './schema.js';
export { createHooks, DEFAULT_HOOK_TIMEOUT_S, HOOK_REFUSED, quoteCommand } from './hooks.js';
export type { HookContext, HookRun, Hooks, PostToolUseResult, PreToolUseResult, PromptResult, StopResult } from './hooks.js';
export { withHooks } from './with-hooks.js';
export { decideHookResult, HookOutputSchema, parseHookStdout } from './decision.js';
export type { HookDecision, HookOutput } from './decision.js';
export { matcherMatches, matchingHooks, TOOL_EVENTS } from './matcher.js';
export { HOOK_OUTPUT_LIMIT, runHookCommand } from './run-hook.js';
export type { HookProcessResult, HookProcessSpec } from './run-hook.js';
