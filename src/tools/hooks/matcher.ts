import type { CommandHook, HookEvent, HookSettings } from './schema.js';

/** Events whose matcher is tested against a tool name; the others run every hook they have. */
export const TOOL_EVENTS: ReadonlySet<HookEvent> = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure']);

// Claude Code's rule: a matcher of only letters, digits, `_` and `|` is an exact name or a list of
// exact names (so `Edit` never matches `NotebookEdit`); anything else is a JavaScript regular
// expression tested unanchored, as Claude Code does (so `mcp__.*` matches every MCP tool and
// `^Notebook` every tool starting with Notebook). Matching no less than Claude Code matters:
// a PreToolUse hook that silently stops seeing calls fails open.
const PLAIN_NAMES = /^[A-Za-z0-9_|]+$/;

/** True when matcher selects the tool called toolName. */
export function matcherMatches(matcher: string | undefined, toolName: string): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*') return true;
  if (PLAIN_NAMES.test(matcher)) return matcher.split('|').includes(toolName);
  try {
    return new RegExp(matcher).test(toolName);
  } catch {
    // The settings schema rejects invalid expressions; should one slip through, match rather than skip the hook.
    return true;
  }
}

/**
 * The command hooks of event that apply (to toolName, for tool events), in settings order.
 * Identical commands run once, as Claude Code deduplicates them; the first one's timeout counts.
 */
export function matchingHooks(settings: HookSettings, event: HookEvent, toolName?: string): CommandHook[] {
  const seen = new Set<string>();
  const hooks: CommandHook[] = [];
  for (const group of settings[event] ?? []) {
    if (TOOL_EVENTS.has(event) && !matcherMatches(group.matcher, toolName ?? '')) continue;
    for (const hook of group.hooks) {
      if (seen.has(hook.command)) continue;
      seen.add(hook.command);
      hooks.push(hook);
    }
  }
  return hooks;
}
