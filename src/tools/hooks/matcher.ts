import type { HookEvent, HookHandler, HookSettings } from './schema.js';
import { commandLine } from './schema.js';

/** Events whose matcher is tested against a tool name. */
export const TOOL_EVENTS: ReadonlySet<HookEvent> = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure']);

/** Events whose matcher may list names with commas as well as `|` (`"Edit, Write"`), as in Claude Code. */
const LIST_EVENTS: ReadonlySet<HookEvent> = new Set([...TOOL_EVENTS, 'SessionStart', 'SessionEnd', 'SubagentStop', 'PreCompact']);

/** This product's tool names as Claude Code names them now, for matchers written either way. */
const CLAUDE_CODE_NAMES: ReadonlyMap<string, string> = new Map([['Task', 'Agent']]);

function canonical(name: string): string {
  return CLAUDE_CODE_NAMES.get(name) ?? name;
}

/** Every name a tool answers to: its own and Claude Code's (Task and Agent). */
function namesOf(name: string): string[] {
  const names = new Set([name, canonical(name)]);
  for (const [ours, theirs] of CLAUDE_CODE_NAMES) if (theirs === name) names.add(ours);
  return [...names];
}

// Claude Code's rule: a matcher of only letters, digits, `_` and `|` (for tool and session events
// also `,`, space and `-`) is an exact name or a list of exact names (so `Edit` never matches
// `NotebookEdit`); anything else is a JavaScript regular expression tested unanchored (so `mcp__.*`
// matches every MCP tool). Matching no less than Claude Code matters: a PreToolUse hook that
// silently stops seeing calls fails open.
const PLAIN_NAMES = /^[A-Za-z0-9_|]+$/;
const PLAIN_LIST = /^[A-Za-z0-9_|, -]+$/;

/** True when matcher selects `query` (a tool name, or a session event's source, reason or trigger). */
export function matcherMatches(matcher: string | undefined, query: string, event: HookEvent = 'PreToolUse'): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*') return true;
  const list = LIST_EVENTS.has(event);
  if ((list ? PLAIN_LIST : PLAIN_NAMES).test(matcher)) {
    const names = matcher
      .split(list ? /[|,]/ : '|')
      .map((n) => n.trim())
      .filter(Boolean);
    return names.map(canonical).includes(canonical(query));
  }
  try {
    const pattern = new RegExp(matcher);
    return namesOf(query).some((name) => pattern.test(name));
  } catch {
    // An expression that does not compile: match rather than skip the hook, which could fail open.
    return true;
  }
}

/** A handler's identity for de-duplication: the same command (or URL) and condition run once. */
function identity(hook: HookHandler): string {
  return JSON.stringify([hook.type, hook.type === 'http' ? hook.url : commandLine(hook), hook.if ?? '']);
}

/**
 * The hooks of event that apply, in settings order: for tool events those whose matcher selects
 * the tool; for SessionStart, SessionEnd and PreCompact those whose matcher selects its source,
 * reason or trigger; for the other events all of them. Identical handlers run once, as Claude
 * Code deduplicates them; the first one's timeout counts.
 */
export function matchingHooks(settings: HookSettings, event: HookEvent, query?: string): HookHandler[] {
  const seen = new Set<string>();
  const hooks: HookHandler[] = [];
  for (const group of settings[event] ?? []) {
    if (query !== undefined && !matcherMatches(group.matcher, query, event)) continue;
    for (const hook of group.hooks) {
      const key = identity(hook);
      if (seen.has(key)) continue;
      seen.add(key);
      hooks.push(hook);
    }
  }
  return hooks;
}
