import { DEFAULT_ALLOWED_DOMAINS, hostPolicy, type HostPolicy } from '../network/hosts.js';
import { domainRuleMatches } from '../tools/permissions/decide.js';
import { WEB_SEARCH_TOOL, webSearchAllowed, webSearchToolSet } from '../tools/web-search.js';
import type { Limits } from '../agent/limits.js';
import type { UsageMeter } from '../agent/meter.js';
import { GENERAL_PURPOSE, mergeAgents } from '../core/agents.js';
import { withSubagents } from './subagents.js';
import type { ToolSet } from '../core/tools.js';
import { defaultRules, type TaskOptions } from './options.js';
import { anyHooks } from '../tools/hooks/schema.js';
import { toolEnvironment } from '../tools/env.js';
import { loadRules, type Rules } from '../tools/permissions/rules.js';
import { toolStack } from '../tools/stack.js';
import { skillToolSet } from '../extensions/index.js';
import type { Workspace } from '../tools/workspace.js';

export interface TaskToolsContext {
  workspace: Workspace;
  meter: UsageMeter;
  limits: Limits;
  /** Waited for before the first tool runs (the work tree's baseline). */
  ready: () => Promise<unknown>;
  onWrite: (path: string) => void;
}

/** What the run's tool set is built from: the session's options that concern tools, no more. */
export type ToolOptions = Pick<
  TaskOptions,
  | 'settings'
  | 'model'
  | 'env'
  | 'rules'
  | 'hooks'
  | 'launchHook'
  | 'wrap'
  | 'variables'
  | 'agents'
  | 'modelFor'
  | 'skills'
  | 'extraTools'
  | 'tools'
  | 'transcript'
  | 'events'
  | 'allowedDomains'
  | 'webSearch'
>;

/**
 * WebFetch's hosts: those of allowed-domains and those a `WebFetch(domain:...)` allow rule matches
 * (as Claude Code matches them: the host by name, any port). Deny rules are the permission layer's.
 */
function fetchHosts(o: ToolOptions, rules: Rules): HostPolicy {
  const listed = hostPolicy(o.allowedDomains ?? DEFAULT_ALLOWED_DOMAINS);
  const named = rules.allow.filter((r) => r.tool === 'WebFetch' && r.specifier?.startsWith('domain:'));
  if (named.length === 0) return listed;
  return {
    entries: listed.entries,
    allows: (host, port) => listed.allows(host, port) || named.some((r) => domainRuleMatches(r.specifier!, { name: host, port })),
  };
}

/** WebSearch, where the provider runs it and a bare allow rule offers it; a rule naming queries is said to offer nothing. */
function webSearchTools(o: ToolOptions, rules: Rules): ToolSet[] {
  const narrowed = rules.allow.filter((r) => r.tool === WEB_SEARCH_TOOL && r.specifier !== undefined);
  if (narrowed.length > 0 && o.webSearch) {
    const listed = narrowed.map((r) => `${r.text} (${r.source})`).join(', ');
    o.events?.onNotice?.(`WebSearch runs at the model provider, where no rule can check its queries: ${listed} offers it nothing`);
  }
  if (!webSearchAllowed(rules)) return [];
  if (!o.webSearch) {
    o.events?.onNotice?.('WebSearch is not offered: this provider has no server-side web search (the Anthropic API and Vertex AI do)');
    return [];
  }
  return [webSearchToolSet()];
}

/** The hooks' code (and its process handling) loads only for a run that configures some. */
async function hooksFor(o: ToolOptions, cwd: string, env: Record<string, string>) {
  if (!o.hooks || !anyHooks(o.hooks)) return null;
  const { taskHooks } = await import('./hooks.js');
  return taskHooks({ settings: o.hooks, cwd, env, wrap: o.wrap, launch: o.launchHook, transcript: o.transcript, events: o.events });
}

/** One line for the rules that name tools this product lacks: kept, they allow and deny nothing. */
function noteUnknownTools(rules: Rules, notice: ((message: string) => void) | undefined): void {
  const unknown = [...rules.allow, ...rules.deny].filter((r) => r.unknownTool);
  if (unknown.length === 0 || !notice) return;
  const listed = unknown.map((r) => `${r.text} (${r.source})`).join(', ');
  notice(`rules for tools agent-action does not have allow and deny nothing: ${listed}`);
}

/** The rules, the hooks, and the tools they guard: built-in, subagents. */
export async function taskTools(o: ToolOptions, c: TaskToolsContext) {
  const rules = await loadRules(o.rules ?? defaultRules(o.settings));
  noteUnknownTools(rules, o.events?.onNotice);
  const env = { ...toolEnvironment(o.env), ...o.variables };
  const { workspace } = c;
  const hooks = await hooksFor(o, workspace.root, env);
  // The whole stack, known once built: a subagent's calls go through the same rules, hooks and tracking.
  const late: { tools?: ToolSet } = {};
  const { settings } = o;
  const withTask = (set: ToolSet) =>
    withSubagents(set, {
      // general-purpose first; a file or input of that name replaces it.
      types: mergeAgents([GENERAL_PURPOSE], o.agents ?? []),
      modelFor: o.modelFor,
      model: o.model,
      tools: () => late.tools ?? set,
      meter: c.meter,
      limits: c.limits,
      maxParallel: settings.maxParallelAgents,
      maxTokens: settings.maxOutputTokens,
      streamRetries: settings.maxRetries,
      compactAtTokens: settings.compactAtTokens,
      transcript: o.transcript,
      events: o.events,
      onEnd: hooks?.subagentEnd,
    });
  const subagents = withTask;
  const stack = toolStack({
    workspace,
    env,
    outputLimit: settings.toolOutputLimit,
    rules,
    wrap: o.wrap,
    ready: c.ready,
    extra: [
      ...(o.extraTools ?? []),
      ...(o.skills && o.skills.length > 0 ? [skillToolSet(o.skills, workspace.root)] : []),
      ...webSearchTools(o, rules),
    ],
    shape: o.tools,
    subagents,
    hooks: hooks?.tools,
    onTodos: o.events?.onTodos,
    onRefusal: o.events?.onRefusal,
    onWrite: c.onWrite,
    fetchHosts: fetchHosts(o, rules),
  });
  late.tools = stack.tools;
  return { ...stack, hooks };
}
