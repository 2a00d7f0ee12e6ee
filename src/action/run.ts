import { readFileSync } from 'node:fs';
import { createGitHub, type GitHub } from '../github/client.js';
import { parseEvent, type GitHubEvent } from '../github/event.js';
import { authorize, type Authorization } from '../github/permissions.js';
import { findRunTrigger } from '../github/review-trigger.js';
import { markedBy, type Trigger } from '../github/trigger.js';
import { WriterIdentity } from '../github/identity.js';
import type { Model } from '../core/model.js';
import { Redactor } from '../report/redact.js';
import { CredentialCheck } from '../secrets/credential-check.js';
import { readCredentialFiles } from '../secrets/credential-files.js';
import { EarlyContext } from './early-context.js';
import type { ActionIo, ActionOutcome } from './io.js';
import { openGit } from './plan.js';
import { setOutputs } from './report.js';
import { readRunnerEnv, runUrl, type RunnerEnv } from './runner.js';
import type { PrepareSandbox } from './sandbox.js';
import { readSettings, type ActionSettings } from './settings.js';
import { Thread } from './thread.js';
import { providerFrom } from '../model/registry.js';
import { providerSecrets } from '../model/secrets.js';

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
 * trigger returns at once, without a model call), then the job. Never throws for those.
 */
export async function runAction(deps: ActionDeps): Promise<ActionOutcome> {
  const { io, env } = deps;
  const startedAt = Date.now();
  const settings = readSettings(io.getInput, env);
  const apiKey = settings.anthropicApiKey || env['ANTHROPIC_API_KEY'] || '';
  // Credentials files an auth step wrote are read once, here: their values are secrets from now on.
  const files = readCredentialFiles(env);
  const secrets = [apiKey, settings.githubToken, settings.openaiApiKey, ...providerSecrets(env), ...files.secrets].filter(
    (s) => s.length > 0,
  );
  const redactor = new Redactor(secrets);
  for (const secret of secrets) io.setSecret(secret);
  const runner = readRunnerEnv(env);
  const credentials = new CredentialCheck(runner.GITHUB_WORKSPACE, files, (text) => redactor.holdsSecret(text));
  const event = readEvent(runner);
  const deadline = startedAt + settings.timeoutMinutes * 60_000 + REPORT_GRACE_MS;
  const gh = githubFor(deps, redactor, deadline)(settings.githubToken, runner.GITHUB_API_URL);
  // Who the action writes as, found once (no request for GITHUB_TOKEN): before the trigger only
  // for a text carrying the marker (the action never answers its own comments), else while the
  // permission is checked; an event that starts nothing asks nothing.
  let found: WriterIdentity | undefined;
  const identityOf = () => (found ??= WriterIdentity.ofToken(gh, settings.githubToken, (m) => io.warning(redactor.redact(m))));
  const writer = markedBy(event) === null ? undefined : await identityOf().login();
  const decision = findRunTrigger(event, settings, writer);
  if (!decision.run) {
    io.info(`agent-action: ${decision.reason}; nothing to do`);
    setOutputs(io, redactor, { conclusion: 'skipped', result: decision.reason });
    return { conclusion: 'skipped', reason: decision.reason };
  }
  const trigger = decision.trigger;
  const identity = identityOf();
  const [owner, name] = runner.GITHUB_REPOSITORY.split('/') as [string, string];
  const early = new EarlyContext(gh, event, trigger, owner, name, identity);
  // The workspace's remote and the thread's earlier conversation are reads of the repository too:
  // they start now, so that their git processes run while GitHub answers.
  const git = openGit(runner.GITHUB_WORKSPACE, settings.githubToken, runner.GITHUB_SERVER_URL, (m) => io.info(m));
  git.catch(() => undefined);
  const thread = new Thread({ git, trigger, enabled: settings.continueConversation, io, redactor, runUrl: runUrl(runner) });
  // The job's code (the loop, the tools, the modes, the report) is evaluated while GitHub answers.
  const jobCode = import('./job.js');
  jobCode.catch(() => undefined);
  const auth = await whoMay(gh, { owner, name }, trigger, settings);
  if (!auth.allowed) {
    io.info(`agent-action: not running: ${auth.reason}`);
    setOutputs(io, redactor, { conclusion: 'unauthorized', result: auth.reason });
    return { conclusion: 'unauthorized', reason: auth.reason };
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
    io,
    redactor,
    credentials,
    signal: deps.signal,
    apiKey,
    startedAt,
    ...(deps.model ? { model: deps.model } : {}),
    ...(deps.prepareSandbox ? { prepareSandbox: deps.prepareSandbox } : {}),
  }).run();
}
