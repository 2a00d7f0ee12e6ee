import { DEFAULT_ALLOWED_TOOLS } from './loop-settings.js';
import { limitedBy, type RuleList, type RuleLists } from '../tools/permissions/rules.js';
import type { TrustedSettings } from './merge.js';

/** The inputs' own rules: `allowed-tools` (rule texts, as the settings parsed them) and `disallowed-tools`. */
export interface InputRules {
  allow: { source: string; rules: readonly string[] };
  deny: RuleList;
}

/** More allow rules of the run: its mode's own tools, and the MCP servers its own input configured. */
export interface RunAllowances {
  mode?: RuleList;
  /** `mcp__<server>` for each server `mcp-config` / `--mcp-config` configured. */
  mcp?: RuleList;
  /** A command's `allowed-tools`, which it pre-approves. */
  command?: RuleList;
}

/**
 * Whether `allowed-tools` is at its default: left out, or listing exactly the default rules (the
 * action's inputs carry action.yml's default text, which cannot be told from a list written out).
 */
export function atDefault(allowed: readonly string[]): boolean {
  const given = new Set(allowed);
  return given.size === DEFAULT_ALLOWED_TOOLS.length && DEFAULT_ALLOWED_TOOLS.every((t) => given.has(t));
}

/**
 * The run's allow and deny lists: the inputs' own rules first, then every rule of the trusted
 * settings, each keeping the name of its source so that a refusal can say where it came from.
 * The default never widens what the repository wrote: while `allowed-tools` is at its default, a
 * tool the trusted allow rules name with specifiers (`Bash(npm test:*)`, `Edit(src/**)`) loses
 * its bare default rule, and MCP servers of the run's own input are allowed by being configured.
 * An explicit `allowed-tools` means exactly its rules: then an MCP tool needs a rule naming it.
 */
export function ruleLists(inputs: InputRules, trusted: TrustedSettings | null, more: RunAllowances = {}): RuleLists {
  const sourced = (rules: TrustedSettings['allow']): RuleList[] => rules.map((r) => ({ source: r.source, rules: [r.rule] }));
  const repo = trusted?.allow ?? [];
  const byDefault = atDefault(inputs.allow.rules);
  const allow: RuleList = byDefault ? { ...inputs.allow, rules: limitedBy(inputs.allow.rules, sourced(repo)) } : inputs.allow;
  const extra = [more.mode, byDefault ? more.mcp : undefined, more.command].filter((l): l is RuleList => l !== undefined);
  return {
    allow: [allow, ...sourced(repo), ...extra],
    deny: [inputs.deny, ...sourced(trusted?.deny ?? [])],
  };
}
