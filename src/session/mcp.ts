import type { TrustedSettings } from '../config/index.js';
import type { McpConfig, McpToolSet, StdioParams } from '../tools/mcp/index.js';
import type { Wrap } from '../sandbox/types.js';
import type { TrustedCode } from '../trusted-code/index.js';

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
  const on = (name: string) =>
    !trusted.disabledMcpjsonServers.includes(name) && (trusted.enableAllProjectMcpServers || trusted.enabledMcpjsonServers.includes(name));
  return { servers: new Map([...config.servers].filter(([name]) => on(name))) };
}

export interface StartMcpOptions {
  env: Readonly<Record<string, string | undefined>>;
  /** The trusted settings' `env`: every stdio server gets it beneath its own configured env. */
  variables?: Readonly<Record<string, string>>;
  cwd: string;
  outputLimit: number;
  log: (m: string) => void;
  signal: AbortSignal;
  /** How a stdio server is started (see stdioLauncher); default: as configured. */
  launch?: (p: StdioParams) => StdioParams;
}

async function parseSources(sources: readonly McpSource[], trusted: TrustedSettings) {
  const { parseMcpConfig } = await import('../tools/mcp/index.js');
  return sources.map((s) => ({
    ...s,
    config: s.configured ? parseMcpConfig(s.text, s.source) : enabled(parseMcpConfig(s.text, s.source), trusted),
  }));
}

/** The command and args of every stdio server that would start, as configured (before `${VAR}` expansion). */
export async function stdioArgvs(sources: readonly McpSource[], trusted: TrustedSettings): Promise<string[][]> {
  if (sources.length === 0) return [];
  const parsed = await parseSources(sources, trusted);
  return parsed.flatMap((p) => [...p.config.servers.values()].flatMap((s) => (s.type === 'stdio' ? [[s.command, ...s.args]] : [])));
}

/**
 * Stdio servers run like Bash: inside the sandbox (when there is one) with their configured env
 * on top of the allowlist, and on a pull request run with the trusted ref's files in place of
 * the workspace's for what their argv names.
 */
export function stdioLauncher(wrap: Wrap, code: TrustedCode | undefined): (p: StdioParams) => StdioParams {
  return (p) => {
    const { launch, extras } = code ? code.stdio(p) : { launch: p, extras: {} };
    const [command, ...args] = wrap([launch.command, ...launch.args], { ...extras, env: { ...extras.env, ...launch.env } });
    return { ...launch, command: command!, args };
  };
}

/** Starts the configured MCP servers together; null when there are none. A malformed configuration throws, naming it. */
export async function startMcp(sources: readonly McpSource[], trusted: TrustedSettings, o: StartMcpOptions): Promise<StartedMcp | null> {
  // The MCP client loads only for a run that has servers to start: most runs have none.
  if (sources.length === 0) return null;
  const { expandMcpConfig, mergeMcpConfigs, serverPrefixes, startMcpServers } = await import('../tools/mcp/index.js');
  const parsed = await parseSources(sources, trusted);
  const merged = mergeMcpConfigs(...parsed.map((p) => p.config));
  if (merged.servers.size === 0) return null;
  const { servers, secrets } = expandMcpConfig(merged, o.env);
  const configured = new Set(parsed.filter((p) => p.configured).flatMap((p) => [...p.config.servers.keys()]));
  const prefixes = serverPrefixes(servers.map((s) => s.name));
  const allow = servers.filter((s) => configured.has(s.name)).map((s) => `mcp__${prefixes.get(s.name) ?? s.name}`);
  const withVariables = servers.map((s) => (s.type === 'stdio' && o.variables ? { ...s, env: { ...o.variables, ...s.env } } : s));
  const tools = await startMcpServers(withVariables, {
    env: o.env,
    log: o.log,
    outputLimit: o.outputLimit,
    cwd: o.cwd,
    signal: o.signal,
    ...(o.launch ? { launch: o.launch } : {}),
  });
  return { tools, secrets, allow };
}

/** The servers that did not start, in a sentence for the final comment. */
export function mcpNote(mcp: StartedMcp | null): string | undefined {
  const failures = mcp?.tools.failures ?? [];
  if (failures.length === 0) return undefined;
  return `MCP servers left out: ${failures.map((f) => `${f.server} (${f.reason.split('\n')[0]!.slice(0, 200)})`).join('; ')}.`;
}
