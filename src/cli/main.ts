import { readFileSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { readTranscript, TranscriptWriter } from '../agent/transcript.js';
import { repairHistory } from '../agent/history.js';
import { loadCliSettings, mergeSettings, type TrustedSettings } from '../config/index.js';
import { textMessage, type Message } from '../core/messages.js';
import { createModel, providerFrom, webSearchOffered } from '../model/registry.js';
import type { Sandbox } from '../sandbox/index.js';
import { Redactor } from '../secrets/redactor.js';
import { CredentialCheck } from '../secrets/credential-check.js';
import { readCredentialFiles } from '../secrets/credential-files.js';
import { runSession, type TaskResult } from '../session/index.js';
import { toolEnvironment } from '../tools/env.js';
import { parseCli, USAGE, type CliOptions } from './args.js';
import { cliExtensions, cliSystemAppend, type CliExtensions } from './extensions.js';
import { cliMcp } from './mcp.js';
import { sessionPaths } from './sessions.js';
import { progressEvents, summaryLine, type ProgressWriter } from './progress.js';
import { neutralizeWorkflowCommands } from '../report/workflow-commands.js';
import { loadAnswerSchema } from '../structured/schema.js';

export interface CliIo {
  stdout: ProgressWriter;
  stderr: ProgressWriter;
  env: NodeJS.ProcessEnv;
  /** Aborted on SIGINT/SIGTERM. */
  signal: AbortSignal;
  version: string;
}

/** A failure of the user's setup: said on stderr, exit code 2. */
class UsageError extends Error {}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The conversation to send: the new prompt, after the transcript being resumed if any. */
function initialMessages(options: CliOptions): { messages: Message[]; resumedCount: number } {
  const prompt: Message[] = options.prompt ? [textMessage('user', options.prompt)] : [];
  if (!options.resume) return { messages: prompt, resumedCount: 0 };
  let messages: Message[];
  try {
    messages = readTranscript(resolve(options.resume)).messages;
  } catch (error) {
    throw new UsageError(`cannot resume: ${errorText(error)}`);
  }
  const last = messages[messages.length - 1];
  // An answered conversation needs something new to say; an interrupted one just goes on.
  const next = prompt.length > 0 || last?.role === 'user' ? prompt : [textMessage('user', 'Continue the task from where you stopped.')];
  return { messages: repairHistory([...messages, ...next]), resumedCount: messages.length };
}

/** The transcripts to resume and to write, --continue resolved. */
function withSession(options: CliOptions, env: NodeJS.ProcessEnv): ReturnType<typeof sessionPaths> {
  try {
    return sessionPaths(options, env);
  } catch (error) {
    throw new UsageError(errorText(error));
  }
}

/** The sandbox Bash commands run in, prepared only when asked for: the default path starts without it. */
async function openSandbox(options: CliOptions, io: CliIo): Promise<Sandbox | null> {
  if (options.sandbox === 'off') return null;
  const { prepareSandbox } = await import('../sandbox/index.js');
  const workspace = realpathSync(resolve(options.cwd));
  const env = toolEnvironment(io.env);
  const sandbox = await prepareSandbox({
    mode: options.sandbox,
    network: options.network ?? 'allowlist',
    allowedDomains: options.allowedDomains,
    workspace,
    ...(io.env['HOME'] ? { home: io.env['HOME'] } : {}),
    env,
  }).catch((error: unknown) => Promise.reject(new UsageError(errorText(error))));
  io.stderr.write(`${sandbox.description}\n`);
  return sandbox;
}

/** The credentials files Read refuses: those the environment names, gha-creds-*.json, text holding a key or their values. */
function cliCredentials(cwd: string, env: NodeJS.ProcessEnv): CredentialCheck {
  const files = readCredentialFiles(env);
  const known = new Redactor([...files.secrets]);
  return new CredentialCheck(cwd, files, (text) => known.holdsSecret(text));
}

/** The settings files of --cwd (unless --setting-sources none), then --settings; a malformed one is a usage error. */
function cliSettings(options: CliOptions, io: CliIo): TrustedSettings {
  const o = {
    cwd: resolve(options.cwd),
    sources: options.settingSources,
    ...(options.settingsFile ? { settings: options.settingsFile } : {}),
  };
  try {
    return mergeSettings(
      loadCliSettings(
        o,
        (path) => readFileSync(path, 'utf8'),
        (m) => io.stderr.write(`agent-action: ${m}\n`),
      ),
    );
  } catch (error) {
    throw new UsageError(errorText(error));
  }
}

/** The models of the run: made on first use, their client's messages escaped (stderr may be a job log). */
function modelMaker(options: CliOptions, apiKey: string, io: CliIo, say: (m: string) => void) {
  const { settings } = options;
  const provider = providerFrom(settings.provider, io.env);
  const shared = {
    maxRetries: settings.maxRetries,
    prices: settings.prices,
    env: io.env,
    apiKey,
    streamIdleTimeoutMs: settings.streamIdleTimeoutSeconds * 1000,
    // The client's own messages quote what the server sent: escaped, in case stderr is a job log.
    log: (line: string) => say(neutralizeWorkflowCommands(line)),
  };
  return (id: string) => createModel(provider, { ...shared, model: id });
}

/** The agents, skills and command of --cwd and the flags; a malformed one is a usage error. */
async function extensions(options: CliOptions, say: (m: string) => void): Promise<CliExtensions> {
  try {
    return await cliExtensions(options, say);
  } catch (error) {
    throw new UsageError(errorText(error));
  }
}

interface CliRun {
  result: TaskResult;
  transcript?: TranscriptWriter;
  /** Under the allowlist: the hosts refused, with counts. */
  networkRefused?: Record<string, number>;
}

async function run(options: CliOptions, apiKey: string, io: CliIo): Promise<CliRun> {
  const trusted = cliSettings(options, io);
  const cwd = resolve(options.cwd);
  const answerSchema = await loadAnswerSchema(options.settings.jsonSchema, cwd, '--json-schema').catch((error: unknown) =>
    Promise.reject(new UsageError(errorText(error))),
  );
  const say = (m: string) => io.stderr.write(`agent-action: ${m}\n`);
  const [ext, append] = await Promise.all([extensions(options, say), cliSystemAppend(options)]);
  const paths = withSession(options, io.env);
  const start = initialMessages({ ...options, ...paths, prompt: ext.prompt });
  const transcript = paths.transcript ? new TranscriptWriter(resolve(paths.transcript)) : undefined;
  // Appending to the transcript being resumed adds only what is new; a fresh file gets it all.
  const already = paths.transcript && paths.resume && resolve(paths.transcript) === resolve(paths.resume) ? start.resumedCount : 0;
  const sandbox = await openSandbox(options, io);
  const { settings } = options;
  try {
    const result = await runSession({
      settings,
      model: ext.model ?? settings.model,
      makeModel: modelMaker(options, apiKey, io, say),
      cwd,
      env: io.env,
      ...(io.env['RUNNER_TEMP'] ? { runnerTemp: io.env['RUNNER_TEMP'] } : {}),
      credentials: cliCredentials(cwd, io.env),
      messages: start.messages,
      mode: 'cli',
      recordMessagesFrom: already,
      inputs: {
        allow: { source: '--allowed-tools', rules: settings.allowedTools },
        deny: { source: '--disallowed-tools', rules: settings.disallowedTools },
        mcpSource: '--mcp-config',
      },
      trusted,
      mcp: cliMcp(options, sandbox, say),
      agents: ext.agents,
      skills: ext.skills,
      ...(ext.commandRules ? { commandRules: ext.commandRules } : {}),
      ...(ext.steps ? { commandSteps: ext.steps } : {}),
      allowedDomains: options.allowedDomains,
      webSearch: webSearchOffered(providerFrom(options.settings.provider, io.env)),
      ...(answerSchema ? { answerSchema } : {}),
      signal: io.signal,
      events: progressEvents(io.stderr, { quiet: options.quiet }),
      ...(append ? { appendSystemPrompt: append } : {}),
      ...(transcript ? { transcript } : {}),
      ...(sandbox ? { wrap: Promise.resolve(sandbox.wrap) } : {}),
    }).catch((error: unknown) => Promise.reject(new UsageError(errorText(error))));
    const refused = sandbox?.networkRefused?.();
    return { result, ...(transcript ? { transcript } : {}), ...(refused ? { networkRefused: refused } : {}) };
  } finally {
    await sandbox?.dispose();
  }
}

function printResult({ result, transcript, networkRefused }: CliRun, options: CliOptions, io: CliIo): void {
  io.stderr.write(`\n${summaryLine(result)}\n`);
  const refused = Object.entries(networkRefused ?? {});
  if (refused.length > 0) {
    const listed = refused.map(([host, n]) => `${host} (${n})`).join(', ');
    io.stderr.write(`agent-action: the network allowlist refused ${listed}; add a host with --allowed-domains +host\n`);
  }
  if (options.json) {
    const out = {
      conclusion: result.conclusion,
      result: result.result,
      steps: result.steps,
      usage: result.usage,
      cost_usd: Number(result.costUsd.toFixed(6)),
      changed_files: result.changedFiles,
      ...(result.verified !== null ? { verified: result.verified } : {}),
      ...(result.structuredOutput !== undefined ? { structured_output: result.structuredOutput } : {}),
      ...(result.reason ? { reason: result.reason } : {}),
      duration_ms: result.durationMs,
      ...(transcript ? { transcript: transcript.path } : {}),
      ...(networkRefused ? { network_refused: networkRefused } : {}),
    };
    io.stdout.write(JSON.stringify(out) + '\n');
  } else if (result.conclusion === 'success') {
    io.stdout.write(result.result + '\n');
  }
}

/** The CLI: exit code 0 for success, 2 for bad usage or configuration, 1 otherwise. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCli(argv, io.env);
  if (parsed.kind === 'help' || parsed.kind === 'version') {
    io.stdout.write((parsed.kind === 'help' ? USAGE : io.version) + '\n');
    return 0;
  }
  if (parsed.kind === 'error') {
    io.stderr.write(`agent-action: ${parsed.message}\n\n${USAGE}\n`);
    return 2;
  }
  const apiKey = io.env['ANTHROPIC_API_KEY'] ?? '';
  if (!apiKey && providerFrom(parsed.options.settings.provider, io.env) === 'anthropic') {
    io.stderr.write('agent-action: set ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL for another endpoint)\n');
    return 2;
  }
  try {
    const ran = await run(parsed.options, apiKey, io);
    printResult(ran, parsed.options, io);
    return ran.result.conclusion === 'success' ? 0 : 1;
  } catch (error) {
    io.stderr.write(`agent-action: ${errorText(error)}\n`);
    if (error instanceof UsageError) return 2;
    throw error;
  }
}
