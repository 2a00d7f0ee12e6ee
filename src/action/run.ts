import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TranscriptWriter } from '../agent/messages.js';
import type { Todo } from '../tools/registry.js';
import { authEnv, takeCheckoutCredentials } from '../git/credentials.js';
import { Repo } from '../git/repo.js';
import { createGitHub, type GitHub } from '../github/client.js';
import { runMarker, TrackingComment, type CommentPlace } from '../github/comments.js';
import { gatherContext } from '../github/context.js';
import { parseEvent, type GitHubEvent, type RepoRef } from '../github/event.js';
import { authorize } from '../github/permissions.js';
import { findTrigger, type Trigger } from '../github/trigger.js';
import { AnthropicModel, type Model } from '../model/anthropic.js';
import { taskPrompt } from '../prompt/task.js';
import { COMMENT_LIMIT, finalComment, progressComment, type FinalReport } from '../report/comment.js';
import { keyArgument } from '../report/format.js';
import { Redactor } from '../report/redact.js';
import { jobSummary } from '../report/summary.js';
import { runTask, type TaskResult } from '../task.js';
import { deliver, newBranchName, type Delivery, type Plan } from './deliver.js';
import { readRunnerEnv, runUrl, type RunnerEnv } from './runner.js';
import { readSettings, type ActionSettings } from './settings.js';

/** What the action does to the outside world, injected so that tests and the demo can watch. */
export interface ActionIo {
  getInput(name: string): string;
  info(message: string): void;
  warning(message: string): void;
  setOutput(name: string, value: string): void;
  setSecret(value: string): void;
  summary(markdown: string): Promise<void>;
}

export interface ActionDeps {
  env: NodeJS.ProcessEnv;
  io: ActionIo;
  signal: AbortSignal;
  /** Defaults to the Anthropic model; tests may hand another. */
  model?: (settings: ActionSettings, apiKey: string, baseUrl: string | undefined) => Model;
  github?: (token: string, baseUrl: string) => GitHub;
}

export interface ActionOutcome {
  conclusion: string;
  reason: string;
}

type Outputs = Partial<Record<'conclusion' | 'result' | 'branch' | 'commit-sha' | 'pr-url' | 'comment-url' | 'steps' | 'input-tokens' | 'output-tokens' | 'cache-read-tokens' | 'cost-usd' | 'transcript', string>>;

function setOutputs(io: ActionIo, redactor: Redactor, outputs: Outputs): void {
  for (const [name, value] of Object.entries(outputs)) io.setOutput(name, redactor.redact(value ?? ''));
}

function readEvent(r: RunnerEnv): GitHubEvent {
  const payload: unknown = JSON.parse(readFileSync(r.GITHUB_EVENT_PATH, 'utf8'));
  return parseEvent(r.GITHUB_EVENT_NAME, payload);
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

function requestUrl(r: RunnerEnv, event: GitHubEvent, trigger: Trigger): string {
  if ('comment' in event && event.comment) return event.comment.htmlUrl;
  if (trigger.target.type !== 'repo') return `${r.GITHUB_SERVER_URL}/${r.GITHUB_REPOSITORY}/issues/${trigger.target.number}`;
  return runUrl(r);
}

/** The handle for commands that reach origin: an https origin gets the token in their environment alone. */
async function networkRepo(repo: Repo, workspace: string, token: string, serverUrl: string): Promise<Repo> {
  if (!/^https?:/i.test(await repo.remoteUrl())) return repo;
  return Repo.open(workspace, { env: authEnv(token, serverUrl) });
}

/** The repository as the event names it; scheduled events name none, so it is asked for. */
async function repoRef(gh: GitHub, event: GitHubEvent, owner: string, name: string): Promise<RepoRef> {
  if (event.repo) return event.repo;
  const { data } = await gh.rest.repos.get({ owner, repo: name });
  return { owner, name, fullName: data.full_name, defaultBranch: data.default_branch, private: data.private };
}

/** Runs the action once; never throws for a refused or skipped trigger. */
export async function runAction(deps: ActionDeps): Promise<ActionOutcome> {
  const { io, env } = deps;
  const started = Date.now();
  const settings = readSettings(io.getInput);
  const apiKey = settings.anthropicApiKey || env['ANTHROPIC_API_KEY'] || '';
  const redactor = new Redactor([apiKey, settings.githubToken].filter((s) => s.length > 0));
  for (const secret of [apiKey, settings.githubToken]) if (secret) io.setSecret(secret);
  const r = readRunnerEnv(env);
  const event = readEvent(r);
  const decision = findTrigger(event, settings);
  if (!decision.run) {
    io.info(`agent-action: ${decision.reason}; nothing to do`);
    setOutputs(io, redactor, { conclusion: 'skipped', result: decision.reason });
    return { conclusion: 'skipped', reason: decision.reason };
  }
  const trigger = decision.trigger;
  const [owner, name] = r.GITHUB_REPOSITORY.split('/') as [string, string];
  const gh = (deps.github ?? ((token, baseUrl) => createGitHub({ token, baseUrl, log: io.warning })))(settings.githubToken, r.GITHUB_API_URL);
  const auth = await authorize(gh, { owner, name }, trigger.requester, settings.allowedBots);
  if (!auth.allowed) {
    io.info(`agent-action: not running: ${auth.reason}`);
    setOutputs(io, redactor, { conclusion: 'unauthorized', result: auth.reason });
    return { conclusion: 'unauthorized', reason: auth.reason };
  }
  io.info(`agent-action: ${trigger.source} trigger; ${auth.reason}`);
  if (!apiKey) throw new Error('input anthropic-api-key: is required (or set ANTHROPIC_API_KEY)');

  const link = runUrl(r);
  const place = commentPlace(event, trigger);
  const commentDeps = { gh, owner, repo: name, redact: (t: string) => redactor.redact(t), log: io.warning };
  const startBody = progressComment({ runUrl: link, task: trigger.task, todos: [], currentStep: 'Reading the request', steps: 0, costUsd: 0, startedAt: started, now: Date.now() });
  const marker = runMarker(r.GITHUB_RUN_ID);
  const [comment, context] = await Promise.all([
    place ? TrackingComment.start(commentDeps, place, marker, `${startBody}\n${marker}`) : Promise.resolve(null),
    repoRef(gh, event, owner, name).then((repoInfo) => gatherContext(gh, event, repoInfo, trigger)),
    react(gh, owner, name, trigger).catch((e: unknown) => io.warning(`could not add a reaction: ${String(e)}`)),
  ]);

  const credentials = takeCheckoutCredentials(r.GITHUB_WORKSPACE);
  try {
    return await work();
  } finally {
    credentials.restore();
  }

  async function work(): Promise<ActionOutcome> {
  const repo = Repo.open(r.GITHUB_WORKSPACE);
  const netRepo = await networkRepo(repo, r.GITHUB_WORKSPACE, settings.githubToken, r.GITHUB_SERVER_URL);
  let plan: Plan;
  if (context.pull) {
    if (context.pull.isFork) {
      await netRepo.checkoutPullRef(context.pull.number);
      plan = { kind: 'fork', pullNumber: context.pull.number };
    } else {
      await netRepo.checkoutPullHead(context.pull.headRef);
      plan = { kind: 'pull', branch: context.pull.headRef, pullNumber: context.pull.number };
    }
  } else {
    const issueNumber = trigger.target.type === 'issue' ? trigger.target.number : null;
    plan = { kind: 'new-branch', base: await repo.currentBranch(), branch: await newBranchName(netRepo, settings.branchPrefix, issueNumber, redactor.redact(context.issue?.title ?? trigger.task), r.GITHUB_RUN_ID), issueNumber };
  }

  const transcriptDir = join(r.RUNNER_TEMP ?? r.GITHUB_WORKSPACE, 'agent-action');
  mkdirSync(transcriptDir, { recursive: true });
  const transcript = new TranscriptWriter(join(transcriptDir, `transcript-${r.GITHUB_RUN_ID}-${r.GITHUB_RUN_ATTEMPT}.jsonl`));
  const where = plan.kind === 'pull' ? `You are on the pull request's branch ${plan.branch}.` : plan.kind === 'fork' ? 'You are on the pull request\'s head commit.' : `You are on ${plan.base}; your changes will go to a new branch.`;
  const model = (deps.model ?? ((s, key, url) => new AnthropicModel({ model: s.model, apiKey: key, baseURL: url, maxRetries: s.maxRetries })))(settings, apiKey, settings.anthropicBaseUrl || env['ANTHROPIC_BASE_URL'] || undefined);

  let todos: Todo[] = [];
  let steps = 0;
  let costUsd = 0;
  const progress = (currentStep: string | null) =>
    comment?.update(`${progressComment({ runUrl: link, task: trigger.task, todos, currentStep, steps, costUsd, startedAt: started, now: Date.now() })}\n${marker}`);
  let result: TaskResult;
  try {
    result = await runTask({
      settings,
      model,
      cwd: r.GITHUB_WORKSPACE,
      messages: [{ role: 'user', content: [{ type: 'text', text: redactor.redact(taskPrompt(context, where)) }] }],
      mode: 'action',
      appendSystemPrompt: settings.appendSystemPrompt,
      transcript,
      signal: deps.signal,
      startedAt: started,
      events: {
        onTodos: (t) => {
          todos = t;
          progress(null);
        },
        onToolStart: (call) => {
          const line = `${call.name} ${keyArgument(call.name, call.input)}`.trim();
          io.info(redactor.redact(`→ ${line}`));
          progress(line);
        },
        onStep: (s) => {
          steps = s.step;
          costUsd = s.totalCostUsd;
        },
        onNotice: (m) => io.info(redactor.redact(m)),
      },
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await comment?.finish(`${finalComment(failedReport(message, link, started), COMMENT_LIMIT - marker.length - 1)}\n${marker}`);
    throw error;
  }

  io.info(redactor.redact(`agent-action: ${result.conclusion}${result.reason ? ` (${result.reason})` : ''}\n${result.result}`));
  let delivery: Delivery;
  try {
    delivery = await deliver({
      repo,
      pushRepo: netRepo,
      gh,
      owner,
      name,
      serverUrl: r.GITHUB_SERVER_URL,
      plan,
      task: trigger.task,
      requester: trigger.requester,
      requestUrl: requestUrl(r, event, trigger),
      pullRequest: settings.pullRequest,
      summary: redactor.redact(result.result),
      branchPrefix: settings.branchPrefix,
      allowWorkflowChanges: settings.allowWorkflowChanges,
      redact: (t) => redactor.redact(t),
      log: (m) => io.warning(redactor.redact(m)),
    });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    io.warning(`delivering the changes failed: ${why}`);
    delivery = { changedFiles: result.changedFiles, diff: await repo.diff().catch(() => ''), diffStat: '', pushed: false, note: `Delivering the changes failed: ${why}` };
  }

  const report: FinalReport = {
    conclusion: result.conclusion,
    reason: result.reason,
    result: result.result,
    runUrl: link,
    steps: result.steps,
    usage: result.usage,
    costUsd: result.costUsd,
    durationMs: Date.now() - started,
    diff: delivery.diff,
    diffStat: delivery.diffStat,
    changedFiles: delivery.changedFiles,
    pushed: delivery.pushed,
    ...(delivery.commit ? { commit: delivery.commit } : {}),
    ...(delivery.pr ? { pr: { url: delivery.pr.url, number: delivery.pr.number } } : {}),
    ...(delivery.branch ? { branch: delivery.branch } : {}),
    ...(delivery.note ? { note: delivery.note } : {}),
  };
  await comment?.finish(`${finalComment(report, COMMENT_LIMIT - marker.length - 1)}\n${marker}`);
  await io.summary(redactor.redact(jobSummary({ ...report, trigger: `${trigger.source} by ${trigger.requester ? '@' + trigger.requester.login : 'the workflow'}` })));
  setOutputs(io, redactor, {
    conclusion: result.conclusion,
    result: result.result,
    branch: delivery.pushed ? (delivery.branch ?? '') : '',
    'commit-sha': delivery.commit?.sha ?? '',
    'pr-url': delivery.pr?.url ?? '',
    'comment-url': comment?.url ?? '',
    steps: String(result.steps),
    'input-tokens': String(result.usage.input_tokens),
    'output-tokens': String(result.usage.output_tokens),
    'cache-read-tokens': String(result.usage.cache_read_input_tokens),
    'cost-usd': result.costUsd.toFixed(6),
    transcript: transcript.path,
  });
  return { conclusion: result.conclusion, reason: result.reason };
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
