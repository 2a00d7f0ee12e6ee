/**
 * The hosts sandboxed processes may reach under `network: allowlist` (contract section 15):
 * `example.com` that name alone, `*.example.com` its subdomains (not the name itself),
 * `host:port` that port only, an IP literal only when listed as such (IPv6 in brackets). Names
 * compare without case or a trailing dot; a listed name is reachable whatever it resolves to.
 */

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
  /** The name or address, lower case; for a wildcard, the suffix after `*.`. */
  host: string;
  wildcard: boolean;
  port?: number;
}

const normalHost = (host: string): string =>
  host
    .trim()
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^\[(.*)\]$/, '$1');

/** One entry, or why it is not one. */
function parseEntry(text: string): Entry | string {
  let rest = text.trim();
  let port: number | undefined;
  const bracketed = /^\[([0-9a-f:.]+)\](?::(\d+))?$/i.exec(rest);
  if (bracketed) {
    rest = bracketed[1]!;
    if (bracketed[2]) port = Number(bracketed[2]);
  } else if (!rest.includes('::')) {
    const withPort = /^(.*):(\d+)$/.exec(rest);
    if (withPort) {
      rest = withPort[1]!;
      port = Number(withPort[2]);
    }
  }
  if (port !== undefined && (port < 1 || port > 65535)) return `"${text}": the port must be 1-65535`;
  const wildcard = rest.startsWith('*.');
  const host = normalHost(wildcard ? rest.slice(2) : rest);
  if (host.includes(':') && /^[0-9a-f:.]+$/.test(host)) return { host, wildcard: false, ...(port ? { port } : {}) };
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(host)) {
    return `"${text}" is not a host name, *.name, an IP address or one of them with :port`;
  }
  return { host, wildcard, ...(port ? { port } : {}) };
}

/**
 * The `allowed-domains` text (commas or newlines). A list whose entries all start with `+`
 * extends the default list; any other list replaces it; none at all is the default list.
 */
export function parseAllowedDomains(text: string | undefined): { entries: string[] } | { error: string } {
  const items = (text ?? '')
    .split(/[,\n]/)
    .map((t) => t.trim())
    .filter(Boolean);
  if (items.length === 0) return { entries: [...DEFAULT_ALLOWED_DOMAINS] };
  const extend = items.every((t) => t.startsWith('+'));
  const own = extend ? items.map((t) => t.slice(1).trim()) : items;
  for (const item of own) {
    const parsed = parseEntry(item);
    if (typeof parsed === 'string') return { error: parsed };
  }
  return { entries: extend ? [...DEFAULT_ALLOWED_DOMAINS, ...own] : own };
}

export function hostPolicy(entries: readonly string[]): HostPolicy {
  const parsed = entries.map(parseEntry).filter((e): e is Entry => typeof e !== 'string');
  return {
    entries,
    allows(host, port) {
      const name = normalHost(host);
      return parsed.some((e) => (e.port === undefined || e.port === port) && (e.wildcard ? name.endsWith(`.${e.host}`) : name === e.host));
    },
  };
}
