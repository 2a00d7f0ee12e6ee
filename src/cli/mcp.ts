import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TrustedSettings } from '../config/index.js';
import { startMcp, stdioLauncher, type McpSource, type StartedMcp } from '../session/mcp.js';
import type { Wrap } from '../sandbox/index.js';
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
export async function cliMcp(
  options: CliOptions,
  trusted: TrustedSettings,
  o: { env: NodeJS.ProcessEnv; log: (m: string) => void; signal: AbortSignal; wrap?: Wrap },
): Promise<StartedMcp | null> {
  const { wrap, ...rest } = o;
  const launch = wrap ? { launch: stdioLauncher(wrap, undefined) } : {};
  return startMcp(sources(options), trusted, {
    ...rest,
    ...launch,
    cwd: resolve(options.cwd),
    outputLimit: options.settings.toolOutputLimit,
  });
}
