import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { SessionMcp } from '../session/index.js';
import { stdioLauncher, type McpSource } from '../session/mcp.js';
import type { Sandbox } from '../sandbox/index.js';
import type { CliOptions } from './args.js';

/** --mcp-config values (JSON, or a file from the shell's directory), then `.mcp.json` of --cwd unless --setting-sources none. */
function sources(options: CliOptions): McpSource[] {
  const given = options.mcpConfigs.map((value, i): McpSource => {
    const inline = value.trim().startsWith('{');
    return {
      text: inline ? value : readFileSync(resolve(value), 'utf8'),
      source: inline ? `--mcp-config #${i + 1}` : value,
      configured: true,
    };
  });
  const project = join(resolve(options.cwd), '.mcp.json');
  const local =
    options.settingSources !== 'none' && existsSync(project)
      ? [{ text: readFileSync(project, 'utf8'), source: '.mcp.json', configured: false }]
      : [];
  return [...local, ...given];
}

/** The run's MCP servers, started together before the first request; stdio ones in the sandbox of --sandbox. */
export function cliMcp(options: CliOptions, sandbox: Sandbox | null, say: (m: string) => void): SessionMcp {
  return {
    sources: sources(options),
    cwd: resolve(options.cwd),
    log: say,
    ...(sandbox ? { launcher: () => Promise.resolve(stdioLauncher(sandbox.wrap, undefined)) } : {}),
    onStarted: (mcp) => {
      for (const failure of mcp.tools.failures) say(`MCP server ${failure.server} left out: ${failure.reason}`);
    },
  };
}
