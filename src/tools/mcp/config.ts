/**
 * MCP server configuration in Claude Code's `.mcp.json` format:
 * `{"mcpServers": {"<name>": {"command", "args", "env"} | {"type": "http", "url", "headers"}}}`.
 * Parsing checks the shape only; `${VAR}` references are expanded later, from an environment the
 * caller injects, because the same file is read before the run's environment is known.
 */
import * as z from '../../core/schema.js';

/** A configuration that cannot be used; callers map it to a configuration error of the run. */
export class McpConfigError extends Error {
  constructor(
    /** Where the configuration came from, e.g. `.mcp.json (base branch main)`. */
    readonly source: string,
    message: string,
  ) {
    super(message);
    this.name = 'McpConfigError';
  }
}

export interface McpStdioConfig {
  type: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  source: string;
}

/** `http` is streamable HTTP; `sse` is the older HTTP+SSE transport. */
export interface McpRemoteConfig {
  type: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
  source: string;
}

export type McpServerConfig = McpStdioConfig | McpRemoteConfig;

/** Servers by name, in file order. A Map, so that a server called `__proto__` is just a name. */
export interface McpConfig {
  readonly servers: ReadonlyMap<string, McpServerConfig>;
}

export type ResolvedServer = (Omit<McpStdioConfig, 'source'> | Omit<McpRemoteConfig, 'source'>) & { name: string; source: string };

const text = z.string({ error: 'expected a string' });
const StringMap = z._default(z.record(z.string(), text, { error: 'expected an object of strings' }), {});

// Loose objects: Claude Code knows more keys (e.g. OAuth settings) that must not make a file unusable here.
const StdioSchema = z.looseObject({
  command: text.check(z.minLength(1, 'must not be empty')),
  args: z._default(z.array(text, { error: 'expected an array of strings' }), []),
  env: StringMap,
});
const RemoteSchema = z.looseObject({ url: text.check(z.minLength(1, 'must not be empty')), headers: StringMap });
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
// Not z.record: it drops a key named `__proto__`, and a server must not vanish without a word.
const FileSchema = z.looseObject(
  { mcpServers: z._default(z.custom<Record<string, unknown>>(isObject, { error: 'expected an object of servers' }), {}) },
  { error: 'expected a JSON object' },
);

const REMOTE_TYPES: Readonly<Record<string, 'http' | 'sse'>> = { http: 'http', 'streamable-http': 'http', sse: 'sse' };

function issuesText(issues: readonly z.core.$ZodIssue[], prefix: string): string[] {
  return issues.map((issue) => {
    const key = issue.path.map(String).join('.') || '(top level)';
    const problem = issue.code === 'invalid_type' && issue.input === undefined ? 'required' : issue.message;
    return `${prefix}${key}: ${problem.replace(/^Invalid input: /, '')}`;
  });
}

/** One server entry; errors are collected as lines naming the source, the server and the key. */
function parseServer(name: string, value: unknown, source: string, errors: string[]): McpServerConfig | undefined {
  const where = `${source}: MCP server "${name}": `;
  if (!isObject(value)) {
    errors.push(`${where}expected an object`);
    return undefined;
  }
  const declared: unknown = 'type' in value ? value.type : undefined;
  // Without a type, a url alone means a remote server: friendlier than "command: required".
  const inferred = declared === undefined && 'url' in value && !('command' in value) ? 'http' : declared;
  if (inferred === undefined || inferred === 'stdio') {
    const result = StdioSchema.safeParse(value, { reportInput: true });
    if (!result.success) errors.push(...issuesText(result.error.issues, where));
    else return { type: 'stdio', command: result.data.command, args: result.data.args, env: result.data.env, source };
    return undefined;
  }
  const remote = typeof inferred === 'string' ? REMOTE_TYPES[inferred] : undefined;
  if (remote === undefined) {
    errors.push(`${where}type: unknown transport ${JSON.stringify(inferred)}; expected "stdio", "http" or "sse"`);
    return undefined;
  }
  const result = RemoteSchema.safeParse(value, { reportInput: true });
  if (!result.success) errors.push(...issuesText(result.error.issues, where));
  else return { type: remote, url: result.data.url, headers: result.data.headers, source };
  return undefined;
}

function parseJson(content: string, source: string): unknown {
  try {
    // Editors on Windows may save a byte order mark, which JSON.parse rejects.
    return JSON.parse(content.replace(/^\uFEFF/, '')) as unknown;
  } catch (error) {
    throw new McpConfigError(source, `${source}: not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Parses one `.mcp.json` text; every problem is reported at once, each naming source, server and key. */
export function parseMcpConfig(content: string, source: string): McpConfig {
  const file = FileSchema.safeParse(parseJson(content, source), { reportInput: true });
  if (!file.success) throw new McpConfigError(source, issuesText(file.error.issues, `${source}: `).join('\n'));
  const servers = new Map<string, McpServerConfig>();
  const errors: string[] = [];
  for (const [name, value] of Object.entries(file.data.mcpServers)) {
    if (name.trim() === '') {
      errors.push(`${source}: MCP server "": a server needs a name`);
      continue;
    }
    const server = parseServer(name, value, source, errors);
    if (server) servers.set(name, server);
  }
  if (errors.length > 0) throw new McpConfigError(source, errors.join('\n'));
  return { servers };
}

/** Later configurations win, server by server (whole entries, not key by key), as Claude Code's scopes do. */
export function mergeMcpConfigs(...configs: readonly McpConfig[]): McpConfig {
  const servers = new Map<string, McpServerConfig>();
  for (const config of configs) {
    for (const [name, server] of config.servers) servers.set(name, server);
  }
  return { servers };
}

/** Values shorter than this are not redacted: '' or '1' would blank out half of every log. */
export const MIN_SECRET_LENGTH = 8;

type Env = Readonly<Record<string, string | undefined>>;
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** Expands `${VAR}` and `${VAR:-default}` (the default also when VAR is empty, as in the shell). */
function expander(env: Env, secrets: Set<string>, errors: string[]) {
  return (value: string, where: string): string =>
    value.replace(REFERENCE, (_match, name: string, fallback: string | undefined) => {
      const found = env[name];
      if (found !== undefined && (found !== '' || fallback === undefined)) {
        // Anything read from the environment may be a credential; the file's own defaults are public.
        if (found.length >= MIN_SECRET_LENGTH) secrets.add(found);
        return found;
      }
      if (fallback !== undefined) return fallback;
      errors.push(`${where}\${${name}} is not set (write \${${name}:-default} for a default)`);
      return '';
    });
}

function expandMap(map: Record<string, string>, expand: (value: string, where: string) => string, where: string) {
  return Object.fromEntries(Object.entries(map).map(([key, value]) => [key, expand(value, `${where}${key}: `)]));
}

function resolve(name: string, server: McpServerConfig, expand: (v: string, w: string) => string, errors: string[]): ResolvedServer {
  const where = `${server.source}: MCP server "${name}": `;
  if (server.type === 'stdio') {
    const command = expand(server.command, `${where}command: `);
    const args = server.args.map((arg, i) => expand(arg, `${where}args[${i}]: `));
    return { name, source: server.source, type: 'stdio', command, args, env: expandMap(server.env, expand, `${where}env.`) };
  }
  const url = expand(server.url, `${where}url: `);
  if (!/^https?:$/.test(safeProtocol(url))) errors.push(`${where}url: expected an http:// or https:// URL`);
  return { name, source: server.source, type: server.type, url, headers: expandMap(server.headers, expand, `${where}headers.`) };
}

function safeProtocol(url: string): string {
  try {
    return new URL(url).protocol;
  } catch {
    return '';
  }
}

/**
 * Expands every server's `${VAR}` references from env (the action's environment, injected).
 * secrets lists each value taken from env, of MIN_SECRET_LENGTH characters or more, for redaction.
 */
export function expandMcpConfig(config: McpConfig, env: Env): { servers: ResolvedServer[]; secrets: string[] } {
  const secrets = new Set<string>();
  const errors: string[] = [];
  const expand = expander(env, secrets, errors);
  const failedSources = new Set<string>();
  const servers = [...config.servers].map(([name, server]) => {
    const before = errors.length;
    const resolved = resolve(name, server, expand, errors);
    if (errors.length > before) failedSources.add(server.source);
    return resolved;
  });
  if (errors.length > 0) throw new McpConfigError([...failedSources].join(', '), errors.join('\n'));
  return { servers, secrets: [...secrets] };
}
