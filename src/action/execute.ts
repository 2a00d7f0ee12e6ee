import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { TranscriptWriter } from '../agent/transcript.js';
import { textMessage, type Model } from '../core/index.js';
import { followUpNote, followUpPrompt, type Earlier } from './thread.js';
import { createModel, providerFrom, webSearchOffered, type ProviderOptions } from '../model/registry.js';
import type { Redactor } from '../secrets/redactor.js';
import type { CredentialCheck } from '../secrets/credential-check.js';
import type { Sandbox } from '../sandbox/index.js';
import { allowedDomains } from './sandbox.js';
import { redactResults } from '../tools/redact-results.js';
import { runSession, type SessionMcp, type TaskEvents, type TaskResult } from '../session/index.js';
import type { ActionIo } from './io.js';
import type { Mode } from './modes/mode.js';
import type { CommandRun } from './command.js';
import type { Trusted } from './trusted-config.js';
import { stdioLauncher } from '../session/mcp.js';
import type { Wrap } from '../sandbox/types.js';
import type { TrustedCode } from '../trusted-code/index.js';
import type { RunnerEnv } from './runner.js';
import type { ActionSettings } from './inputs.js';
import type { AnswerSchema } from '../structured/schema.js';

export interface ExecuteInput {
  settings: ActionSettings;
  runner: RunnerEnv;
  env: NodeJS.ProcessEnv;
  io: ActionIo;
  redactor: Redactor;
  signal: AbortSignal;
  startedAt: number;
  apiKey: string;
  /** The workspace's credentials files: refused to the tools, left out of the commit. */
  credentials: CredentialCheck;
  /** json-schema, compiled when the run started. */
  answerSchema?: AnswerSchema | undefined;
}

/** The provider's options from the inputs and the environment. */
function providerOptions(settings: ActionSettings, env: NodeJS.ProcessEnv, apiKey: string, model: string): ProviderOptions {
  return {
    model,
    maxRetries: settings.maxRetries,
    streamIdleTimeoutMs: settings.streamIdleTimeoutSeconds * 1000,
    prices: settings.prices,
    env,
    apiKey,
    baseURL: settings.anthropicBaseUrl,
    openaiApiKey: settings.openaiApiKey,
    openaiBaseURL: settings.openaiBaseUrl,
  };
}

/** The model client, loaded once the job is under way, not before the first request to GitHub. */
export function jobModel(
  settings: ActionSettings,
  env: NodeJS.ProcessEnv,
  apiKey: string,
  model = settings.model,
  log?: (line: string) => void,
): Promise<Model> {
  return createModel(providerFrom(settings.provider, env), { ...providerOptions(settings, env, apiKey, model), ...(log ? { log } : {}) });
}

/** The model client's own messages in the job log: redacted, and escaped by io.info like all model text. */
export const clientLog =
  (io: Pick<ActionIo, 'info'>, redactor: Redactor) =>
  (line: string): void =>
    io.info(redactor.redact(line));

/** What the job hands the loop: the prompt after any earlier conversation of the thread, and the run's parts. */
export interface JobRun {
  prompt: string;
  earlier: Earlier;
  model: Model;
  sandbox: Promise<Sandbox>;
  /** The checkout and the sandbox: the tools wait for them, the first request does not. */
  ready: Promise<unknown>;
  mode: Mode;
  events: TaskEvents;
  trusted: Trusted;
  asked: CommandRun;
  /** On a pull request run, the trusted ref's copies of what hooks, MCP servers and skills run or read. */
  code: Promise<TrustedCode | undefined>;
}

/** Every sandboxed command sees the trusted copies (read-only, at their own path): a skill's scripts run from there. */
function withCopies(wrap: Wrap, code: TrustedCode | undefined): Wrap {
  if (!code) return wrap;
  const base = code.bashExtras();
  return (argv, extras) => wrap(argv, { env: extras?.env ?? {}, binds: [...(base.binds ?? []), ...(extras?.binds ?? [])] });
}

/** Hooks run with the trusted copies, and skills' folders are the copies: read-only to the tools, outside the workspace. */
async function trustedCodeOptions(run: JobRun) {
  const { skills } = run.trusted.extensions;
  // Skills and hooks wait for the copies only when the run has some; the first request does not.
  const code = skills.length > 0 || Object.keys(run.trusted.settings.hooks).length > 0 ? await run.code : undefined;
  if (!code) return { skills };
  const skillsRoot = join(code.root, '.claude', 'skills');
  return {
    launchHook: (command: string) => code.hook(command),
    readOnlyRoots: [skillsRoot],
    skills: skills.map((s) => ({ ...s, dir: `${join(code.root, s.dir)}/` })),
  };
}

/** The loop in the workspace, its transcript in RUNNER_TEMP (never in the workspace, where it would be committed). */
export async function executeTask(x: ExecuteInput, run: JobRun): Promise<{ result: TaskResult; transcript: string; note?: string }> {
  const { settings, runner, redactor, io } = x;
  const dir = join(runner.RUNNER_TEMP ?? runner.GITHUB_WORKSPACE, 'agent-action');
  mkdirSync(dir, { recursive: true });
  const transcript = new TranscriptWriter(join(dir, `transcript-${runner.GITHUB_RUN_ID}-${runner.GITHUB_RUN_ATTEMPT}.jsonl`));
  const result = await runSession({
    settings,
    model: run.asked.model ?? run.model,
    makeModel: (id) => jobModel(settings, x.env, x.apiKey, id, clientLog(io, redactor)),
    cwd: runner.GITHUB_WORKSPACE,
    env: x.env,
    ...(runner.RUNNER_TEMP ? { runnerTemp: runner.RUNNER_TEMP } : {}),
    credentials: x.credentials,
    messages: [...run.earlier.messages, textMessage('user', followUpPrompt(run.prompt, run.earlier))],
    mode: run.mode.name === 'review' ? 'review' : 'action',
    appendSystemPrompt: settings.appendSystemPrompt,
    transcript,
    signal: x.signal,
    startedAt: x.startedAt,
    wrap: Promise.all([run.sandbox, run.code]).then(([s, code]) => withCopies(s.wrap, code)),
    ...(await trustedCodeOptions(run)),
    ready: run.ready,
    // Credentials a command prints reach the model masked, MCP servers' results included.
    tools: (base) => redactResults(run.mode.tools(base), (text) => redactor.redact(text)),
    inputs: {
      allow: { source: 'allowed-tools', rules: settings.allowedTools },
      deny: { source: 'disallowed-tools', rules: settings.disallowedTools },
      mcpSource: 'mcp-config',
    },
    trusted: run.trusted.settings,
    modeRules: { source: `${run.mode.name} mode`, rules: run.mode.allow ?? [] },
    mcp: jobMcp(x, run),
    agents: run.trusted.extensions.agents,
    ...(run.asked.commandRules ? { commandRules: run.asked.commandRules } : {}),
    ...(run.asked.steps ? { commandSteps: run.asked.steps } : {}),
    allowedDomains: allowedDomains(settings),
    webSearch: webSearchOffered(providerFrom(settings.provider, x.env)),
    ...(x.answerSchema ? { answerSchema: x.answerSchema } : {}),
    events: run.events,
  });
  io.info(redactor.redact(`agent-action: ${result.conclusion}${result.reason ? ` (${result.reason})` : ''}\n${result.result}`));
  const note = [followUpNote(run.earlier), result.mcpNote].filter(Boolean).join(' ');
  return { result, transcript: transcript.path, ...(note ? { note } : {}) };
}

/**
 * MCP servers start together before the first request, in the checked-out workspace (so they
 * wait for it), in the sandbox with the trusted ref's files; what they expanded is a secret from
 * then on.
 */
function jobMcp(x: ExecuteInput, run: JobRun): SessionMcp {
  return {
    sources: run.trusted.mcp,
    cwd: x.runner.GITHUB_WORKSPACE,
    log: (m) => x.io.info(x.redactor.redact(m)),
    launcher: async () => {
      await run.ready;
      return stdioLauncher((await run.sandbox).wrap, await run.code);
    },
    onStarted: (mcp) => x.redactor.add(mcp.secrets),
  };
}
