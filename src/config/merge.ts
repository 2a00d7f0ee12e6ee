/**
 * Merging the trusted sources' settings. Later sources add to earlier ones rather than replace
 * them: rule lists are concatenated, so a deny rule of any source still applies (the permission
 * checker lets deny win), and every rule keeps the name of its source for the log and for the
 * message a refused tool call returns.
 */
import { HOOK_EVENTS, type HookSettings } from '../tools/hooks/schema.js';
import type { ClaudeSettings } from './claude-settings.js';

/** A rule and where it came from, e.g. `.claude/settings.json permissions.ask (treated as deny)`. */
export interface SourcedRule {
  rule: string;
  source: string;
}

export interface TrustedSettings {
  allow: SourcedRule[];
  /** `permissions.deny` and `permissions.ask` of every source: a headless run has nobody to ask. */
  deny: SourcedRule[];
  hooks: HookSettings;
  /** The settings' `env`, later sources' values winning: for Bash, hooks and MCP servers. */
  env: Record<string, string>;
  enableAllProjectMcpServers: boolean;
  enabledMcpjsonServers: string[];
  disabledMcpjsonServers: string[];
  /** The sources merged, in order. */
  sources: string[];
}

export interface SettingsSource {
  source: string;
  settings: ClaudeSettings;
}

/** Merges sources given in precedence order (earliest first). */
export function mergeSettings(sources: SettingsSource[]): TrustedSettings {
  const merged: TrustedSettings = {
    allow: [],
    deny: [],
    hooks: {},
    env: {},
    enableAllProjectMcpServers: false,
    enabledMcpjsonServers: [],
    disabledMcpjsonServers: [],
    sources: [],
  };
  let disableAllHooks = false;
  for (const { source, settings } of sources) {
    const sourced = (rules: string[], label: string): SourcedRule[] => rules.map((rule) => ({ rule, source: `${source} ${label}` }));
    const { allow, deny, ask } = settings.permissions;
    merged.allow.push(...sourced(allow, 'permissions.allow'));
    merged.deny.push(...sourced(deny, 'permissions.deny'), ...sourced(ask, 'permissions.ask (treated as deny)'));
    merged.hooks = mergeHooks(merged.hooks, settings.hooks);
    // A switch, not a list: the later source that sets it decides, as in Claude Code.
    if (settings.enableAllProjectMcpServers !== undefined) merged.enableAllProjectMcpServers = settings.enableAllProjectMcpServers;
    for (const name of settings.enabledMcpjsonServers) {
      if (!merged.enabledMcpjsonServers.includes(name)) merged.enabledMcpjsonServers.push(name);
    }
    for (const name of settings.disabledMcpjsonServers) {
      if (!merged.disabledMcpjsonServers.includes(name)) merged.disabledMcpjsonServers.push(name);
    }
    Object.assign(merged.env, settings.env);
    if (settings.disableAllHooks !== undefined) disableAllHooks = settings.disableAllHooks;
    merged.sources.push(source);
  }
  // `disableAllHooks: true` turns off every source's hooks; a later source's false turns them back on.
  if (disableAllHooks) merged.hooks = {};
  return merged;
}

/** For each event, the matchers of `earlier` then those of `later`; all of them run. */
export function mergeHooks(earlier: HookSettings, later: HookSettings): HookSettings {
  const out: HookSettings = {};
  for (const event of HOOK_EVENTS) {
    const matchers = [...(earlier[event] ?? []), ...(later[event] ?? [])];
    if (matchers.length > 0) out[event] = matchers;
  }
  return out;
}
