import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { readTranscript, repairHistory, TranscriptWriter, type MessageParam } from '../agent/messages.js';
import { AnthropicModel } from '../model/anthropic.js';
import { runTask } from '../task.js';
import { toolEnvironment } from '../tools/env.js';
import type { Sandbox } from '../tools/sandbox.js';
import { parseCli, USAGE, type CliOptions } from './args.js';
import { progressEvents, summaryLine, type ProgressWriter } from './progress.js';

export interface CliIo {
  stdout: ProgressWriter;
  stderr: ProgressWriter;
  env: NodeJS.ProcessEnv;
  /** Aborted on SIGINT/SIGTERM. */
  signal: AbortSignal;
  version: string;
}


/** The conversation to send: the new prompt, after the transcript being resumed if any. */
function initialMessages(options: CliOptions): { messages: MessageParam[]; resumedCount: number } {
  const prompt: MessageParam[] = options.prompt ? [{ role: 'user', content: [{ type: 'text', text: options.prompt }] }] : [];
  if (!options.resume) return { messages: prompt, resumedCount: 0 };
  const { messages } = readTranscript(resolve(options.resume));
  const last = messages[messages.length - 1];
  // An answered conversation needs something new to say; an interrupted one just goes on.
  const next: MessageParam[] = prompt.length > 0 || last?.role === 'user' ? prompt : [{ role: 'user', content: [{ type: 'text', text: 'Continue the task from where you stopped.' }] }];
  return { messages: repairHistory([...messages, ...next]), resumedCount: messages.length };
}

export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCli(argv, io.env);
  if (parsed.kind === 'help') {
    io.stdout.write(USAGE + '\n');
    return 0;
  }
  if (parsed.kind === 'version') {
    io.stdout.write(io.version + '\n');
    return 0;
  }
  if (parsed.kind === 'error') {
    io.stderr.write(`agent-action: ${parsed.message}\n\n${USAGE}\n`);
    return 2;
  }
  const options = parsed.options;
  const apiKey = io.env['ANTHROPIC_API_KEY'];
  if (!apiKey) {
    io.stderr.write('agent-action: set ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL for another endpoint)\n');
    return 2;
  }

  let start: ReturnType<typeof initialMessages>;
  try {
    start = initialMessages(options);
  } catch (error) {
    io.stderr.write(`agent-action: cannot resume: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  const transcriptPath = options.transcript ?? options.resume;
  const transcript = transcriptPath ? new TranscriptWriter(resolve(transcriptPath)) : undefined;
  // Appending to the transcript being resumed adds only what is new; a fresh file gets it all.
  const already = transcriptPath && options.resume && resolve(transcriptPath) === resolve(options.resume) ? start.resumedCount : 0;

  let sandbox: Sandbox | null = null;
  if (options.sandbox !== 'off') {
    try {
      // Loaded only when asked for: the default path starts without it.
      const { prepareSandbox } = await import('../tools/sandbox.js');
      sandbox = await prepareSandbox({ mode: options.sandbox, network: options.network, workspace: realpathSync(resolve(options.cwd)), ...(io.env['HOME'] ? { home: io.env['HOME'] } : {}), env: toolEnvironment(io.env) });
    } catch (error) {
      io.stderr.write(`agent-action: ${error instanceof Error ? error.message : String(error)}\n`);
      return 2;
    }
    io.stderr.write(`${sandbox.description}\n`);
  }
  const model = new AnthropicModel({ model: options.settings.model, apiKey, baseURL: io.env['ANTHROPIC_BASE_URL'] || undefined, maxRetries: options.settings.maxRetries });
  let result;
  try {
    result = await runTask({
      settings: options.settings,
      model,
      cwd: resolve(options.cwd),
      messages: start.messages,
      mode: 'cli',
      recordMessagesFrom: already,
      signal: io.signal,
      events: progressEvents(io.stderr, { quiet: options.quiet }),
      ...(options.appendSystemPrompt ? { appendSystemPrompt: options.appendSystemPrompt } : {}),
      ...(transcript ? { transcript } : {}),
      ...(sandbox ? { bash: import('../tools/sandbox.js').then((m) => m.sandboxedBashTool(sandbox)) } : {}),
    });
  } catch (error) {
    io.stderr.write(`agent-action: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  } finally {
    await sandbox?.dispose();
  }
  io.stderr.write(`\n${summaryLine(result)}\n`);
  if (options.json) {
    const out = {
      conclusion: result.conclusion,
      result: result.result,
      steps: result.steps,
      usage: result.usage,
      cost_usd: Number(result.costUsd.toFixed(6)),
      changed_files: result.changedFiles,
      ...(result.reason ? { reason: result.reason } : {}),
      duration_ms: result.durationMs,
      ...(transcript ? { transcript: transcript.path } : {}),
    };
    io.stdout.write(JSON.stringify(out) + '\n');
  } else if (result.conclusion === 'success') {
    io.stdout.write(result.result + '\n');
  }
  return result.conclusion === 'success' ? 0 : 1;
}
