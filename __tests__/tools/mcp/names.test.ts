import { MCP_TOOL_NAME_PATTERN, serverPrefixes, toolNames } from '../../../src/tools/mcp/index.js';
import { mcpParts } from '../../../src/tools/permissions/rules.js';

const punctuation = '!@#$%^&*()+=[]{};:\'",.<>/?\\|`~ ';

function longName(seed: number, length = 200): string {
  let text = '';
  for (let i = 0; text.length < length; i++)
    text += punctuation.charAt((seed + i) % punctuation.length) + String.fromCharCode(97 + ((seed * 7 + i) % 26));
  return text.slice(0, length);
}

describe('serverPrefixes', () => {
  it('keeps clean names and makes the others fit the rule syntax', () => {
    const prefixes = serverPrefixes(['github', 'my-server', 'my.server', 'a__b', 'trailing_', '', 'émoji🙂']);
    expect(prefixes.get('github')).toBe('github');
    expect(prefixes.get('my-server')).toBe('my-server');
    expect(prefixes.get('my.server')).toBe('my_server');
    // No `__` and no trailing `_`: mcpParts splits at the first `__` after `mcp`.
    expect(prefixes.get('a__b')).toBe('a_b');
    expect(prefixes.get('trailing_')).toBe('trailing');
    expect(prefixes.get('')).toBe('server');
    expect(prefixes.get('émoji🙂')).toBe('_moji');
  });

  it('gives servers that clean to the same name different prefixes, the exact one keeping its name', () => {
    const prefixes = serverPrefixes(['a.b', 'a_b', 'a b']);
    expect(prefixes.get('a_b')).toBe('a_b');
    const values = [...prefixes.values()];
    expect(new Set(values).size).toBe(3);
    for (const value of values) expect(value).toMatch(/^a_b(-[0-9a-f]{6})?$/);
  });

  it('cuts long names with a hash, keeping them unique', () => {
    const names = Array.from({ length: 50 }, (_, i) => longName(i));
    const prefixes = serverPrefixes(names);
    expect(new Set(prefixes.values()).size).toBe(50);
    for (const prefix of prefixes.values()) {
      expect(prefix.length).toBeLessThanOrEqual(24);
      expect(prefix).not.toMatch(/__|_$/);
    }
  });
});

describe('toolNames', () => {
  it('offers mcp__<server>__<tool>, sanitized, and mcpParts reads the server back', () => {
    const names = toolNames('files', ['read_file', 'read.file', 'search files', '__private', 'x__y'], new Set());
    expect(names.get('read_file')).toBe('mcp__files__read_file');
    expect(names.get('read.file')).toMatch(/^mcp__files__read_file-[0-9a-f]{6}$/);
    expect(names.get('search files')).toBe('mcp__files__search_files');
    for (const name of names.values()) expect(mcpParts(name)?.server).toBe('files');
    expect(mcpParts(names.get('x__y') ?? '')).toEqual({ server: 'files', tool: 'x__y' });
    expect(mcpParts(names.get('__private') ?? '')).toEqual({ server: 'files', tool: '__private' });
  });

  it('keeps 500 tools with 200-character punctuation names valid and unique, across two servers', () => {
    const taken = new Set<string>();
    const tools = Array.from({ length: 500 }, (_, i) => longName(i));
    const prefixes = serverPrefixes([longName(1000), longName(1000) + '!']);
    const all: string[] = [];
    for (const prefix of prefixes.values()) {
      const names = toolNames(prefix, tools, taken);
      expect(names.size).toBe(500);
      all.push(...names.values());
    }
    expect(new Set(all).size).toBe(1000);
    for (const name of all) {
      expect(name).toMatch(MCP_TOOL_NAME_PATTERN);
      expect(mcpParts(name)).toBeDefined();
    }
  });

  it('keeps names unique when tools differ only in cut-off characters or punctuation', () => {
    const base = 'x'.repeat(100);
    const tools = [`${base}a`, `${base}b`, 'a.b', 'a,b', 'a b', 'a_b'];
    const names = toolNames('s', tools, new Set());
    expect(new Set(names.values()).size).toBe(tools.length);
    expect(names.get('a_b')).toBe('mcp__s__a_b');
    for (const name of names.values()) expect(name).toMatch(MCP_TOOL_NAME_PATTERN);
  });

  it('is stable: the same listing gives the same names', () => {
    const tools = Array.from({ length: 20 }, (_, i) => longName(i, 90));
    expect([...toolNames('s', tools, new Set())]).toEqual([...toolNames('s', tools, new Set())]);
  });
});
