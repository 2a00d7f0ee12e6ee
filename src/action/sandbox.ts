import { parseAllowedDomains } from '../network/hosts.js';
import { realpathSync } from 'node:fs';
import type { Sandbox, SandboxOptions } from '../sandbox/index.js';
import { locateGitDirs } from '../git/git-dir.js';
import { toolEnvironment } from '../tools/env.js';
import type { ActionIo } from './io.js';
import { load } from './lazy.js';
import type { RunnerEnv } from './runner.js';
import type { ActionSettings } from './inputs.js';

export type PrepareSandbox = (options: SandboxOptions) => Promise<Sandbox>;

/** The sandbox Bash commands run in on this runner, said in the log (as a warning when there is none). */
export async function jobSandbox(
  settings: ActionSettings,
  runner: RunnerEnv,
  env: NodeJS.ProcessEnv,
  io: ActionIo,
  prepare?: PrepareSandbox,
): Promise<Sandbox> {
  // RUNNER_TEMP holds the step's GITHUB_OUTPUT/GITHUB_ENV files and checkout's credentials: out of reach.
  const hide = [runner.RUNNER_TEMP].filter((p): p is string => typeof p === 'string' && p.length > 0);
  const sandbox = await (prepare ?? (await load.sandbox()).prepareSandbox)({
    mode: settings.sandbox,
    network: settings.network,
    allowedDomains: allowedDomains(settings),
    workspace: realpathSync(runner.GITHUB_WORKSPACE),
    ...(env['HOME'] ? { home: env['HOME'] } : {}),
    hide,
    readOnlyInWorkspace: gitDirs(runner.GITHUB_WORKSPACE),
    env: toolEnvironment(env),
    githubHosted: env['RUNNER_ENVIRONMENT'] === 'github-hosted',
  });
  (sandbox.kind === 'none' && settings.sandbox !== 'off' ? io.warning : io.info)(`agent-action: ${sandbox.description}`);
  return sandbox;
}

/** The hosts of allowed-domains (checked when the inputs were read). */
export function allowedDomains(settings: ActionSettings): string[] {
  const parsed = parseAllowedDomains(settings.allowedDomains);
  return 'entries' in parsed ? parsed.entries : [];
}

/**
 * The repository's whole git dir (and where a `.git` file points, when that is in the workspace):
 * the action commits and pushes for the model, and its own git must find there only what it left.
 */
function gitDirs(workspace: string): string[] {
  const dirs = locateGitDirs(workspace);
  return [...new Set(['.git', ...(dirs ? [dirs.gitDir, dirs.commonDir] : [])])];
}

/** What the final comment must say about the sandbox: that commands ran without one, if they did. */
export function sandboxNote(sandbox: Sandbox, settings: ActionSettings): string | undefined {
  return sandbox.kind === 'none' && settings.sandbox !== 'off' ? sandbox.description : undefined;
}

/** The hosts the allowlist refused, by count, and how to admit one: for the final comment and the summary. */
export function networkNote(sandbox: Sandbox): string | undefined {
  const refused = Object.entries(sandbox.networkRefused?.() ?? {}).sort((a, b) => b[1] - a[1]);
  if (refused.length === 0) return undefined;
  const listed = refused.map(([host, n]) => `\`${host}\` (${n})`).join(', ');
  return `The network allowlist refused: ${listed}. To allow a host, add it to \`allowed-domains\` (\`+host\` keeps the default list).`;
}
