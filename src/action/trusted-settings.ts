import { readFileSync } from 'node:fs';
import {
  loadRepoSettings,
  mergeSettings,
  repoSettingsRef,
  settingsInput,
  type SettingsSource,
  type TrustedSettings,
} from '../config/index.js';
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

/**
 * The repository's `.claude/settings.json` from the base branch of a pull request (else the
 * default branch), never from a head a pull request can change, then the input's settings.
 */
export async function trustedSettings(
  gh: GitHub,
  where: { owner: string; repo: string },
  context: TaskContext,
  input: SettingsSource | null,
  io: ActionIo,
): Promise<TrustedSettings> {
  const { ref, kind } = repoSettingsRef({ pull: context.pull ?? null, defaultBranch: context.repo.defaultBranch });
  const repo = await loadRepoSettings(gh, where, ref, io.info, kind);
  return mergeSettings([repo, input].filter((s): s is SettingsSource => s !== null));
}
