import { DEFAULT_ALLOWED_DOMAINS, hostPolicy, parseAllowedDomains } from '../../src/network/hosts.js';

const entriesOf = (text: string | undefined): string[] => {
  const parsed = parseAllowedDomains(text);
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed.entries;
};
const errorOf = (text: string): string => {
  const parsed = parseAllowedDomains(text);
  return 'error' in parsed ? parsed.error : `no error: ${parsed.entries.join(',')}`;
};

describe('parseAllowedDomains', () => {
  test('nothing given is the default list', () => {
    expect(entriesOf(undefined)).toEqual(DEFAULT_ALLOWED_DOMAINS);
    expect(entriesOf('')).toEqual(DEFAULT_ALLOWED_DOMAINS);
    expect(entriesOf(' \n , \n')).toEqual(DEFAULT_ALLOWED_DOMAINS);
  });

  test('the default list names the registries and code hosts of a build', () => {
    for (const host of ['registry.npmjs.org', 'pypi.org', 'files.pythonhosted.org', 'crates.io', 'proxy.golang.org', 'sum.golang.org']) {
      expect(DEFAULT_ALLOWED_DOMAINS).toContain(host);
    }
    for (const host of ['repo.maven.apache.org', 'rubygems.org', 'deb.debian.org', 'archive.ubuntu.com', 'github.com', 'api.github.com']) {
      expect(DEFAULT_ALLOWED_DOMAINS).toContain(host);
    }
    expect(DEFAULT_ALLOWED_DOMAINS).toEqual(expect.arrayContaining(['*.githubusercontent.com', 'ghcr.io', 'registry.yarnpkg.com']));
    expect(entriesOf(DEFAULT_ALLOWED_DOMAINS.join(','))).toEqual(DEFAULT_ALLOWED_DOMAINS);
  });

  test('a list of +entries extends the default list, commas or newlines, without repeats', () => {
    expect(entriesOf('+example.com, +*.corp.example\n+registry.npmjs.org')).toEqual([
      ...DEFAULT_ALLOWED_DOMAINS,
      'example.com',
      '*.corp.example',
    ]);
  });

  test('a plain list replaces the default list', () => {
    expect(entriesOf('example.com\n  localhost:8080 ,[::1]:9000, 10.0.0.1')).toEqual([
      'example.com',
      'localhost:8080',
      '[::1]:9000',
      '10.0.0.1',
    ]);
  });

  test('a list mixing +entries and plain ones is refused, naming both', () => {
    expect(errorOf('+example.com, other.org')).toMatch(/"\+example\.com" extends the default list and "other\.org" replaces it/);
  });

  test.each([
    ['https://example.com', /is a URL: list its host \(example\.com\)/],
    ['example.com/path', /not a host name/],
    ['exa mple.com', /not a host name/],
    ['*', /not a host name/],
    ['*example.com', /not a host name/],
    ['*.com', /too broad/],
    ['*.127.0.0.1', /a wildcard covers names/],
    ['example.com:0', /1-65535/],
    ['example.com:70000', /1-65535/],
    ['example.com:http', /a port is a number/],
    ['[example.com]', /only an IPv6 address/],
  ])('%s is refused with a reason', (entry, reason) => {
    expect(errorOf(`good.example, ${entry}`)).toMatch(reason);
    expect(errorOf(`good.example, ${entry}`)).toContain(entry);
  });

  test('a + with no host after it is refused', () => {
    expect(errorOf('+example.com, +')).toMatch(/"\+" names no host/);
  });
});

describe('hostPolicy', () => {
  test('a bare name allows that name on any port, without case or a trailing dot', () => {
    const policy = hostPolicy(['Example.COM']);
    expect(policy.allows('example.com', 443)).toBe(true);
    expect(policy.allows('EXAMPLE.com.', 8080)).toBe(true);
    expect(policy.allows('www.example.com', 443)).toBe(false);
    expect(policy.allows('example.com.evil.test', 443)).toBe(false);
    expect(policy.allows('notexample.com', 443)).toBe(false);
    expect(policy.entries).toEqual(['Example.COM']);
  });

  test('*.name covers its subdomains at any depth, not the name itself', () => {
    const policy = hostPolicy(['*.githubusercontent.com']);
    expect(policy.allows('raw.githubusercontent.com', 443)).toBe(true);
    expect(policy.allows('a.b.githubusercontent.com', 443)).toBe(true);
    expect(policy.allows('githubusercontent.com', 443)).toBe(false);
    expect(policy.allows('evilgithubusercontent.com', 443)).toBe(false);
    expect(hostPolicy(['*.example.com', 'example.com']).allows('example.com', 80)).toBe(true);
  });

  test('host:port allows that port only', () => {
    const policy = hostPolicy(['example.com:8443', '*.corp.example:22']);
    expect(policy.allows('example.com', 8443)).toBe(true);
    expect(policy.allows('example.com', 443)).toBe(false);
    expect(policy.allows('git.corp.example', 22)).toBe(true);
    expect(policy.allows('git.corp.example', 443)).toBe(false);
  });

  test('an IP address only when listed as an address', () => {
    const policy = hostPolicy(['127.0.0.1', 'localhost', '*.example.com']);
    expect(policy.allows('127.0.0.1', 80)).toBe(true);
    expect(policy.allows('127.0.0.2', 80)).toBe(false);
    expect(policy.allows('localhost', 80)).toBe(true);
    expect(hostPolicy(['localhost']).allows('127.0.0.1', 80)).toBe(false);
    expect(hostPolicy(['127.0.0.1']).allows('localhost', 80)).toBe(false);
    expect(hostPolicy(['*.0.0.1']).allows('127.0.0.1', 80)).toBe(false);
  });

  test('IPv6 in brackets, with or without a port, in any spelling', () => {
    const policy = hostPolicy(['[::1]:8080', '2001:db8::1']);
    expect(policy.allows('::1', 8080)).toBe(true);
    expect(policy.allows('[::1]', 8080)).toBe(true);
    expect(policy.allows('0:0:0:0:0:0:0:1', 8080)).toBe(true);
    expect(policy.allows('::1', 80)).toBe(false);
    expect(policy.allows('2001:DB8:0:0:0:0:0:1', 443)).toBe(true);
    expect(policy.allows('2001:db8::2', 443)).toBe(false);
  });

  test('localhost is a name like any other', () => {
    expect(hostPolicy(['example.com']).allows('localhost', 80)).toBe(false);
    expect(hostPolicy(['localhost:3000']).allows('LOCALHOST.', 3000)).toBe(true);
  });

  test('a host that is not a name or an address is never allowed', () => {
    const policy = hostPolicy(['*.example.com']);
    expect(policy.allows('a@b.example.com', 80)).toBe(false);
    expect(policy.allows('a b.example.com', 80)).toBe(false);
    expect(policy.allows('', 80)).toBe(false);
  });

  test('the default list allows the registries over https and nothing else', () => {
    const policy = hostPolicy(DEFAULT_ALLOWED_DOMAINS);
    expect(policy.allows('registry.npmjs.org', 443)).toBe(true);
    expect(policy.allows('objects.githubusercontent.com', 443)).toBe(true);
    expect(policy.allows('example.com', 443)).toBe(false);
    expect(policy.allows('localhost', 80)).toBe(false);
  });
});
