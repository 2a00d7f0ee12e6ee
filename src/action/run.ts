import { readFileSync } from 'node:fs';
import { createGitHub, type GitHub } from '../github/client.js';
import { parseEvent, type GitHubEvent } from '../github/event.js';
import { authorize, type Authorization } from '../github/permissions.js';
import { findRunTrigger } from '../github/review-trigger.js';
import { markedBy, type Trigger } from '../github/trigger.js';
import type { Model } from '../core/model.js';
import { Redactor } from '../secrets/redactor.js';
import { CredentialCheck } from '../secrets/credential-check.js';
import { readCredentialFiles, type CredentialFiles } from '../secrets/credential-files.js';
import { EarlyContext } from './early-context.js';
import type { ActionIo, ActionOutcome } from './io.js';
import { openGit } from './plan.js';
import { setOutputs } from './report.js';
import { readRunnerEnv, runUrl, type RunnerEnv } from './runner.js';
import type { PrepareSandbox } from './sandbox.js';
import { readSettings, SettingsError, type ActionSettings } from './inputs.js';
import { Thread } from './thread.js';
import { providerFrom } from '../model/registry.js';
import { providerSecrets } from '../model/secrets.js';
import { loadAnswerSchema } from '../structured/schema.js';
import { GitHubAccess, privateKeySecrets } from './access.js';

export type { ActionIo, ActionOutcome } from './io.js';

export interface ActionDeps {
  env: NodeJS.ProcessEnv;
  io: ActionIo;
  signal: AbortSignal;
  /** Defaults to the Anthropic model; tests may hand another. */
  model?: Model;
  github?: (token: string, baseUrl: string) => GitHub;
  /** Defaults to bubblewrap as the settings ask; tests may hand another. */
  prepareSandbox?: PrepareSandbox;
}

/**
 * A review a pull request event asked for in mode review needs no permission (most fork authors
 * are not collaborators, and a review is read-only: its worst case is its cost, which the limits
 * cap) unless review-authors is writers. Everything else needs a writer.
 */
function whoMay(gh: GitHub, repo: { owner: string; name: string }, trigger: Trigger, settings: ActionSettings): Promise<Authorization> {
  if (trigger.source === 'pull-request' && settings.reviewAuthors === 'all') {
    return Promise.resolve({
      allowed: true,
      reason: `a review of pull request #${trigger.target.type === 'pull' ? trigger.target.number : 0}, which anyone may open`,
    });
  }
  return authorize(gh, repo, trigger.requester, settings.allowedBots);
}

/** After the loop's own time limit, the time the work has to reach GitHub: the push, the pull request, the final comment. */
export const REPORT_GRACE_MS = 20_000;

/**
 * The GitHub client the tests hand in, else Octokit with its warnings redacted, whose requests
 * and rate-limit waits end by the run's deadline (or a few seconds after a cancel).
 */
function githubFor(deps: ActionDeps, redactor: Redactor, deadline: number): NonNullable<ActionDeps['github']> {
  const log = (m: string) => deps.io.warning(redactor.redact(m));
  return deps.github ?? ((token, baseUrl) => createGitHub({ token, baseUrl, log, budget: { deadline, signal: deps.signal } }));
}

function readEvent(r: RunnerEnv): GitHubEvent {
  const payload: unknown = JSON.parse(readFileSync(r.GITHUB_EVENT_PATH, 'utf8'));
  return parseEvent(r.GITHUB_EVENT_NAME, payload);
}

/**
 * Runs the action once: settings, event, trigger and permission first (a skipped or refused
 * trigger returns at once, without a model call), then the job. Never throws for those. An App's
 * installation token taken on the way is revoked however the run ends.
 */
export async function runAction(deps: ActionDeps): Promise<ActionOutcome> {
  let access: GitHubAccess | undefined;
  try {
    return await runOnce(deps, (a) => (access = a));
  } finally {
    await access?.close();
  }
}

/** The run's secrets: the API key, every token and key input, and the credentials files an auth step wrote (read once, here). */
function runSecrets(settings: ActionSettings, env: NodeJS.ProcessEnv, io: ActionIo) {
  const apiKey = settings.anthropicApiKey || env['ANTHROPIC_API_KEY'] || '';
  const files = readCredentialFiles(env);
  const appKey = privateKeySecrets(settings.githubAppPrivateKey);
  const secrets = [apiKey, settings.githubToken, settings.openaiApiKey, ...appKey, ...providerSecrets(env), ...files.secrets].filter(
    (s) => s.length > 0,
  );
  const redactor = new Redactor(secrets);
  for (const secret of secrets) io.setSecret(secret);
  return { apiKey, files, redactor };
}

/** The workspace's credentials files to refuse, and json-schema: a schema that is not valid JSON Schema fails the step before anything else happens. */
async function workspaceChecks(settings: ActionSettings, workspace: string, files: CredentialFiles, redactor: Redactor) {
  const credentials = new CredentialCheck(workspace, files, (text) => redactor.holdsSecret(text));
  const answerSchema = await loadAnswerSchema(settings.jsonSchema, workspace, 'input json-schema').catch((error: unknown) =>
    Promise.reject(new SettingsError(error instanceof Error ? error.message : String(error))),
  );
  return { credentials, answerSchema };
}

/** A run that ends before the job: said in the log and the outputs. */
function notRunning(io: ActionIo, redactor: Redactor, conclusion: 'skipped' | 'unauthorized', reason: string, line: string): ActionOutcome {
  io.info(`agent-action: ${line}`);
  setOutputs(io, redactor, { conclusion, result: reason });
  return { conclusion, reason };
}

/** GitHub for the run: its token (or App's), its request budget ending with the run's deadline and the report's grace. */
function githubAccess(deps: ActionDeps, settings: ActionSettings, runner: RunnerEnv, redactor: Redactor, startedAt: number): GitHubAccess {
  const [owner, repo] = runner.GITHUB_REPOSITORY.split('/') as [string, string];
  const make = githubFor(deps, redactor, startedAt + settings.timeoutMinutes * 60_000 + REPORT_GRACE_MS);
  return new GitHubAccess({ settings, owner, repo, github: (t) => make(t, runner.GITHUB_API_URL), io: deps.io, redactor });
}

async function runOnce(deps: ActionDeps, opened: (access: GitHubAccess) => void): Promise<ActionOutcome> {
  const { io, env } = deps;
  const startedAt = Date.now();
  const settings = readSettings(io.getInput, env);
  const { apiKey, files, redactor } = runSecrets(settings, env, io);
  const runner = readRunnerEnv(env);
  const { credentials, answerSchema } = await workspaceChecks(settings, runner.GITHUB_WORKSPACE, files, redactor);
  const event = readEvent(runner);
  const [owner, name] = runner.GITHUB_REPOSITORY.split('/') as [string, string];
  const access = githubAccess(deps, settings, runner, redactor, startedAt);
  opened(access);
  // Who the action writes as, found once (no request for GITHUB_TOKEN, an App's bot from its
  // token exchange): before the trigger only for a text carrying the marker (the action never
  // answers its own comments), else while the permission is checked; an event that starts nothing asks nothing.
  const writer = markedBy(event) === null ? undefined : await (await access.open()).identity.login();
  const decision = findRunTrigger(event, settings, writer);
  if (!decision.run) return notRunning(io, redactor, 'skipped', decision.reason, `${decision.reason}; nothing to do`);
  const trigger = decision.trigger;
  const { gh, token, identity, committer } = await access.open();
  const early = new EarlyContext(gh, event, trigger, owner, name, identity);
  // The workspace's remote and the thread's earlier conversation are reads of the repository too:
  // they start now, so that their git processes run while GitHub answers.
  const git = openGit(runner.GITHUB_WORKSPACE, token, runner.GITHUB_SERVER_URL, (m) => io.info(m));
  git.catch(() => undefined);
  const thread = new Thread({ git, trigger, enabled: settings.continueConversation, io, redactor, runUrl: runUrl(runner) });
  // The job's code (the loop, the tools, the modes, the report) is evaluated while GitHub answers.
  const jobCode = import('./job.js');
  jobCode.catch(() => undefined);
  const auth = await whoMay(gh, { owner, name }, trigger, settings);
  if (!auth.allowed) {
    return notRunning(io, redactor, 'unauthorized', auth.reason, `not running: ${auth.reason}`);
  }
  io.info(`agent-action: ${trigger.source} trigger; ${auth.reason}`);
  if (!apiKey && providerFrom(settings.provider, env) === 'anthropic') {
    throw new Error('input anthropic-api-key: is required (or set ANTHROPIC_API_KEY)');
  }
  const { Job } = await jobCode;
  return new Job({
    early,
    git,
    thread,
    settings,
    runner,
    env,
    event,
    trigger,
    gh,
    identity,
    ...(committer ? { committer } : {}),
    io,
    redactor,
    credentials,
    signal: deps.signal,
    apiKey,
    startedAt,
    ...(answerSchema ? { answerSchema } : {}),
    ...(deps.model ? { model: deps.model } : {}),
    ...(deps.prepareSandbox ? { prepareSandbox: deps.prepareSandbox } : {}),
  }).run();
}
