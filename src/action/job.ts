import type { Model } from '../core/index.js';
import type { SettingsSource } from '../config/index.js';
import type { McpSource } from '../session/mcp.js';
import type { TaskResult } from '../session/index.js';
import type { Sandbox } from '../sandbox/index.js';
import type { EarlyContext } from './early-context.js';
import { clientLog, executeTask, jobModel } from './execute.js';
import type { ActionOutcome } from './io.js';
import type { JobInput } from './job-input.js';
import { jobMode, jobTracking } from './job-setup.js';
import { load } from './lazy.js';
import type { Mode, Work } from './modes/mode.js';
import { checkoutBase, checkoutPull, planNewBranch, pullPlan, type Git } from './plan.js';
import { failedReport, finalReport, publish } from './report.js';
import { runUrl } from './runner.js';
import { jobSandbox, networkNote, sandboxNote } from './sandbox.js';
import type { Tracking } from './tracking.js';
import { mcpFromInput, settingsFromInput, trustedConfig, type Trusted } from './trusted-config.js';
import { commandRun } from './command.js';
import { jobTrustedCode } from './trusted-code.js';

export type { JobInput } from './job-input.js';

type Context = Awaited<EarlyContext['context']>;

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
    this.tracking = jobTracking(j, this.link);
    this.mode = jobMode(j, this.link);
  }

  async run(): Promise<ActionOutcome> {
    const { settings, runner, env, io, redactor } = this.j;
    // 1. The sandbox probe and the model client load while GitHub answers.
    const preparing = jobSandbox(settings, runner, env, io, this.j.prepareSandbox);
    preparing.catch(() => undefined); // awaited below, in every outcome
    const model = this.j.model
      ? Promise.resolve(this.j.model)
      : jobModel(settings, env, this.j.apiKey, settings.model, clientLog(io, redactor));
    model.catch(() => undefined); // awaited by the loop step
    // 2. The checkout's credentials leave the workspace for the run; the tools and our own checkout wait for that.
    const credentials = load.credentials().then((c) => c.takeCheckoutCredentials(runner.GITHUB_WORKSPACE));
    try {
      const started = await this.checkout(credentials, preparing);
      const { result, transcript, note } = await this.loop(started, model, preparing);
      const sandbox = await preparing;
      return await this.deliver(started.work, result, transcript, [note, sandboxNote(sandbox, settings), networkNote(sandbox)]);
    } catch (error) {
      const message = redactor.redact(error instanceof Error ? error.message : String(error));
      await this.tracking.finish(failedReport(message, this.link, this.j.startedAt));
      throw error;
    } finally {
      (await credentials.catch(() => undefined))?.restore(); // a failure to take them is the job's error, reported above
      // Whatever failed, a sandbox that was prepared is taken down (a root runner's pids cgroup).
      const sandbox: Sandbox | undefined = await preparing.catch(() => undefined);
      await sandbox?.dispose();
    }
  }

  /**
   * 3. The tracking comment and the 👀; the settings input is read before any pull request code
   * is checked out, and the checkout starts as soon as the pull request is known. 4. Where the
   * work goes; the first request does not wait for the checkout or the sandbox, the tools do.
   */
  private async checkout(credentials: Promise<unknown>, preparing: Promise<Sandbox>) {
    const { settings, runner, io, early, git } = this.j;
    this.tracking.start();
    const input = settingsFromInput(settings.settings, runner.GITHUB_WORKSPACE, io);
    const mcpInput = mcpFromInput(settings.mcpConfig, runner.GITHUB_WORKSPACE);
    let checkout: Promise<void> | undefined;
    const start = (step: (g: Git) => Promise<void>) => {
      checkout = Promise.all([git, credentials]).then(([g]) => step(g));
      checkout.catch(() => undefined); // awaited by `ready`
    };
    early.onPull((pull) => start((g) => checkoutPull(pull, g.netRepo)));
    const trusted = this.trustedConfig(input, mcpInput);
    trusted.catch(() => undefined); // awaited by the loop step
    const context = await early.context;
    if (!context.pull && settings.baseBranch) start((g) => checkoutBase(g.netRepo, settings.baseBranch));
    const work: Work = { git: await git, plan: context.pull ? pullPlan(context.pull) : await this.planFor(context, await git) };
    // Once the checkout is done and its credentials are out, git's own files are kept as they are.
    const ready = Promise.all([credentials, checkout, preparing]).then(() => work.git.seal());
    // On a pull request run the trusted ref is fetched while the checkout runs; its code is copied once that is done.
    const { pull } = context;
    const code = pull
      ? trusted.then((t) => jobTrustedCode({ ...this.j, trusted: t, pull, sandbox: preparing, ready }))
      : Promise.resolve(undefined);
    code.catch(() => undefined); // awaited by the tools that run trusted code
    ready.catch(() => undefined); // awaited by the tools later; a checkout that fails first is reported through them
    return { context, work, ready, trusted, code };
  }

  /** 5. The loop. */
  private async loop(s: Awaited<ReturnType<Job['checkout']>>, model: Promise<Model>, preparing: Promise<Sandbox>) {
    const { io, redactor, thread } = this.j;
    if (this.mode.prepare) await s.ready.then(() => this.mode.prepare?.(s.context, s.work));
    const asked = commandRun(s.context, (await s.trusted).extensions, this.mode, io);
    const prompt = redactor.redact(this.mode.prompt(asked.context, s.work.plan));
    const parts = { model: await model, sandbox: preparing, ready: s.ready, mode: this.mode, events: this.tracking.events(), asked };
    return executeTask(this.j, { ...parts, prompt, trusted: await s.trusted, earlier: await thread.earlier, code: s.code });
  }

  /** 6. The work goes where the mode says, the conversation to its thread, then the report. */
  private async deliver(work: Work, result: TaskResult, transcript: string, more: (string | undefined)[]): Promise<ActionOutcome> {
    const { io, redactor, thread, settings, startedAt } = this.j;
    const delivery = await this.mode.deliver(result, work);
    // The conversation is stored while the final comment goes out: the comment is what people wait for.
    const saved = thread.save(result.messages);
    const notes = [delivery.note, ...more].filter((n): n is string => Boolean(n));
    const { refused } = this.tracking;
    const report = finalReport(result, delivery, { runUrl: this.link, startedAt, notes, refused, verify: settings.verify });
    const [comment] = await Promise.all([this.tracking.finish(report), saved]);
    // Whatever did not reach GitHub, the final comment included, decides the conclusion.
    const undelivered = [...(delivery.undelivered ?? []), ...(comment ? [comment] : [])];
    const trigger = `${this.j.trigger.source} by ${this.j.trigger.requester ? `@${this.j.trigger.requester.login}` : 'the workflow'}`;
    return publish(io, redactor, report, result, delivery, { commentUrl: this.tracking.url, transcript, trigger, undelivered });
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
