import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import {
  loadRepoSettings,
  mergeSettings,
  REPO_SETTINGS_PATH,
  settingsInput,
  type RefKind,
  type SettingsSource,
  type TrustedSettings,
} from '../config/index.js';
import { agentsFromJson, loadRepoExtensions, mergeAgents, type Extensions } from '../extensions/index.js';
import type { GitHub } from '../github/client.js';
import { listRepoDir, readRepoFile } from '../github/repo.js';
import type { McpSource } from '../session/mcp.js';
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
  /** The branch the repository's configuration was read from: its code is the trusted code (trusted-code/). */
  ref: string;
}

/** The `mcp-config` input, read at the start like the settings input: JSON, or a file of the workspace. */
export function mcpFromInput(value: string, workspace: string): McpSource | null {
  if (value === '') return null;
  const inline = value.startsWith('{');
  const text = inline ? value : readFileSync(resolve(workspace, value), 'utf8');
  return { text, source: inline ? 'the mcp-config input' : `mcp-config ${value}`, configured: true };
}

/** What the repository configures at one trusted ref; its log lines wait until it is used. */
export interface RepoConfig {
  settings: SettingsSource | null;
  extensions: Extensions;
  mcpJson: string | null;
  ref: string;
  kind: RefKind;
  log: string[];
}

/**
 * The repository's `.claude/settings.json`, agents, skills, commands and `.mcp.json` at `ref`: the
 * base branch of a pull request (else the default branch), never a head a pull request can change.
 */
export async function readRepoConfig(gh: GitHub, where: { owner: string; repo: string }, ref: string, kind: RefKind): Promise<RepoConfig> {
  const log: string[] = [];
  const say = (m: string) => void log.push(m);
  const mcp = readRepoFile(gh, where, '.mcp.json', ref);
  mcp.catch(() => undefined);
  // One listing of `.claude` says which of its four paths to ask for: most repositories have none.
  const claude = new Set((await listRepoDir(gh, where, '.claude', ref)).map((e) => e.name));
  const [settings, extensions, mcpJson] = await Promise.all([
    claude.has(basename(REPO_SETTINGS_PATH)) ? loadRepoSettings(gh, where, ref, say, kind) : null,
    loadRepoExtensions(gh, where, ref, say, (dir) => claude.has(basename(dir))),
    mcp,
  ]);
  return { settings, extensions, mcpJson, ref, kind, log };
}

/** The repository's configuration, then the inputs' settings and agents. */
export function trustedConfig(
  repo: RepoConfig,
  inputs: { settings: SettingsSource | null; agents: string; mcp: McpSource | null },
  io: ActionIo,
): Trusted {
  for (const line of repo.log) io.info(line);
  const mcp = [
    ...(repo.mcpJson !== null ? [{ text: repo.mcpJson, source: `.mcp.json (${repo.kind} ${repo.ref})`, configured: false }] : []),
    ...(inputs.mcp ? [inputs.mcp] : []),
  ];
  const settings = mergeSettings([repo.settings, inputs.settings].filter((s): s is SettingsSource => s !== null));
  const agents = mergeAgents(repo.extensions.agents, agentsFromJson(inputs.agents, 'the agents input'));
  return { settings, extensions: { ...repo.extensions, agents }, mcp, ref: repo.ref };
}
