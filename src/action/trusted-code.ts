import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { authEnv } from '../git/credentials.js';
import { inheritedEnv } from '../git/safe.js';
import type { PullContext } from '../github/context.js';
import { stdioArgvs } from '../session/mcp.js';
import type { Sandbox } from '../sandbox/index.js';
import { needsTrustedCode, prepareTrustedCode, type TrustedCode } from '../trusted-code/index.js';
import type { ActionIo } from './io.js';
import type { RunnerEnv } from './runner.js';
import type { ActionSettings } from './inputs.js';
import type { Trusted } from './trusted-config.js';

export interface JobTrustedCodeInput {
  trusted: Trusted;
  pull: PullContext;
  sandbox: Promise<Sandbox>;
  /** The workspace's checkout of the pull request: the copies are made once it is done. */
  ready: Promise<unknown>;
  settings: ActionSettings;
  runner: RunnerEnv;
  io: ActionIo;
}

/**
 * On a pull request run, the trusted ref's copies of what the trusted hooks, MCP servers and
 * skills run or read (see trusted-code/): the workspace holds the pull request's head, whose
 * author must not change the code of their own run's guards. Other runs work on the trusted ref
 * itself, so none is needed. Any failure fails the run: running the head's code instead is not
 * a fallback.
 */
export async function jobTrustedCode(o: JobTrustedCodeInput): Promise<TrustedCode | undefined> {
  const { trusted, runner } = o;
  const servers = await stdioArgvs(trusted.mcp, trusted.settings);
  if (!needsTrustedCode({ hooks: trusted.settings.hooks, servers, skills: trusted.extensions.skills.length > 0 })) return undefined;
  const started = Date.now();
  const tempDir = join(runner.RUNNER_TEMP ?? join(runner.GITHUB_WORKSPACE, '..'), 'agent-action');
  mkdirSync(tempDir, { recursive: true });
  const code = await prepareTrustedCode({
    workspace: runner.GITHUB_WORKSPACE,
    tempDir,
    ref: trusted.ref,
    gitEnv: { ...inheritedEnv(), GIT_TERMINAL_PROMPT: '0', ...authEnv(o.settings.githubToken, runner.GITHUB_SERVER_URL) },
    hooks: trusted.settings.hooks,
    servers,
    skills: trusted.extensions.skills.length > 0,
    sandboxed: (await o.sandbox).kind === 'bubblewrap',
    ready: o.ready,
  });
  const how = code.sandboxed ? 'bound over the workspace for them' : 'run from a copy outside the workspace';
  const ms = Date.now() - started;
  o.io.info(
    `agent-action: hooks, MCP servers and skills use ${code.units.join(', ')} of ${trusted.ref} (${code.commit.slice(0, 12)}), ${how} (${ms} ms)`,
  );
  return code;
}
