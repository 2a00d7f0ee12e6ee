import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { TranscriptWriter } from '../agent/messages.js';
import type { Repo } from '../git/repo.js';
import type { GitHub } from '../github/client.js';
import { listIssueComments, runMarker, TrackingComment, type CommentPlace, type IssueComment } from '../github/comments.js';
import { gatherContext, type PullContext, type TaskContext } from '../github/context.js';
import type { GitHubEvent, RepoRef } from '../github/event.js';
import type { Trigger } from '../github/trigger.js';
import type { Model } from '../model/model.js';
import { taskPrompt } from '../prompt/task.js';
import { COMMENT_LIMIT, finalComment, progressComment, type FinalReport } from '../report/comment.js';
import { keyArgument } from '../report/format.js';
import type { Redactor } from '../report/redact.js';
import { jobSummary } from '../report/summary.js';
import { runTask, type TaskResult } from '../task.js';
import { toolEnvironment } from '../tools/env.js';
import type { Todo } from '../tools/registry.js';
import type { Sandbox } from '../tools/sandbox.js';
import type { Delivery, Plan } from './deliver.js';
import { runUrl, type RunnerEnv } from './runner.js';
import type { ActionSettings } from './settings.js';
import type { ActionIo, ActionOutcome } from './run.js';

/**
 * The context, read while the requester's permission is still being checked: nothing is sent or
 * written before that check passes, but the reads need not wait for it.
 */
export class EarlyContext {
  readonly context: Promise<TaskContext>;
  /** The thread's comments, read once for the context and for finding a re-run's tracking comment. */
  readonly comments: Promise<IssueComment[]> | undefined;
  private pull: PullContext | undefined;
  private listener: ((pull: PullContext) => void) | undefined;

  constructor(gh: GitHub, event: GitHubEvent, trigger: Trigger, owner: string, name: string) {
    const comments = trigger.target.type === 'repo' ? undefined : listIssueComments(gh, owner, name, trigger.target.number);
    comments?.catch(() => {});
    this.comments = comments;
    const onPull = (pull: PullContext) => {
      this.pull = pull;
      this.listener?.(pull);
    };
    this.context = repoRef(gh, event, owner, name).then((repo) => gatherContext(gh, event, repo, trigger, { onPull, ...(comments ? { comments } : {}) }));
    this.context.catch(() => {});
  }

  /** Calls back with the pull request once known (at once if it already is). */
  onPull(listener: (pull: PullContext) => void): void {
    this.listener = listener;
    if (this.pull) listener(this.pull);
  }
}

export interface JobInput {
  early: EarlyContext;
  settings: ActionSettings;
  runner: RunnerEnv;
  env: NodeJS.ProcessEnv;
  event: GitHubEvent;
  trigger: Trigger;
  gh: GitHub;
  io: ActionIo;
  redactor: Redactor;
  signal: AbortSignal;
  apiKey: string;
  startedAt: number;
  model?: Model;
}

type Outputs = Partial<Record<'conclusion' | 'result' | 'branch' | 'commit-sha' | 'pr-url' | 'comment-url' | 'steps' | 'input-tokens' | 'output-tokens' | 'cache-read-tokens' | 'cost-usd' | 'transcript', string>>;

export function setOutputs(io: ActionIo, redactor: Redactor, outputs: Outputs): void {
  for (const [name, value] of Object.entries(outputs)) io.setOutput(name, redactor.redact(value ?? ''));
}

function commentPlace(event: GitHubEvent, trigger: Trigger): CommentPlace | null {
  if (trigger.target.type === 'repo') return null;
  if (trigger.source === 'review-comment' && event.kind === 'pull_request_review_comment') {
    // Replies go to the thread's first comment: GitHub does not take replies to replies.
    return { kind: 'review-thread', pullNumber: trigger.target.number, replyTo: event.comment.inReplyToId ?? event.comment.id };
  }
  return { kind: 'issue', number: trigger.target.number };
}

async function react(gh: GitHub, owner: string, repo: string, trigger: Trigger): Promise<void> {
  const content = 'eyes' as const;
  if (trigger.source === 'review-comment' && trigger.reviewCommentId !== undefined) {
    await gh.rest.reactions.createForPullRequestReviewComment({ owner, repo, comment_id: trigger.reviewCommentId, content });
  } else if (trigger.commentId !== undefined && trigger.source === 'comment') {
    await gh.rest.reactions.createForIssueComment({ owner, repo, comment_id: trigger.commentId, content });
  } else if (trigger.target.type !== 'repo') {
    await gh.rest.reactions.createForIssue({ owner, repo, issue_number: trigger.target.number, content });
  }
}

/** The repository as the event names it; scheduled events name none, so it is asked for. */
async function repoRef(gh: GitHub, event: GitHubEvent, owner: string, name: string): Promise<RepoRef> {
  if (event.repo) return event.repo;
  const { data } = await gh.rest.repos.get({ owner, repo: name });
  return { owner, name, fullName: data.full_name, defaultBranch: data.default_branch, private: data.private };
}

/** One authorized run: tracking comment, context, git, the loop, delivery and the report. */
export class Job {
  private readonly owner: string;
  private readonly name: string;
  private readonly link: string;
  private readonly marker: string;
  /** Created while the context is read and the loop starts; progress waits for it, the first request does not. */
  private commentReady: Promise<TrackingComment | null> = Promise.resolve(null);
  private comment: TrackingComment | null = null;
  private reaction: Promise<void> = Promise.resolve();
  private todos: Todo[] = [];
  private transcriptPath = '';
  /** The SDK client loads from here on, while GitHub answers, not before the first request to it. */
  private readonly sdk: Promise<typeof import('../model/anthropic.js')> = Promise.resolve().then(() => import('../model/anthropic.js'));
  private steps = 0;
  private costUsd = 0;

  constructor(private readonly j: JobInput) {
    [this.owner, this.name] = j.runner.GITHUB_REPOSITORY.split('/') as [string, string];
    this.link = runUrl(j.runner);
    this.marker = runMarker(j.runner.GITHUB_RUN_ID);
  }

  async run(): Promise<ActionOutcome> {
    // The sandbox probe runs while GitHub answers; both are needed before the loop starts.
    const preparing = this.sandbox();
    preparing.catch(() => {});
    const { takeCheckoutCredentials } = await import('../git/credentials.js');
    const credentials = takeCheckoutCredentials(this.j.runner.GITHUB_WORKSPACE);
    let sandbox: Sandbox | undefined;
    try {
      // Git, delivery and the sandbox load while GitHub answers; a pull request's checkout starts
      // as soon as its branch is known, while the rest of the context is still arriving.
      const git = this.openGit();
      let checkout: Promise<Plan> | undefined;
      const context = await this.start((pull) => {
        checkout = git.then((g) => this.planPull(pull, g.netRepo));
        checkout.catch(() => {});
      });
      const { repo, netRepo } = await git;
      const plan = await (checkout ?? this.plan(context, repo, netRepo));
      sandbox = await preparing;
      const result = await this.execute(context, plan, sandbox);
      const delivery = await this.deliver(result, plan, repo, netRepo);
      await this.report(result, delivery, sandbox);
      return { conclusion: result.conclusion, reason: result.reason };
    } catch (error) {
      const message = this.j.redactor.redact(error instanceof Error ? error.message : String(error));
      const comment = await this.commentReady.catch(() => null);
      await comment?.finish(this.withMarker(finalComment(failedReport(message, this.link, this.j.startedAt), this.commentLimit())));
      throw error;
    } finally {
      credentials.restore();
      await sandbox?.dispose();
    }
  }

  private withMarker(body: string): string {
    return `${body}\n${this.marker}`;
  }

  private commentLimit(): number {
    return COMMENT_LIMIT - this.marker.length - 1;
  }

  private progressBody(currentStep: string | null): string {
    const { trigger, startedAt } = this.j;
    return this.withMarker(progressComment({ runUrl: this.link, task: trigger.task, todos: this.todos, currentStep, steps: this.steps, costUsd: this.costUsd, startedAt, now: Date.now() }));
  }

  /**
   * Starts the tracking comment and the reaction, and reads the context. Only the context is
   * waited for: GitHub spaces writes a second apart, and the model need not wait for them.
   */
  private async start(onPull: (pull: PullContext) => void): Promise<TaskContext> {
    const { gh, event, trigger, io, redactor, early } = this.j;
    const place = commentPlace(event, trigger);
    const deps = { gh, owner: this.owner, repo: this.name, redact: (t: string) => redactor.redact(t), log: io.warning, ...(early.comments ? { comments: early.comments } : {}) };
    this.commentReady = place ? TrackingComment.start(deps, place, this.marker, this.progressBody('Reading the request')) : Promise.resolve(null);
    this.commentReady.then((c) => (this.comment = c)).catch(() => {});
    // The comment is the first write (GitHub spaces writes a second apart); the 👀 follows it.
    this.reaction = this.commentReady
      .catch(() => null)
      .then(() => react(gh, this.owner, this.name, trigger))
      .catch((e: unknown) => io.warning(`could not add a reaction: ${String(e)}`));
    early.onPull(onPull);
    return early.context;
  }

  /** The comment once it exists; if it could not be made, the summary and outputs still report the run. */
  private async settled(): Promise<TrackingComment | null> {
    try {
      this.comment = await this.commentReady;
    } catch (error) {
      this.j.io.warning(`the tracking comment could not be created: ${this.j.redactor.redact(error instanceof Error ? error.message : String(error))}`);
      this.comment = null;
    }
    await this.reaction;
    return this.comment;
  }

  /** Commands that reach an https origin get the token in their own environment, nowhere else. */
  private async networkRepo(repo: Repo): Promise<Repo> {
    if (!/^https?:/i.test(await repo.remoteUrl())) return repo;
    const [{ Repo }, { authEnv }] = await Promise.all([import('../git/repo.js'), import('../git/credentials.js')]);
    return Repo.open(this.j.runner.GITHUB_WORKSPACE, { env: authEnv(this.j.settings.githubToken, this.j.runner.GITHUB_SERVER_URL) });
  }

  private async openGit(): Promise<{ repo: Repo; netRepo: Repo }> {
    const { Repo } = await import('../git/repo.js');
    const repo = Repo.open(this.j.runner.GITHUB_WORKSPACE);
    return { repo, netRepo: await this.networkRepo(repo) };
  }

  /** Checks out the pull request's code: its branch, or for a fork its head commit. */
  private async planPull(pull: PullContext, netRepo: Repo): Promise<Plan> {
    if (pull.isFork) {
      await netRepo.checkoutPullRef(pull.number);
      return { kind: 'fork', pullNumber: pull.number };
    }
    await netRepo.checkoutPullHead(pull.headRef);
    return { kind: 'pull', branch: pull.headRef, pullNumber: pull.number };
  }

  /** Where the work goes. */
  private async plan(context: TaskContext, repo: Repo, netRepo: Repo): Promise<Plan> {
    if (context.pull) return this.planPull(context.pull, netRepo);
    const { trigger, settings, redactor, runner } = this.j;
    const { newBranchName } = await import('./deliver.js');
    const issueNumber = trigger.target.type === 'issue' ? trigger.target.number : null;
    const title = redactor.redact(context.issue?.title ?? trigger.task);
    return { kind: 'new-branch', base: await repo.currentBranch(), branch: await newBranchName(netRepo, settings.branchPrefix, issueNumber, title, runner.GITHUB_RUN_ID), issueNumber };
  }

  private async sandbox(): Promise<Sandbox> {
    const { settings, runner, env, io } = this.j;
    // RUNNER_TEMP holds the step's GITHUB_OUTPUT/GITHUB_ENV files and checkout's credentials: out of reach.
    const hide = [runner.RUNNER_TEMP].filter((p): p is string => typeof p === 'string' && p.length > 0);
    const { prepareSandbox } = await import('../tools/sandbox.js');
    const sandbox = await prepareSandbox({
      mode: settings.sandbox,
      network: settings.network,
      workspace: realpathSync(runner.GITHUB_WORKSPACE),
      ...(env['HOME'] ? { home: env['HOME'] } : {}),
      hide,
      readOnlyInWorkspace: ['.git/config', '.git/hooks'],
      env: toolEnvironment(env),
      githubHosted: env['RUNNER_ENVIRONMENT'] === 'github-hosted',
    });
    (sandbox.kind === 'none' && settings.sandbox !== 'off' ? io.warning : io.info)(`agent-action: ${sandbox.description}`);
    return sandbox;
  }

  private async execute(context: TaskContext, plan: Plan, sandbox: Sandbox): Promise<TaskResult> {
    const { settings, runner, redactor, io } = this.j;
    const dir = join(runner.RUNNER_TEMP ?? runner.GITHUB_WORKSPACE, 'agent-action');
    mkdirSync(dir, { recursive: true });
    const transcript = new TranscriptWriter(join(dir, `transcript-${runner.GITHUB_RUN_ID}-${runner.GITHUB_RUN_ATTEMPT}.jsonl`));
    this.transcriptPath = transcript.path;
    const where =
      plan.kind === 'pull' ? `You are on the pull request's branch ${plan.branch}.` : plan.kind === 'fork' ? "You are on the pull request's head commit." : `You are on ${plan.base}; your changes will go to a new branch.`;
    const progress = (step: string | null) => {
      void this.commentReady.then((c) => c?.update(this.progressBody(step))).catch(() => {});
    };
    const result = await runTask({
      settings,
      model: this.j.model ?? (await this.model()),
      cwd: runner.GITHUB_WORKSPACE,
      messages: [{ role: 'user', content: [{ type: 'text', text: redactor.redact(taskPrompt(context, where)) }] }],
      mode: 'action',
      appendSystemPrompt: settings.appendSystemPrompt,
      transcript,
      signal: this.j.signal,
      startedAt: this.j.startedAt,
      bash: import('../tools/sandbox.js').then((m) => m.sandboxedBashTool(sandbox)),
      events: {
        onTodos: (t) => {
          this.todos = t;
          progress(null);
        },
        onToolStart: (call) => {
          const line = `${call.name} ${keyArgument(call.name, call.input)}`.trim();
          io.info(redactor.redact(`→ ${line}`));
          progress(line);
        },
        onStep: (s) => {
          this.steps = s.step;
          this.costUsd = s.totalCostUsd;
        },
        onNotice: (m) => io.info(redactor.redact(m)),
      },
    });
    io.info(redactor.redact(`agent-action: ${result.conclusion}${result.reason ? ` (${result.reason})` : ''}\n${result.result}`));
    return result;
  }

  /** The Anthropic client, loaded once the job is under way (see run()). */
  private async model(): Promise<Model> {
    const { settings } = this.j;
    const { AnthropicModel } = await this.sdk;
    return new AnthropicModel({ model: settings.model, apiKey: this.j.apiKey, baseURL: settings.anthropicBaseUrl || this.j.env['ANTHROPIC_BASE_URL'] || undefined, maxRetries: settings.maxRetries });
  }


  private requestUrl(): string {
    const { event, trigger, runner } = this.j;
    if ('comment' in event && event.comment) return event.comment.htmlUrl;
    if (trigger.target.type !== 'repo') return `${runner.GITHUB_SERVER_URL}/${runner.GITHUB_REPOSITORY}/issues/${trigger.target.number}`;
    return this.link;
  }

  /** Commits and pushes whatever the run ended with; a failure here still leaves the diff for the report. */
  private async deliver(result: TaskResult, plan: Plan, repo: Repo, netRepo: Repo): Promise<Delivery> {
    const { settings, trigger, redactor, io, gh, runner } = this.j;
    try {
      const { deliver } = await import('./deliver.js');
      return await deliver({
        repo,
        pushRepo: netRepo,
        gh,
        owner: this.owner,
        name: this.name,
        serverUrl: runner.GITHUB_SERVER_URL,
        plan,
        task: trigger.task,
        requester: trigger.requester,
        requestUrl: this.requestUrl(),
        pullRequest: settings.pullRequest,
        summary: redactor.redact(result.result),
        branchPrefix: settings.branchPrefix,
        allowWorkflowChanges: settings.allowWorkflowChanges,
        redact: (t) => redactor.redact(t),
        log: (m) => io.warning(redactor.redact(m)),
      });
    } catch (error) {
      const why = redactor.redact(error instanceof Error ? error.message : String(error));
      io.warning(`delivering the changes failed: ${why}`);
      return { changedFiles: result.changedFiles, diff: await repo.diff().catch(() => ''), diffStat: '', pushed: false, note: `Delivering the changes failed: ${why}` };
    }
  }

  private async report(result: TaskResult, delivery: Delivery, sandbox: Sandbox): Promise<void> {
    const { io, redactor, trigger, startedAt } = this.j;
    await this.settled();
    const notes = [delivery.note, sandbox.kind === 'none' && this.j.settings.sandbox !== 'off' ? sandbox.description : undefined].filter((n): n is string => Boolean(n));
    const report: FinalReport = {
      conclusion: result.conclusion,
      reason: result.reason,
      result: result.result,
      runUrl: this.link,
      steps: result.steps,
      usage: result.usage,
      costUsd: result.costUsd,
      durationMs: Date.now() - startedAt,
      diff: delivery.diff,
      diffStat: delivery.diffStat,
      changedFiles: delivery.changedFiles,
      pushed: delivery.pushed,
      ...(delivery.commit ? { commit: delivery.commit } : {}),
      ...(delivery.pr ? { pr: { url: delivery.pr.url, number: delivery.pr.number } } : {}),
      ...(delivery.branch ? { branch: delivery.branch } : {}),
      ...(notes.length > 0 ? { note: notes.join(' ') } : {}),
    };
    await this.comment?.finish(this.withMarker(finalComment(report, this.commentLimit())));
    const by = trigger.requester ? `@${trigger.requester.login}` : 'the workflow';
    await io.summary(redactor.redact(jobSummary({ ...report, trigger: `${trigger.source} by ${by}` })));
    setOutputs(io, redactor, {
      conclusion: result.conclusion,
      result: result.result,
      branch: delivery.pushed ? (delivery.branch ?? '') : '',
      'commit-sha': delivery.commit?.sha ?? '',
      'pr-url': delivery.pr?.url ?? '',
      'comment-url': this.comment?.url ?? '',
      steps: String(result.steps),
      'input-tokens': String(result.usage.input_tokens),
      'output-tokens': String(result.usage.output_tokens),
      'cache-read-tokens': String(result.usage.cache_read_input_tokens),
      'cost-usd': result.costUsd.toFixed(6),
      transcript: this.transcriptPath,
    });
  }
}

function failedReport(message: string, link: string, started: number): FinalReport {
  return {
    conclusion: 'error',
    reason: message,
    result: '',
    runUrl: link,
    steps: 0,
    usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    costUsd: 0,
    durationMs: Date.now() - started,
    diff: '',
    diffStat: '',
    changedFiles: [],
    pushed: false,
  };
}
