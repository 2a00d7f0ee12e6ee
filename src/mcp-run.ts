import type { TrustedSettings } from './config/index.js';
import type { McpConfig, McpToolSet } from './tools/mcp/index.js';

/** One MCP configuration and where it came from. */
export interface McpSource {
  text: string;
  source: string;
  /** The `mcp-config` input / --mcp-config: its servers are allowed by being configured. */
  configured: boolean;
}

export interface StartedMcp {
  tools: McpToolSet;
  /** Values the configuration expanded from the environment: to redact everywhere. */
  secrets: string[];
  /** `mcp__<server>` allow rules for the servers configured by the run's own input. */
  allow: string[];
}

/**
 * The repository's `.mcp.json` counts only where the trusted settings enable it
 * (`enableAllProjectMcpServers`, or by name in `enabledMcpjsonServers`).
 */
function enabled(config: McpConfig, trusted: TrustedSettings): McpConfig {
  if (trusted.enableAllProjectMcpServers) return config;
  return { servers: new Map([...config.servers].filter(([name]) => trusted.enabledMcpjsonServers.includes(name))) };
}

/** Starts the configured MCP servers together; null when there are none. A malformed configuration throws, naming it. */
export async function startMcp(
  sources: readonly McpSource[],
  trusted: TrustedSettings,
  o: { env: Readonly<Record<string, string | undefined>>; cwd: string; outputLimit: number; log: (m: string) => void; signal: AbortSignal },
): Promise<StartedMcp | null> {
  // The MCP client loads only for a run that has servers to start: most runs have none.
  if (sources.length === 0) return null;
  const { expandMcpConfig, mergeMcpConfigs, parseMcpConfig, serverPrefixes, startMcpServers } = await import('./tools/mcp/index.js');
  const parsed = sources.map((s) => ({
    ...s,
    config: s.configured ? parseMcpConfig(s.text, s.source) : enabled(parseMcpConfig(s.text, s.source), trusted),
  }));
  const merged = mergeMcpConfigs(...parsed.map((p) => p.config));
  if (merged.servers.size === 0) return null;
  const { servers, secrets } = expandMcpConfig(merged, o.env);
  const configured = new Set(parsed.filter((p) => p.configured).flatMap((p) => [...p.config.servers.keys()]));
  const prefixes = serverPrefixes(servers.map((s) => s.name));
  const allow = servers.filter((s) => configured.has(s.name)).map((s) => `mcp__${prefixes.get(s.name) ?? s.name}`);
  const tools = await startMcpServers(servers, { env: o.env, log: o.log, outputLimit: o.outputLimit, cwd: o.cwd, signal: o.signal });
  return { tools, secrets, allow };
}

/** The servers that did not start, in a sentence for the final comment. */
export function mcpNote(mcp: StartedMcp | null): string | undefined {
  const failures = mcp?.tools.failures ?? [];
  if (failures.length === 0) return undefined;
  return `MCP servers left out: ${failures.map((f) => `${f.server} (${f.reason.split('\n')[0]!.slice(0, 200)})`).join('; ')}.`;
}
