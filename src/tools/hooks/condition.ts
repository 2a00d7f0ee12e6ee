// A hook handler's `if`: one permission rule (`Bash(git push:*)`, `Edit(src/**)`) that a tool
// event's call must match for the hook to run at all, matched the way Claude Code matches rules.
import type { ToolCall } from '../../core/tools.js';
import { decide } from '../permissions/decide.js';
import { loadRules, parseRule, type Rules } from '../permissions/rules.js';

export type Condition = { holds: boolean } | { invalid: string };

const compiled = new Map<string, Promise<Rules>>();

/** The condition as a deny rule beside a bare allow rule: it "matches" when it is what refuses the call. */
function rulesFor(condition: string, tool: string): Promise<Rules> {
  const key = `${tool}\0${condition}`;
  let rules = compiled.get(key);
  if (!rules) {
    rules = loadRules({ allow: [{ source: 'if', rules: [tool] }], deny: [{ source: 'if', rules: [condition] }] });
    compiled.set(key, rules);
  }
  return rules;
}

/**
 * Whether a hook with condition `condition` runs for `call`. Without a call (SessionStart, Stop...)
 * a condition cannot hold, as in Claude Code. A command matches when any of its simple commands
 * does, and a path when any of its spellings does: a guard hook errs toward running.
 */
export async function conditionHolds(condition: string, call: ToolCall | undefined, root: string): Promise<Condition> {
  if (!call) return { holds: false };
  let tool: string;
  try {
    tool = parseRule(condition, 'if').tool;
  } catch (error) {
    return { invalid: error instanceof Error ? error.message : String(error) };
  }
  if (tool !== call.name) return { holds: false };
  try {
    const rules = await rulesFor(condition, call.name);
    return { holds: !decide(call, rules, root).allowed };
  } catch (error) {
    return { invalid: error instanceof Error ? error.message : String(error) };
  }
}
