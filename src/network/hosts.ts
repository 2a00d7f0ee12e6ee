/**
 * The hosts sandboxed processes may reach under `network: allowlist`:
 * - `example.com`: that name, any port; `example.com:8443`: that port only.
 * - `*.example.com`: every subdomain (`a.example.com`, `a.b.example.com`), not `example.com`
 *   itself, as in Claude Code's sandbox; list both to allow both. A wildcard needs at least two
 *   labels after `*.` (`*.com` is refused as too broad) and never matches an IP address.
 * - An IP address only when listed as an address (`127.0.0.1`, `[::1]`, `[::1]:8080`, or a bare
 *   `::1` that takes no port); a name never covers the addresses it resolves to, nor the reverse.
 * - `localhost` is a name like any other.
 * Names compare without case or a trailing dot; a listed name is reachable whatever it resolves to.
 */
import { isIP } from 'node:net';

/** The registries and code hosts a build needs. */
export const DEFAULT_ALLOWED_DOMAINS: readonly string[] = [
  // npm and Yarn
  'registry.npmjs.org',
  'registry.yarnpkg.com',
  'repo.yarnpkg.com',
  // PyPI and its file host
  'pypi.org',
  'files.pythonhosted.org',
  // crates.io
  'crates.io',
  'index.crates.io',
  'static.crates.io',
  // Go's module proxy and checksum database
  'proxy.golang.org',
  'sum.golang.org',
  // Maven Central
  'repo.maven.apache.org',
  'repo1.maven.org',
  // RubyGems
  'rubygems.org',
  'index.rubygems.org',
  // Debian and Ubuntu archives
  'deb.debian.org',
  'security.debian.org',
  'archive.ubuntu.com',
  'security.ubuntu.com',
  // GitHub
  'github.com',
  'api.github.com',
  '*.githubusercontent.com',
  'ghcr.io',
];

export interface HostPolicy {
  readonly entries: readonly string[];
  allows(host: string, port: number): boolean;
}

interface Entry {
  /** The name or address, lower case (an IPv6 address in its shortest form); for a wildcard, the suffix after `*.`. */
  host: string;
  wildcard: boolean;
  ip: boolean;
  port?: number;
}

const NAME = /^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/;

/** A host as compared: lower case, no trailing dot, no brackets, IPv6 in its shortest form. */
function normalHost(host: string): string {
  const bare = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  return isIP(bare) === 6 ? new URL(`http://[${bare}]/`).hostname.slice(1, -1) : bare;
}

/** One entry, or why it is not one. */
function parseEntry(text: string): Entry | string {
  const given = text.trim();
  const url = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(given);
  if (url) return `"${given}" is a URL: list its host (${url[1]})`;
  let rest = given;
  let port: number | undefined;
  const bracketed = /^\[([^\]]*)\](?::(\d+))?$/.exec(rest);
  if (bracketed) {
    if (isIP(bracketed[1]!) !== 6) return `"${given}": only an IPv6 address goes in brackets`;
    rest = bracketed[1]!;
    if (bracketed[2] !== undefined) port = Number(bracketed[2]);
  } else if ((rest.match(/:/g) ?? []).length === 1) {
    const withPort = /^(.*):(\d+)$/.exec(rest);
    if (!withPort) return `"${given}": a port is a number (host:port)`;
    rest = withPort[1]!;
    port = Number(withPort[2]);
  }
  if (port !== undefined && (port < 1 || port > 65535)) return `"${given}": the port must be 1-65535`;
  const wildcard = rest.startsWith('*.');
  const host = normalHost(wildcard ? rest.slice(2) : rest);
  const withPort = port !== undefined ? { port } : {};
  if (isIP(host) !== 0) {
    if (wildcard) return `"${given}": a wildcard covers names, not addresses; list the address itself`;
    return { host, wildcard: false, ip: true, ...withPort };
  }
  if (!NAME.test(host)) return `"${given}" is not a host name, *.name, an IP address or one of them with :port`;
  if (wildcard && !host.includes('.')) return `"${given}" is too broad: a wildcard needs a domain of two labels or more (*.example.com)`;
  return { host, wildcard, ip: false, ...withPort };
}

/**
 * The `allowed-domains` text (commas or newlines). A list whose entries all start with `+`
 * extends the default list; any other list replaces it (a list mixing both is refused, as it
 * would be read neither way the writer meant); none at all is the default list.
 */
export function parseAllowedDomains(text: string | undefined): { entries: string[] } | { error: string } {
  const items = (text ?? '')
    .split(/[,\n]/)
    .map((t) => t.trim())
    .filter(Boolean);
  if (items.length === 0) return { entries: [...DEFAULT_ALLOWED_DOMAINS] };
  const plus = items.filter((t) => t.startsWith('+'));
  if (plus.length > 0 && plus.length < items.length) {
    return {
      error: `"${plus[0]}" extends the default list and "${items.find((t) => !t.startsWith('+'))}" replaces it: start every entry with + to extend the default list, or none to replace it`,
    };
  }
  const own = plus.length > 0 ? items.map((t) => t.slice(1).trim()) : items;
  for (const item of own) {
    if (item === '') return { error: '"+" names no host: write +host to add one to the default list' };
    const parsed = parseEntry(item);
    if (typeof parsed === 'string') return { error: parsed };
  }
  return { entries: [...new Set(plus.length > 0 ? [...DEFAULT_ALLOWED_DOMAINS, ...own] : own)] };
}

/** The policy of parsed entries (parseAllowedDomains'); an entry that does not parse admits nothing. */
export function hostPolicy(entries: readonly string[]): HostPolicy {
  const parsed = entries.map(parseEntry).filter((e): e is Entry => typeof e !== 'string');
  return {
    entries,
    allows(host, port) {
      const name = normalHost(host);
      const ip = isIP(name) !== 0;
      if (!ip && !NAME.test(name)) return false;
      return parsed.some((e) => {
        if (e.port !== undefined && e.port !== port) return false;
        if (e.ip || ip) return e.ip === ip && e.host === name;
        return e.wildcard ? name.endsWith(`.${e.host}`) : name === e.host;
      });
    },
  };
}
