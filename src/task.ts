import { resolve } from 'node:path';
import { runLoop, type LoopEvents, type LoopResult } from './agent/loop.js';
import { messageRecord, TranscriptWriter, type MessageParam } from './agent/messages.js';
import type { Price } from './agent/usage.js';
import { changedSince, takeBaseline, type Baseline } from './git/changes.js';
import type { Model } from './model/model.js';
import { systemPrompt } from './prompt/system.js';
import type { LoopSettings } from './settings.js';
import { toolEnvironment } from './tools/env.js';
import type { ToolDefinition } from './tools/registry.js';
import { specsFor } from './tools/spec.js';
import { Workspace } from './tools/workspace.js';

export interface TaskOptions {
  settings: LoopSettings;
  model: Model;
  cwd: string;
  /** The conversation to send: a new task, or one rebuilt from a transcript. */
  messages: MessageParam[];
  mode: 'action' | 'cli';
  appendSystemPrompt?: string;
  transcript?: TranscriptWriter;
  /** Messages before this index are already in the transcript (a resume appending to its own file). */
  recordMessagesFrom?: number;
  signal: AbortSignal;
  events?: LoopEvents;
  prices?: Readonly<Record<string, Price>>;
  /** Started at; the deadline counts from here. */
  startedAt?: number;
  /** The Bash tool to offer instead of the plain one (a sandboxed one); may still be in preparation. */
  bash?: ToolDefinition | Promise<ToolDefinition>;
}

export interface TaskResult extends LoopResult {
  changedFiles: string[];
  durationMs: number;
}

/**
 * The tools, loaded while the first request is under way. They are handed to the loop only once
 * the baseline of the work tree is taken, so nothing a tool does can be missed as a change.
 */
async function loadTools(names: readonly string[], bash: TaskOptions['bash'], baseline: () => Promise<Baseline>): Promise<ToolDefinition[]> {
  const [{ selectTools }, sandboxed] = await Promise.all([import('./tools/index.js'), bash, baseline()]);
  return selectTools([...names]).map((t) => (t.name === 'Bash' && sandboxed ? sandboxed : t));
}

/** One run of the loop in a workspace: tools, prompt, limits, and what changed afterwards. */
export async function runTask(options: TaskOptions): Promise<TaskResult> {
  const started = options.startedAt ?? Date.now();
  const { settings } = options;
  const workspace = await Workspace.open(options.cwd);
  const specs = specsFor(settings.allowedTools);
  let baseline: Promise<Baseline> | undefined;
  const takeOnce = () => (baseline ??= takeBaseline(workspace.root));
  const written = new Set<string>();
  const events: LoopEvents = {
    ...options.events,
    onToolEnd(call, result, ms) {
      // Outside git the only record of what changed is what the tools wrote.
      const input = call.input as { file_path?: unknown };
      if (!result.isError && (call.name === 'Write' || call.name === 'Edit') && typeof input.file_path === 'string') {
        written.add(input.file_path);
      }
      options.events?.onToolEnd?.(call, result, ms);
    },
  };
  const names = specs.map((s) => s.name);
  const system = systemPrompt({ mode: options.mode, workspace: workspace.root, tools: names, ...(options.appendSystemPrompt ? { append: options.appendSystemPrompt } : {}) });
  options.transcript?.write({ type: 'system', system, tools: names, model: settings.model, time: new Date().toISOString() });
  for (const message of options.messages.slice(options.recordMessagesFrom ?? 0)) options.transcript?.write(messageRecord(message));
  const result = await runLoop(
    {
      model: options.model,
      toolSpecs: specs,
      tools: () => loadTools(settings.allowedTools, options.bash, takeOnce),
      system,
      workspace,
      toolEnv: toolEnvironment(process.env),
      limits: { maxSteps: settings.maxSteps, maxCostUsd: settings.maxCostUsd, deadline: started + settings.timeoutMinutes * 60_000 },
      signal: options.signal,
      maxTokens: settings.maxOutputTokens,
      outputLimit: settings.toolOutputLimit,
      streamRetries: settings.maxRetries,
      compactAtTokens: settings.compactAtTokens,
      prices: { ...settings.prices, ...options.prices },
      ...(options.transcript ? { transcript: options.transcript } : {}),
      events,
    },
    options.messages,
  );
  const fromGit = await changedSince(workspace.root, await takeOnce());
  const changedFiles = fromGit ?? [...written].map((p) => workspace.relative(resolve(workspace.root, p))).sort();
  return { ...result, changedFiles, durationMs: Date.now() - started };
}
