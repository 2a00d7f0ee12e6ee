import { mergeSettings, parseClaudeSettings } from '../../src/config/index.js';
import { stdioArgvs, type McpSource } from '../../src/session/mcp.js';

const PROJECT: McpSource = {
  text: JSON.stringify({ mcpServers: { db: { command: 'db-server' }, web: { command: 'web-server' }, lint: { command: 'lint-server' } } }),
  source: '.mcp.json',
  configured: false,
};

function trusted(value: unknown) {
  return mergeSettings([{ source: 'settings', settings: parseClaudeSettings(JSON.stringify(value), 'settings', () => {}) }]);
}

describe("which of the project's .mcp.json servers start", () => {
  test('none unless the trusted settings enable them', async () => {
    expect(await stdioArgvs([PROJECT], trusted({}))).toEqual([]);
  });

  test('all with enableAllProjectMcpServers, or those named in enabledMcpjsonServers', async () => {
    expect(await stdioArgvs([PROJECT], trusted({ enableAllProjectMcpServers: true }))).toEqual([
      ['db-server'],
      ['web-server'],
      ['lint-server'],
    ]);
    expect(await stdioArgvs([PROJECT], trusted({ enabledMcpjsonServers: ['web'] }))).toEqual([['web-server']]);
  });

  test('disabledMcpjsonServers wins over both', async () => {
    expect(await stdioArgvs([PROJECT], trusted({ enableAllProjectMcpServers: true, disabledMcpjsonServers: ['db'] }))).toEqual([
      ['web-server'],
      ['lint-server'],
    ]);
    expect(await stdioArgvs([PROJECT], trusted({ enabledMcpjsonServers: ['web'], disabledMcpjsonServers: ['web'] }))).toEqual([]);
  });

  test("the run's own mcp-config input is not subject to the project switches", async () => {
    const configured = { ...PROJECT, source: 'mcp-config input', configured: true };
    expect(await stdioArgvs([configured], trusted({ disabledMcpjsonServers: ['db'] }))).toHaveLength(3);
  });
});
