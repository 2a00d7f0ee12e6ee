import type { Model } from '../core/index.js';
import type { GitHub } from '../github/client.js';
import type { GitHubEvent } from '../github/event.js';
import type { WriterIdentity } from '../github/identity.js';
import type { Trigger } from '../github/trigger.js';
import type { Redactor } from '../report/redact.js';
import type { CredentialCheck } from '../secrets/credential-check.js';
import type { Sandbox } from '../sandbox/index.js';
import type { EarlyContext } from './early-context.js';
import { clientLog, executeTask, jobModel } from './execute.js';
import type { ActionIo, ActionOutcome } from './io.js';
import { load } from './lazy.js';
import { REVIEW_TRACKING_MARKER } from '../core/markers.js';
import { implementMode } from './modes/implement.js';
import { reviewMode } from './modes/review.js';
import type { Mode, Work } from './modes/mode.js';
import { checkoutBase, checkoutPull, planNewBranch, pullPlan, type Git } from './plan.js';
import { failedReport, finalReport, publish } from './report.js';
import { requestUrl, runUrl, type RunnerEnv } from './runner.js';
import { jobSandbox, sandboxNote, type PrepareSandbox } from './sandbox.js';
import type { ActionSettings } from './settings.js';
import { Tracking } from './tracking.js';
import { mcpFromInput, settingsFromInput, trustedConfig, type Trusted } from './trusted-settings.js';
import type { SettingsSource } from '../config/index.js';
import type { McpSource } from '../session/mcp.js';
import { commandRun } from './command.js';
import type { Thread } from './thread.js';
import { jobTrustedCode } from './trusted-code.js';
import type { AnswerSchema } from '../structured/schema.js';
import type { Identity } from '../git/names.js';

type Context = Awaited<EarlyContext['context']>;

export interface JobInput {
  early: EarlyContext;
  /** The workspace's git and the thread's earlier conversation, already being read. */
  git: Promise<Git>;
  thread: Thread;
  settings: ActionSettings;
  runner: RunnerEnv;
  env: NodeJS.ProcessEnv;
  event: GitHubEvent;
  trigger: Trigger;
  gh: GitHub;
  /** Who the action writes as: only that author's comments and reviews are its own. */
  identity: WriterIdentity;
  io: ActionIo;
  redactor: Redactor;
  /** The workspace's credentials files: refused to the tools, left out of the commit. */
  credentials: CredentialCheck;
  signal: AbortSignal;
  apiKey: string;
  startedAt: number;
  model?: Model;
  prepareSandbox?: PrepareSandbox;
  answerSchema?: AnswerSchema | undefined;
  /** Who the commits are by, when not github-actions[bot] (an App's bot). */
  committer?: Identity;
}

/** One authorized run, step by step: tracking comment, checkout, the loop, delivery, report. */
export class Job {
  private readonly owner: string;
  private readonly name: string;
  private readonly link: string;
  private readonly tracking: Tracking;
  private readonly mode: Mode;

  constructor(private readonly j: JobInput) {
    [this.owner, this.name] = j.runner.GITHUB_REPOSITORY.split('/') as [string, string];
    this.link = runUrl(j.runner);
    const { gh, event, trigger, io, redactor, runner, startedAt, early, identity } = j;
    const where = { gh, owner: this.owner, name: this.name, identity };
    this.tracking = new Tracking({
      ...where,
      event,
      trigger,
      io,
      redactor,
      runId: runner.GITHUB_RUN_ID,
      runUrl: this.link,
      startedAt,
      ...(early.comments ? { comments: early.comments } : {}),
      // In mode review one comment per pull request follows every push; otherwise one per run.
      ...(j.settings.mode === 'review' && trigger.mode === 'review' ? { marker: REVIEW_TRACKING_MARKER } : {}),
      sticky: j.settings.stickyComment && trigger.source !== 'review-comment',
    });
    const modeInput = { ...where, settings: j.settings, trigger, io, redactor, credentials: j.credentials };
    this.mode =
      trigger.mode === 'review'
        ? reviewMode({ ...modeInput, workspace: runner.GITHUB_WORKSPACE })
        : implementMode({
            ...modeInput,
            serverUrl: runner.GITHUB_SERVER_URL,
            requestUrl: requestUrl(j, this.link),
            ...(j.committer ? { committer: j.committer } : {}),
          });
  }

  async run(): Promise<ActionOutcome> {
    const { settings, runner, env, io, redactor, early, git, thread } = this.j;
    // 1. The sandbox probe and the model client load while GitHub answers.
    const preparing = jobSandbox(settings, runner, env, io, this.j.prepareSandbox);
    preparing.catch(() => undefined);
    const model = this.j.model
      ? Promise.resolve(this.j.model)
      : jobModel(settings, env, this.j.apiKey, settings.model, clientLog(io, redactor));
    model.catch(() => undefined);
    // 2. The checkout's credentials leave the workspace for the run; the tools and our own checkout wait for that.
    const credentials = load.credentials().then((c) => c.takeCheckoutCredentials(runner.GITHUB_WORKSPACE));
    try {
      // 3. The tracking comment and the 👀; the settings input is read before any pull request code
      // is checked out, and the checkout starts as soon as the pull request is known.
      this.tracking.start();
      const input = settingsFromInput(settings.settings, runner.GITHUB_WORKSPACE, io);
      const mcpInput = mcpFromInput(settings.mcpConfig, runner.GITHUB_WORKSPACE);
      let checkout: Promise<void> | undefined;
      early.onPull((pull) => {
        checkout = Promise.all([git, credentials]).then(([g]) => checkoutPull(pull, g.netRepo));
        checkout.catch(() => undefined);
      });
      const trusted = this.trustedConfig(input, mcpInput);
      trusted.catch(() => undefined);
      const context = await early.context;
      if (!context.pull && settings.baseBranch) {
        checkout = Promise.all([git, credentials]).then(([g]) => checkoutBase(g.netRepo, settings.baseBranch));
        checkout.catch(() => undefined);
      }
      // 4. Where the work goes; the first request does not wait for the checkout or the sandbox, the tools do.
      const work: Work = { git: await git, plan: context.pull ? pullPlan(context.pull) : await this.planFor(context, await git) };
      // Once the checkout is done and its credentials are out, git's own files are kept as they are.
      const ready = Promise.all([credentials, checkout, preparing]).then(() => work.git.seal());
      // On a pull request run the trusted ref is fetched while the checkout runs; its code is copied once that is done.
      const { pull } = context;
      const code = pull
        ? trusted.then((t) => jobTrustedCode({ ...this.j, trusted: t, pull, sandbox: preparing, ready }))
        : Promise.resolve(undefined);
      code.catch(() => undefined);
      // Awaited by the tools later; a checkout that fails first must not be an unhandled rejection meanwhile.
      ready.catch(() => undefined);
      // 5. The loop.
      if (this.mode.prepare) await ready.then(() => this.mode.prepare?.(context, work));
      const asked = commandRun(context, (await trusted).extensions, this.mode, io);
      const prompt = redactor.redact(this.mode.prompt(asked.context, work.plan));
      const parts = { model: await model, sandbox: preparing, ready, mode: this.mode, events: this.tracking.events(), asked };
      const more = { prompt, trusted: await trusted, earlier: await thread.earlier, code };
      const { result, transcript, note } = await executeTask(this.j, { ...parts, ...more });
      // 6. The work goes where the mode says, the conversation to its thread, then the report.
      const delivery = await this.mode.deliver(result, work);
      // The conversation is stored while the final comment goes out: the comment is what people wait for.
      const saved = thread.save(result.messages);
      const notes = [delivery.note, note, sandboxNote(await preparing, settings)].filter((n): n is string => Boolean(n));
      const { startedAt } = this.j;
      const { refused } = this.tracking;
      const report = finalReport(result, delivery, { runUrl: this.link, startedAt, notes, refused, verify: settings.verify });
      const [comment] = await Promise.all([this.tracking.finish(report), saved]);
      // Whatever did not reach GitHub, the final comment included, decides the conclusion.
      const undelivered = [...(delivery.undelivered ?? []), ...(comment ? [comment] : [])];
      const trigger = `${this.j.trigger.source} by ${this.j.trigger.requester ? `@${this.j.trigger.requester.login}` : 'the workflow'}`;
      return await publish(io, redactor, report, result, delivery, { commentUrl: this.tracking.url, transcript, trigger, undelivered });
    } catch (error) {
      const message = redactor.redact(error instanceof Error ? error.message : String(error));
      await this.tracking.finish(failedReport(message, this.link, this.j.startedAt));
      throw error;
    } finally {
      (await credentials.catch(() => undefined))?.restore();
      // Whatever failed, a sandbox that was prepared is taken down (a root runner's pids cgroup).
      const sandbox: Sandbox | undefined = await preparing.catch(() => undefined);
      await sandbox?.dispose();
    }
  }

  /** The settings, extensions and MCP servers of trusted sources: the repository's, read early, then the inputs'. */
  private trustedConfig(settings: SettingsSource | null, mcp: McpSource | null): Promise<Trusted> {
    return this.j.early.repoConfig.then((repo) => trustedConfig(repo, { settings, agents: this.j.settings.agents, mcp }, this.j.io));
  }

  private planFor(context: Context, git: Work['git']): Promise<Work['plan']> {
    const { trigger, redactor, settings, runner } = this.j;
    const { branchPrefix, baseBranch } = settings;
    return planNewBranch(context, git, { trigger, redactor, branchPrefix, runId: runner.GITHUB_RUN_ID, base: baseBranch });
  }
}
