/**
 * Names MCP tools are offered under: `mcp__<server>__<tool>`, as in Claude Code, so permission
 * rules written for it (`mcp__github`, `mcp__github__create_issue`) keep working. Every name must
 * match the Messages API's pattern and be unique; what cannot be kept as is gets a short hash.
 */
import { createHash } from 'node:crypto';

/** The Messages API's rule for tool names. */
export const MCP_TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

const MAX_NAME = 64;
const PREFIX = 'mcp__';
const SEPARATOR = '__';
/** Long server names are cut so that the tool part keeps most of the 64 characters. */
export const MAX_SERVER_PART = 24;
const HASH_LENGTH = 6;

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, HASH_LENGTH);
}

function clean(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** Cuts text to fit length with a hash of key at the end; the hash tells apart names cut alike. */
function hashed(text: string, length: number, key: string): string {
  return `${text.slice(0, Math.max(0, length - HASH_LENGTH - 1))}-${shortHash(key)}`;
}

/**
 * The server part may contain no `__` and may not end in `_`: rules are read by splitting at the
 * first `__` after `mcp` (see mcpParts), and `mcp__a___t` would read as server `a`, tool `_t`.
 */
function serverBase(name: string): string {
  const part = clean(name).replace(/_{2,}/g, '_').replace(/_+$/, '');
  const base = part === '' ? 'server' : part;
  // A cut may leave a `_` before the hash: harmless, since the hash then ends the part.
  return base.length > MAX_SERVER_PART ? hashed(base, MAX_SERVER_PART, name) : base;
}

/**
 * Gives every item a unique name: first those whose clean name is the real one (so `a_b` keeps
 * `a_b` even after `a.b` was listed), then the others in order; a taken name gets a hash.
 */
function assign(
  items: readonly string[],
  base: (item: string) => string,
  retry: (item: string, attempt: number) => string,
  taken: Set<string>,
  exact: (item: string, name: string) => boolean,
): Map<string, string> {
  const names = new Map<string, string>();
  const unique = [...new Set(items)];
  const ordered = [...unique.filter((item) => exact(item, base(item))), ...unique.filter((item) => !exact(item, base(item)))];
  for (const item of ordered) {
    let name = base(item);
    for (let attempt = 0; taken.has(name); attempt++) name = retry(item, attempt);
    taken.add(name);
    names.set(item, name);
  }
  // Callers list in server order; the map keeps that order rather than the exact-first one.
  return new Map(unique.map((item) => [item, names.get(item) ?? '']));
}

/** The `mcp__<part>` part of each server's tool names, unique, in the given order. */
export function serverPrefixes(servers: readonly string[]): Map<string, string> {
  return assign(
    servers,
    serverBase,
    (server, attempt) => hashed(serverBase(server), MAX_SERVER_PART, `${server}\0${attempt}`),
    new Set(),
    (server, part) => server === part,
  );
}

/**
 * The offered name of each of a server's tools (real name -> offered name). taken holds the names
 * other servers already use and is added to, so names stay unique across servers.
 */
export function toolNames(prefix: string, tools: readonly string[], taken: Set<string>): Map<string, string> {
  const head = `${PREFIX}${prefix}${SEPARATOR}`;
  const budget = MAX_NAME - head.length;
  const part = (tool: string): string => {
    const cleaned = clean(tool) || 'tool';
    return cleaned.length > budget ? hashed(cleaned, budget, tool) : cleaned;
  };
  return assign(
    tools,
    (tool) => head + part(tool),
    (tool, attempt) => head + hashed(part(tool), budget, `${tool}\0${attempt}`),
    taken,
    (tool, name) => name === head + tool,
  );
}
