/**
 * MCP servers as a ToolSet: every tool of every configured server, offered as
 * `mcp__<server>__<tool>`. Servers start together; one that fails (or never answers) is reported
 * and left out, and the run goes on with the others.
 */
import type { ToolCall, ToolOutcome, ToolSet, ToolSpec } from '../../core/tools.js';
import { capText } from '../output.js';
import type { ResolvedServer } from './config.js';
import { mcpResultToOutcome } from './content.js';
import { serverPrefixes, toolNames } from './names.js';
import { McpServerConnection, message, type ConnectOptions, type ToolListing } from './servers.js';

export { expandMcpConfig, McpConfigError, mergeMcpConfigs, MIN_SECRET_LENGTH, parseMcpConfig } from './config.js';
export type { McpConfig, McpRemoteConfig, McpServerConfig, McpStdioConfig, ResolvedServer } from './config.js';
export { mcpResultToOutcome, type McpCallResult } from './content.js';
export type { StdioParams } from './stdio.js';
export { MCP_TOOL_NAME_PATTERN, serverPrefixes, toolNames } from './names.js';

export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
export const DEFAULT_TOOL_TIMEOUT_MS = 120_000;
/** Tools offered per server; the rest are logged. 200 keeps a request with several servers well within limits. */
export const MAX_TOOLS_PER_SERVER = 200;

export interface McpStartOptions {
  /** The action's environment (injected, never read from process.env here): MCP_TOOL_TIMEOUT, MCP_TIMEOUT, the allowlist. */
  env: Readonly<Record<string, string | undefined>>;
  log: (message: string) => void;
  /** Characters of one result's text kept (head and tail). */
  outputLimit: number;
  /** Where stdio servers run: the workspace. */
  cwd?: string;
  /** How a stdio server is started (in the sandbox, with the trusted ref's files); default as configured. */
  launch?: ConnectOptions['launch'];
  /** Per server, for connecting and listing; else MCP_TIMEOUT from env, else 30 s. */
  connectTimeoutMs?: number;
  maxToolsPerServer?: number;
  /** Aborting it ends servers still starting (a SIGTERM during startup). */
  signal?: AbortSignal;
}

export interface McpServerFailure {
  server: string;
  reason: string;
}

export interface McpToolSet extends ToolSet {
  /** Servers that did not start, in configuration order, for the final comment. */
  readonly failures: readonly McpServerFailure[];
  /** Ends every server (and its child processes); idempotent. */
  close(): Promise<void>;
}

interface Entry {
  server: string;
  connection: McpServerConnection;
  /** The name the server knows the tool by. */
  tool: string;
  spec: ToolSpec;
}

function failed(content: string): ToolOutcome {
  return { content, isError: true };
}

/** A positive whole number of milliseconds from env, else the default (a bad value is logged). */
function millis(env: McpStartOptions['env'], name: string, fallback: number, log: (m: string) => void): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (/^\d+$/.test(raw) && Number(raw) > 0) return Number(raw);
  log(`${name}=${JSON.stringify(raw)} is not a positive number of milliseconds; using ${fallback}`);
  return fallback;
}

function argumentsOf(input: unknown): Record<string, unknown> | undefined {
  if (input === undefined || input === null) return {};
  if (typeof input !== 'object' || Array.isArray(input)) return undefined;
  return Object.fromEntries(Object.entries(input));
}

class McpTools implements McpToolSet {
  readonly failures: McpServerFailure[] = [];
  private readonly connections = new Map<string, McpServerConnection>();
  private readonly names = new Map<string, Map<string, Entry>>();
  private readonly refreshes = new Map<string, number>();
  private entries = new Map<string, Entry>();
  private specList: readonly ToolSpec[] = [];
  private closing: Promise<void> | undefined;

  constructor(
    private readonly order: readonly string[],
    private readonly prefixes: ReadonlyMap<string, string>,
    private readonly o: McpStartOptions & { toolTimeoutMs: number; maxTools: number },
  ) {}

  specs(): readonly ToolSpec[] {
    return this.specList;
  }

  isReadOnly(name: string): boolean {
    return this.entries.get(name)?.spec.readOnly === true;
  }

  async execute(call: ToolCall, signal: AbortSignal): Promise<ToolOutcome> {
    const entry = this.entries.get(call.name);
    if (!entry) return failed(capText(this.unknown(call.name), this.o.outputLimit));
    const { server, tool, connection } = entry;
    if (connection.deadReason !== undefined) {
      return failed(capText(`MCP server "${server}" is not running (${connection.deadReason})`, this.o.outputLimit));
    }
    const args = argumentsOf(call.input);
    if (args === undefined) return failed(`MCP server "${server}": the input of ${tool} must be a JSON object`);
    if (signal.aborted) return failed(`MCP server "${server}": ${tool} was cancelled before it started`);
    try {
      return mcpResultToOutcome(await connection.callTool(tool, args, signal, this.o.toolTimeoutMs), this.o.outputLimit);
    } catch (error) {
      return failed(capText(this.callError(entry, error, signal), this.o.outputLimit));
    }
  }

  private callError({ server, tool, connection }: Entry, error: unknown, signal: AbortSignal): string {
    if (signal.aborted) return `MCP server "${server}": ${tool} was cancelled`;
    if (connection.deadReason !== undefined) return `MCP server "${server}" stopped during the call of ${tool} (${connection.deadReason})`;
    // The SDK's RequestTimeout (-32001); the code is read off the error so a changed class cannot hide it.
    if (typeof error === 'object' && error !== null && 'code' in error && error.code === -32001) {
      return `MCP server "${server}": ${tool} timed out after ${this.o.toolTimeoutMs} ms (MCP_TOOL_TIMEOUT); the call was cancelled`;
    }
    return `MCP server "${server}": ${tool} failed: ${message(error)}`;
  }

  private unknown(name: string): string {
    for (const [server, prefix] of this.prefixes) {
      if (!name.startsWith(`mcp__${prefix}__`)) continue;
      const failure = this.failures.find((f) => f.server === server);
      if (failure) return `MCP server "${server}" is not available: it failed to start (${failure.reason})`;
      return `MCP server "${server}" has no tool ${name}; its tools: ${[...(this.names.get(server)?.keys() ?? [])].join(', ') || 'none'}`;
    }
    return `No MCP tool is named ${name}`;
  }

  /** Offers listing as the server's tools (replacing any it had) and rebuilds the spec list. */
  setTools(server: string, connection: McpServerConnection, listing: ToolListing, changed = false): void {
    this.connections.set(server, connection);
    const taken = new Set([...this.names].filter(([other]) => other !== server).flatMap(([, entries]) => [...entries.keys()]));
    const offered = toolNames(
      this.prefixes.get(server) ?? server,
      listing.tools.map((t) => t.name),
      taken,
    );
    const entries = new Map<string, Entry>();
    for (const tool of listing.tools) {
      const name = offered.get(tool.name) ?? tool.name;
      const spec = { name, description: tool.description, readOnly: tool.readOnly, input_schema: tool.inputSchema };
      entries.set(name, { server, connection, tool: tool.name, spec });
    }
    this.names.set(server, entries);
    // Server order is configuration order, whatever order they finished starting in.
    const all = this.order.flatMap((name) => [...(this.names.get(name)?.values() ?? [])]);
    this.entries = new Map(all.map((entry) => [entry.spec.name, entry]));
    this.specList = all.map((entry) => entry.spec);
    this.logListing(server, listing, changed);
  }

  private logListing(server: string, { tools, total, skipped }: ToolListing, changed: boolean): void {
    const prefix = this.prefixes.get(server) ?? server;
    const what = changed ? 'tool list changed; now ' : '';
    this.o.log(`MCP server "${server}": ${what}${tools.length} tool(s), offered as mcp__${prefix}__<tool>`);
    if (total > tools.length) this.o.log(`MCP server "${server}" lists ${total} tools; only the first ${tools.length} are offered`);
    if (skipped.length > 0) this.o.log(`MCP server "${server}": left out (malformed, or need task-based calls): ${skipped.join(', ')}`);
  }

  /** On notifications/tools/list_changed; only the newest of overlapping refreshes is applied. */
  async refresh(server: string): Promise<void> {
    const connection = this.connections.get(server);
    if (!connection || this.closing) return;
    const generation = (this.refreshes.get(server) ?? 0) + 1;
    this.refreshes.set(server, generation);
    try {
      const listing = await connection.listTools(this.o.maxTools);
      if (this.refreshes.get(server) === generation && !this.closing) this.setTools(server, connection, listing, true);
    } catch (error) {
      if (!this.closing) this.o.log(`MCP server "${server}": could not list its changed tools: ${message(error)}`);
    }
  }

  close(): Promise<void> {
    this.closing ??= Promise.all([...this.connections.values()].map((c) => c.close())).then(() => undefined);
    return this.closing;
  }
}

/**
 * Starts every server concurrently and resolves once each has connected and listed its tools or
 * failed (each within its connect timeout). Failures are logged and listed in `failures`.
 */
export async function startMcpServers(servers: readonly ResolvedServer[], o: McpStartOptions): Promise<McpToolSet> {
  const order = servers.map((s) => s.name);
  const toolTimeoutMs = millis(o.env, 'MCP_TOOL_TIMEOUT', DEFAULT_TOOL_TIMEOUT_MS, o.log);
  const timeoutMs = o.connectTimeoutMs ?? millis(o.env, 'MCP_TIMEOUT', DEFAULT_CONNECT_TIMEOUT_MS, o.log);
  const maxTools = o.maxToolsPerServer ?? MAX_TOOLS_PER_SERVER;
  const tools = new McpTools(order, serverPrefixes(order), { ...o, toolTimeoutMs, maxTools });
  const results = await Promise.all(
    servers.map(async (server) => {
      // A change announced before the first listing is applied may be missing from it: listed again after.
      let ready = false;
      let changedEarly = false;
      const onToolsChanged = (): void => {
        if (ready) void tools.refresh(server.name);
        else changedEarly = true;
      };
      try {
        const options = { env: o.env, cwd: o.cwd, launch: o.launch, timeoutMs, maxTools, onToolsChanged, signal: o.signal };
        const { connection, listing } = await McpServerConnection.connect(server, options);
        tools.setTools(server.name, connection, listing);
        ready = true;
        if (changedEarly) void tools.refresh(server.name);
        return undefined;
      } catch (error) {
        const reason = o.signal?.aborted ? 'startup was cancelled' : message(error);
        o.log(`MCP server "${server.name}" (${server.source}) failed to start: ${reason}`);
        return { server: server.name, reason };
      }
    }),
  );
  tools.failures.push(...results.filter((r) => r !== undefined));
  // Cancelled while others were still starting: those that made it are ended too.
  if (o.signal?.aborted) await tools.close();
  return tools;
}
