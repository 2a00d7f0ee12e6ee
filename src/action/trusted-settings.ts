import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  loadRepoSettings,
  mergeSettings,
  repoSettingsRef,
  settingsInput,
  type SettingsSource,
  type TrustedSettings,
} from '../config/index.js';
import { agentsFromJson, loadRepoExtensions, mergeAgents, type Extensions } from '../extensions/index.js';
import type { GitHub } from '../github/client.js';
import { readRepoFile } from '../github/repo.js';
import type { McpSource } from '../mcp-run.js';
import type { TaskContext } from '../github/context.js';
import type { ActionIo } from './io.js';

/**
 * The `settings` input, read at the very start of the job: a path names the workspace as the
 * workflow left it, before the action checks out any pull request code.
 */
export function settingsFromInput(value: string, workspace: string, io: ActionIo): SettingsSource | null {
  return settingsInput(value, workspace, (path) => readFileSync(path, 'utf8'), io.info);
}

/** What the run takes from trusted sources only: settings, and the agents, skills and commands. */
export interface Trusted {
  settings: TrustedSettings;
  extensions: Extensions;
  /** MCP configurations: the repository's `.mcp.json` (used only where the settings enable it), then the input's. */
  mcp: McpSource[];
}

/** The `mcp-config` input, read at the start like the settings input: JSON, or a file of the workspace. */
export function mcpFromInput(value: string, workspace: string): McpSource | null {
  if (value === '') return null;
  const inline = value.startsWith('{');
  const text = inline ? value : readFileSync(resolve(workspace, value), 'utf8');
  return { text, source: inline ? 'the mcp-config input' : `mcp-config ${value}`, configured: true };
}

/**
 * The repository's `.claude/settings.json`, agents, skills and commands from the base branch of a
 * pull request (else the default branch), never from a head a pull request can change; then the
 * inputs' settings and agents.
 */
export async function trustedConfig(
  gh: GitHub,
  where: { owner: string; repo: string },
  context: TaskContext,
  inputs: { settings: SettingsSource | null; agents: string; mcp: McpSource | null },
  io: ActionIo,
): Promise<Trusted> {
  const { ref, kind } = repoSettingsRef({ pull: context.pull ?? null, defaultBranch: context.repo.defaultBranch });
  const [repo, extensions, mcpJson] = await Promise.all([
    loadRepoSettings(gh, where, ref, io.info, kind),
    loadRepoExtensions(gh, where, ref, io.info),
    readRepoFile(gh, where, '.mcp.json', ref),
  ]);
  const mcp = [
    ...(mcpJson !== null ? [{ text: mcpJson, source: `.mcp.json (${kind} ${ref})`, configured: false }] : []),
    ...(inputs.mcp ? [inputs.mcp] : []),
  ];
  const settings = mergeSettings([repo, inputs.settings].filter((s): s is SettingsSource => s !== null));
  const agents = mergeAgents(extensions.agents, agentsFromJson(inputs.agents, 'the agents input'));
  return { settings, extensions: { ...extensions, agents }, mcp };
}
