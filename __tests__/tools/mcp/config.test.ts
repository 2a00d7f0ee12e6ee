import { expandMcpConfig, McpConfigError, mergeMcpConfigs, parseMcpConfig } from '../../../src/tools/mcp/index.js';

function errorOf(action: () => unknown): McpConfigError {
  try {
    action();
  } catch (error) {
    if (error instanceof McpConfigError) return error;
    throw error;
  }
  throw new Error('expected an McpConfigError');
}

describe('parseMcpConfig', () => {
  it('reads stdio and remote servers in file order, with defaults', () => {
    const config = parseMcpConfig(
      JSON.stringify({
        mcpServers: {
          github: { command: 'npx', args: ['-y', 'server-github'], env: { TOKEN: '${GITHUB_PAT}' } },
          plain: { type: 'stdio', command: 'node' },
          api: { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${API_TOKEN}' } },
          streamed: { type: 'streamable-http', url: 'https://example.com/s' },
          legacy: { type: 'sse', url: 'https://example.com/sse' },
          bare: { url: 'https://example.com/bare' },
        },
      }),
      '.mcp.json',
    );
    expect([...config.servers.keys()]).toEqual(['github', 'plain', 'api', 'streamed', 'legacy', 'bare']);
    expect(config.servers.get('github')).toEqual({
      type: 'stdio',
      command: 'npx',
      args: ['-y', 'server-github'],
      env: { TOKEN: '${GITHUB_PAT}' },
      source: '.mcp.json',
    });
    expect(config.servers.get('plain')).toMatchObject({ type: 'stdio', args: [], env: {} });
    expect(config.servers.get('api')).toMatchObject({ type: 'http', headers: { Authorization: 'Bearer ${API_TOKEN}' } });
    expect(config.servers.get('streamed')).toMatchObject({ type: 'http', headers: {} });
    expect(config.servers.get('legacy')).toMatchObject({ type: 'sse' });
    expect(config.servers.get('bare')).toMatchObject({ type: 'http', url: 'https://example.com/bare' });
  });

  it('accepts a byte order mark, unknown keys, an empty file and a server named __proto__', () => {
    const config = parseMcpConfig('\uFEFF{"mcpServers": {"__proto__": {"command": "x", "oauth": {}}}, "other": 1}', 'a');
    expect([...config.servers.keys()]).toEqual(['__proto__']);
    expect(parseMcpConfig('{}', 'b').servers.size).toBe(0);
  });
});

describe('parseMcpConfig errors', () => {
  it('names the source, the server and the key of every problem', () => {
    const text = JSON.stringify({
      mcpServers: {
        one: { args: ['x'] },
        two: { command: 'node', args: 'not-an-array' },
        three: { type: 'websocket', url: 'ws://x' },
        four: { type: 'http', headers: { A: 1 } },
        five: 'node server.js',
      },
    });
    const error = errorOf(() => parseMcpConfig(text, '.mcp.json (base branch main)'));
    expect(error.source).toBe('.mcp.json (base branch main)');
    const lines = error.message.split('\n');
    expect(lines).toEqual([
      '.mcp.json (base branch main): MCP server "one": command: required',
      '.mcp.json (base branch main): MCP server "two": args: expected an array of strings',
      '.mcp.json (base branch main): MCP server "three": type: unknown transport "websocket"; expected "stdio", "http" or "sse"',
      '.mcp.json (base branch main): MCP server "four": url: required',
      '.mcp.json (base branch main): MCP server "four": headers.A: expected a string',
      '.mcp.json (base branch main): MCP server "five": expected an object',
    ]);
  });

  it('rejects text that is not JSON, or not an object of servers', () => {
    expect(errorOf(() => parseMcpConfig('{', 'x.json')).message).toMatch(/^x\.json: not valid JSON: /);
    expect(errorOf(() => parseMcpConfig('[]', 'x.json')).message).toBe('x.json: (top level): expected a JSON object');
    const servers = errorOf(() => parseMcpConfig('{"mcpServers": []}', 'x.json'));
    expect(servers.message).toBe('x.json: mcpServers: expected an object of servers');
  });
});

describe('mergeMcpConfigs', () => {
  it('lets a later configuration replace a whole server entry and keeps the rest', () => {
    const project = parseMcpConfig('{"mcpServers": {"a": {"command": "a", "env": {"X": "1"}}, "b": {"command": "b"}}}', 'project');
    const local = parseMcpConfig('{"mcpServers": {"a": {"command": "a2"}, "c": {"command": "c"}}}', 'local');
    const merged = mergeMcpConfigs(project, local);
    expect([...merged.servers.keys()]).toEqual(['a', 'b', 'c']);
    expect(merged.servers.get('a')).toEqual({ type: 'stdio', command: 'a2', args: [], env: {}, source: 'local' });
    expect(merged.servers.get('b')?.source).toBe('project');
  });
});

describe('expandMcpConfig', () => {
  const text = JSON.stringify({
    mcpServers: {
      local: {
        command: '${NODE_BIN:-node}',
        args: ['--root', '${ROOT}', '${EMPTY:-fallback}', '$NOT_A_REFERENCE', '${FLAG}'],
        env: { TOKEN: '${GITHUB_PAT}', MODE: '${MODE:-dev}' },
      },
      remote: { type: 'http', url: '${BASE_URL:-https://example.com}/mcp', headers: { Authorization: 'Bearer ${API_TOKEN}' } },
    },
  });
  const env = {
    ROOT: '/workspace/repository',
    EMPTY: '',
    FLAG: '1',
    GITHUB_PAT: 'ghp_0123456789abcdef',
    API_TOKEN: 'sk-test-abcdefgh',
    UNUSED_SECRET: 'never-referenced-value',
  };

  it('expands ${VAR} and ${VAR:-default} everywhere and returns values read from env as secrets', () => {
    const { servers, secrets } = expandMcpConfig(parseMcpConfig(text, '.mcp.json'), env);
    expect(servers).toEqual([
      {
        name: 'local',
        source: '.mcp.json',
        type: 'stdio',
        command: 'node',
        args: ['--root', '/workspace/repository', 'fallback', '$NOT_A_REFERENCE', '1'],
        env: { TOKEN: 'ghp_0123456789abcdef', MODE: 'dev' },
      },
      {
        name: 'remote',
        source: '.mcp.json',
        type: 'http',
        url: 'https://example.com/mcp',
        headers: { Authorization: 'Bearer sk-test-abcdefgh' },
      },
    ]);
    // Short values ('1') and the file's own defaults are not secrets; unreferenced variables are not either.
    expect(secrets.sort()).toEqual(['/workspace/repository', 'ghp_0123456789abcdef', 'sk-test-abcdefgh']);
  });

  it('reports every unset variable without a default, naming the server, key and variable', () => {
    const error = errorOf(() => expandMcpConfig(parseMcpConfig(text, '.mcp.json'), { FLAG: '1' }));
    expect(error.source).toBe('.mcp.json');
    expect(error.message.split('\n')).toEqual([
      '.mcp.json: MCP server "local": args[1]: ${ROOT} is not set (write ${ROOT:-default} for a default)',
      '.mcp.json: MCP server "local": env.TOKEN: ${GITHUB_PAT} is not set (write ${GITHUB_PAT:-default} for a default)',
      '.mcp.json: MCP server "remote": headers.Authorization: ${API_TOKEN} is not set (write ${API_TOKEN:-default} for a default)',
    ]);
  });

  it('refuses a url that is not http(s) once expanded', () => {
    const config = parseMcpConfig('{"mcpServers": {"r": {"type": "http", "url": "${U}"}}}', 'f');
    expect(errorOf(() => expandMcpConfig(config, { U: 'file:///etc/passwd' })).message).toBe(
      'f: MCP server "r": url: expected an http:// or https:// URL',
    );
  });
});
