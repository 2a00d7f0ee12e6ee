/**
 * One connection to one MCP server: connect (with a deadline), list its tools, call one, close.
 * Requests go through the SDK's client with lenient result schemas: the SDK's own would reject a
 * whole tool list for one tool with a malformed schema, and a whole result for one new block type.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import * as z from '../../core/schema.js';
import { VERSION } from '../../version.js';
import { toolEnvironment } from '../env.js';
import type { ResolvedServer } from './config.js';
import type { McpCallResult } from './content.js';
import { ProcessGroupTransport, type StdioParams } from './stdio.js';

export interface ListedTool {
  /** The name the server knows it by. */
  name: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  readOnly: boolean;
}

export interface ToolListing {
  /** At most maxTools of them. */
  tools: ListedTool[];
  /** How many usable tools the server listed, offered or not. */
  total: number;
  /** Names of tools left out as unusable: malformed entries, or tools that need task-based calls. */
  skipped: string[];
}

export interface ConnectOptions {
  /** The action's environment (injected); stdio servers get its allowlisted part. */
  env: Readonly<Record<string, string | undefined>>;
  /** Where stdio servers run (the workspace). */
  cwd?: string | undefined;
  /** How a stdio server is started: in the sandbox, with the trusted ref's files. Default: as configured. */
  launch?: ((p: StdioParams) => StdioParams) | undefined;
  /** For connecting and the first tool list together. */
  timeoutMs: number;
  /** Tools the server lists beyond this many are left out (and counted). */
  maxTools: number;
  onToolsChanged: () => void;
  /** Aborting it ends the server while it starts. */
  signal?: AbortSignal | undefined;
}

/** Keeps descriptions from taking over the request; Claude Code cuts MCP descriptions at the same length. */
export const MAX_DESCRIPTION = 2048;
/** A server that keeps returning cursors must not keep the run listing forever. */
const MAX_LIST_PAGES = 100;
const HTTP_CLOSE_MS = 2000;

/** An optional field whose value of the wrong type reads as absent, rather than failing the whole object. */
function lenient<T extends z.core.SomeType>(schema: T): z.ZodMiniCatch<z.ZodMiniOptional<T>> {
  return z.catch(z.optional(schema), undefined);
}

const ListResult = z.looseObject({ tools: z.array(z.unknown()), nextCursor: lenient(z.string()) });
const ToolEntry = z.looseObject({
  name: z.string().check(z.minLength(1)),
  title: lenient(z.string()),
  description: lenient(z.string()),
  inputSchema: z.optional(z.unknown()),
  annotations: lenient(z.looseObject({ title: z.optional(z.string()), readOnlyHint: z.optional(z.boolean()) })),
  execution: lenient(z.looseObject({ taskSupport: z.optional(z.string()) })),
});
const CallResult = z.looseObject({
  content: lenient(z.array(z.unknown())),
  isError: lenient(z.boolean()),
  structuredContent: z.optional(z.unknown()),
  toolResult: z.optional(z.unknown()),
});

/** The Messages API refuses these at the top of input_schema; the server still validates the input itself. */
const TOP_LEVEL_REFUSED = ['anyOf', 'oneOf', 'allOf'];

/** An input schema the API takes: an object schema as is, anything else one that accepts any object. */
export function objectSchema(schema: unknown): ListedTool['inputSchema'] {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return { type: 'object', additionalProperties: true };
  const kept = Object.fromEntries(Object.entries(schema).filter(([key]) => !TOP_LEVEL_REFUSED.includes(key)));
  if (kept.type !== undefined && kept.type !== 'object') return { type: 'object', additionalProperties: true };
  return { ...kept, type: 'object' };
}

function clip(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}

function messageOf(error: unknown): string | undefined {
  // Duck-typed: errors from another realm (fetch's, under a test runner's vm) fail instanceof Error.
  if (typeof error !== 'object' || error === null || !('message' in error)) return undefined;
  return typeof error.message === 'string' ? error.message : undefined;
}

/** An error's message, with its cause's: `fetch failed` alone does not say the connection was refused. */
export function message(error: unknown): string {
  const text = messageOf(error) ?? String(error);
  const cause = typeof error === 'object' && error !== null && 'cause' in error ? messageOf(error.cause) : undefined;
  return cause === undefined || text.includes(cause) ? text : `${text} (${cause})`;
}

function transportFor(server: ResolvedServer, o: ConnectOptions): Transport {
  if (server.type === 'stdio') {
    // The configured env is the server's own, deliberately given: not filtered like the inherited part.
    const env = { ...toolEnvironment(o.env), ...server.env };
    const params = { command: server.command, args: server.args, env, cwd: o.cwd };
    return new ProcessGroupTransport(o.launch ? o.launch(params) : params);
  }
  const requestInit = { headers: server.headers };
  const url = new URL(server.url);
  return server.type === 'http' ? new StreamableHTTPClientTransport(url, { requestInit }) : new SSEClientTransport(url, { requestInit });
}

function withDeadline<T>(work: Promise<T>, ms: number, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(what())), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

export class McpServerConnection {
  /** Why the server is gone, once it is (exit code, stderr); undefined while it runs. */
  deadReason: string | undefined;
  private closing: Promise<void> | undefined;

  private constructor(
    readonly server: ResolvedServer,
    private readonly client: Client,
    private readonly transport: Transport,
  ) {}

  /** Connects and lists the tools within o.timeoutMs; on any failure the server is ended and the error thrown. */
  static async connect(server: ResolvedServer, o: ConnectOptions): Promise<{ connection: McpServerConnection; listing: ToolListing }> {
    const client = new Client({ name: 'agent-action', version: VERSION }, { capabilities: {} });
    const connection = new McpServerConnection(server, client, transportFor(server, o));
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => o.onToolsChanged());
    client.onclose = () => {
      if (!connection.closing) connection.deadReason = connection.describeEnd('the connection closed');
    };
    const seconds = Math.round(o.timeoutMs / 100) / 10;
    const abort = () => void connection.close();
    o.signal?.addEventListener('abort', abort, { once: true });
    try {
      if (o.signal?.aborted) throw new Error('startup was cancelled');
      const work = (async () => {
        await client.connect(connection.transport, { timeout: o.timeoutMs });
        return connection.listTools(o.maxTools);
      })();
      const listing = await withDeadline(work, o.timeoutMs, () => `no answer to initialize and tools/list within ${seconds} s`);
      return { connection, listing };
    } catch (error) {
      // The error, not deadReason: a failed first request also closes the connection, which says less.
      const reason = connection.describeEnd(message(error));
      await connection.close();
      throw new Error(reason);
    } finally {
      o.signal?.removeEventListener('abort', abort);
    }
  }

  /** A reason with what the process said on its way out, which usually names the real problem. */
  private describeEnd(reason: string): string {
    if (!(this.transport instanceof ProcessGroupTransport)) return reason;
    const exit = this.transport.exitDescription;
    const stderr = this.transport.stderr.text().trim();
    return [reason, exit, stderr === '' ? undefined : `stderr: ${stderr}`].filter((part) => part !== undefined).join('; ');
  }

  /** Every page of tools/list; tools that need task-based calls are left out, since calls here are plain. */
  async listTools(maxTools: number): Promise<ToolListing> {
    const tools: ListedTool[] = [];
    const seen = new Set<string>();
    const skipped: string[] = [];
    let total = 0;
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const result = await this.client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, ListResult);
      for (const entry of result.tools) {
        const tool = ToolEntry.safeParse(entry);
        if (!tool.success || tool.data.execution?.taskSupport === 'required') {
          skipped.push(tool.success ? tool.data.name : 'an entry without a name');
          continue;
        }
        if (seen.has(tool.data.name)) continue;
        seen.add(tool.data.name);
        total++;
        if (tools.length < maxTools) tools.push(listed(tool.data));
      }
      cursor = result.nextCursor;
      if (cursor === undefined) break;
    }
    return { tools, total, skipped };
  }

  callTool(name: string, args: Record<string, unknown>, signal: AbortSignal, timeoutMs: number): Promise<McpCallResult> {
    // The SDK's default request timeout (60 s) would cut calls MCP_TOOL_TIMEOUT allows.
    const options = { signal, timeout: timeoutMs, maxTotalTimeout: timeoutMs };
    return this.client.request({ method: 'tools/call', params: { name, arguments: args } }, CallResult, options);
  }

  /** Ends the session and the process (group); idempotent, never throws. */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    this.deadReason ??= 'it was shut down';
    try {
      // A streamable HTTP session is ended explicitly, so the server can free it; a dead server must not hold us up.
      if (this.transport instanceof StreamableHTTPClientTransport && this.transport.sessionId !== undefined) {
        await withDeadline(this.transport.terminateSession(), HTTP_CLOSE_MS, () => 'session termination timed out');
      }
    } catch {
      // Best effort: the transport is closed below either way.
    }
    await this.client.close().catch(() => undefined);
    await this.transport.close().catch(() => undefined);
  }
}

function listed(tool: z.infer<typeof ToolEntry>): ListedTool {
  const description = tool.description ?? tool.title ?? tool.annotations?.title ?? `The ${tool.name} tool.`;
  return {
    name: tool.name,
    description: clip(description, MAX_DESCRIPTION),
    inputSchema: objectSchema(tool.inputSchema),
    readOnly: tool.annotations?.readOnlyHint === true,
  };
}
