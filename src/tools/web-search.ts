/**
 * WebSearch, as Claude Code names it: the Messages API's own web search tool, which the provider
 * runs inside the model's turn. The model's searches and what they found come back as
 * `server_tool_use` and `web_search_tool_result` blocks, kept in the history and sent back as they
 * came; each search is billed per use (prices.ts). Nothing runs here: a client call of the tool
 * (which the API never makes) is an error.
 */
import type { ServerTool, ToolSet, ToolSpec } from '../core/tools.js';
import type { Rules } from './permissions/rules.js';
import { toolSetOf } from './compose.js';

export const WEB_SEARCH_TOOL = 'WebSearch';

/** Searches one model call may make. */
export const WEB_SEARCH_MAX_USES = 5;

export interface WebSearchOptions {
  maxUses?: number;
  /** Only results from these domains (the API takes this or blockedDomains, not both). */
  allowedDomains?: readonly string[];
  blockedDomains?: readonly string[];
}

export function webSearchSpec(o: WebSearchOptions = {}): ToolSpec {
  const server: ServerTool = {
    type: 'web_search_20250305',
    name: 'web_search',
    max_uses: o.maxUses ?? WEB_SEARCH_MAX_USES,
    ...(o.allowedDomains?.length ? { allowed_domains: [...o.allowedDomains] } : {}),
    ...(o.blockedDomains?.length && !o.allowedDomains?.length ? { blocked_domains: [...o.blockedDomains] } : {}),
  };
  return {
    name: WEB_SEARCH_TOOL,
    description: 'Searches the web (run by the model provider); results come back within the same answer.',
    readOnly: true,
    input_schema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
    keyArgument: 'query',
    server,
  };
}

/**
 * Whether the rules offer WebSearch. Its calls run at the provider, past the reach of a rule that
 * names queries: only a bare allow rule offers it, and any deny rule naming it (with or without
 * a specifier) withdraws it.
 */
export function webSearchAllowed(rules: Rules): boolean {
  return (
    rules.allow.some((r) => r.tool === WEB_SEARCH_TOOL && r.specifier === undefined) && !rules.deny.some((r) => r.tool === WEB_SEARCH_TOOL)
  );
}

/** The tool, for a provider that runs it. */
export function webSearchToolSet(o: WebSearchOptions = {}): ToolSet {
  return toolSetOf({
    spec: webSearchSpec(o),
    execute: () =>
      Promise.resolve({
        isError: true,
        content: 'WebSearch runs at the model provider, inside your answer; it cannot be called as a client tool.',
      }),
  });
}
