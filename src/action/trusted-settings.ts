import { readFileSync } from 'node:fs';
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
  inputs: { settings: SettingsSource | null; agents: string },
  io: ActionIo,
): Promise<Trusted> {
  const { ref, kind } = repoSettingsRef({ pull: context.pull ?? null, defaultBranch: context.repo.defaultBranch });
  const [repo, extensions] = await Promise.all([
    loadRepoSettings(gh, where, ref, io.info, kind),
    loadRepoExtensions(gh, where, ref, io.info),
  ]);
  const settings = mergeSettings([repo, inputs.settings].filter((s): s is SettingsSource => s !== null));
  const agents = mergeAgents(extensions.agents, agentsFromJson(inputs.agents, 'the agents input'));
  return { settings, extensions: { ...extensions, agents } };
}
