import { resolve } from 'node:path';
import type { Model } from './core/model.js';
import type { Message } from './core/messages.js';
import type { Todo } from './core/todo.js';
import type { ToolSet } from './core/tools.js';
import { runLoop, type LoopEvents, type LoopResult } from './agent/loop.js';
import { messageRecord, TranscriptWriter } from './agent/transcript.js';
import { changedSince, takeBaseline, type Baseline } from './git/changes.js';
import { systemPrompt } from './prompt/system.js';
import type { LoopSettings } from './settings.js';
import { BUILTIN_TOOL_NAMES, specsFor } from './tools/catalog.js';
import { toolEnvironment } from './tools/env.js';
import { lazyToolSet, preloadWhileAnswering } from './tools/lazy.js';
import { definitionToolSet } from './tools/tool-set.js';
import { trackChanges } from './tools/track-changes.js';
import { Workspace } from './tools/workspace.js';

export interface TaskEvents extends LoopEvents {
  /** The TodoWrite checklist, whole, each time the model changes it. */
  onTodos?: (todos: Todo[]) => void;
}

export interface TaskOptions {
  settings: LoopSettings;
  model: Model;
  cwd: string;
  /** The environment the tools' own is built from (an allowlist of it, never its secrets). */
  env: NodeJS.ProcessEnv;
  /** Refused to the tools as a whole: the runner keeps job credentials there. */
  runnerTemp?: string;
  /** The conversation to send: a new task, or one rebuilt from a transcript. */
  messages: Message[];
  mode: 'action' | 'cli';
  appendSystemPrompt?: string;
  transcript?: TranscriptWriter;
  /** Messages before this index are already in the transcript (a resume appending to its own file). */
  recordMessagesFrom?: number;
  signal: AbortSignal;
  events?: TaskEvents;
  /** Started at; the deadline counts from here. */
  startedAt?: number;
  /** Turns each Bash command's argv into the one that runs it (the sandbox); may still be in preparation. */
  wrap?: Promise<(argv: string[]) => string[]>;
  /** Shapes the tools before the loop sees them (a mode's choice, rules and hooks). */
  tools?: (base: ToolSet) => ToolSet;
}

export interface TaskResult extends LoopResult {
  changedFiles: string[];
  durationMs: number;
}

/**
 * The built-in tools, loaded while the first request is under way. They are handed to the loop
 * only once the baseline of the work tree is taken, so nothing a tool does can be missed as a change.
 */
async function loadTools(
  names: readonly string[],
  o: TaskOptions,
  workspace: Workspace,
  baseline: () => Promise<Baseline>,
): Promise<ToolSet> {
  const [{ selectTools }, wrap] = await Promise.all([import('./tools/builtin/index.js'), o.wrap, baseline()]);
  const { settings, events } = o;
  const context = {
    workspace,
    env: toolEnvironment(o.env),
    outputLimit: settings.toolOutputLimit,
    ...(events?.onTodos ? { onTodos: events.onTodos } : {}),
  };
  return definitionToolSet(selectTools(names, wrap ? { wrap } : {}), context);
}

/** One run of the loop in a workspace: tools, prompt, limits, and what changed afterwards. */
export async function runTask(o: TaskOptions): Promise<TaskResult> {
  const started = o.startedAt ?? Date.now();
  const { settings } = o;
  const workspace = await Workspace.open(o.cwd, o.runnerTemp ? { runnerTemp: o.runnerTemp } : {});
  const names = settings.allowedTools.filter((n) => BUILTIN_TOOL_NAMES.includes(n));
  let baseline: Promise<Baseline> | undefined;
  const takeOnce = () => (baseline ??= takeBaseline(workspace.root));
  const lazy = lazyToolSet(specsFor(names), () => loadTools(names, o, workspace, takeOnce));
  const written = new Set<string>();
  const tools = trackChanges(o.tools ? o.tools(lazy) : lazy, (path) => written.add(path));
  const system = systemPrompt({
    mode: o.mode,
    workspace: workspace.root,
    tools: names,
    ...(o.appendSystemPrompt ? { append: o.appendSystemPrompt } : {}),
  });
  o.transcript?.write({ type: 'system', system, tools: names, model: settings.model, time: new Date().toISOString() });
  for (const message of o.messages.slice(o.recordMessagesFrom ?? 0)) o.transcript?.write(messageRecord(message));
  const limits = { maxSteps: settings.maxSteps, maxCostUsd: settings.maxCostUsd, deadline: started + settings.timeoutMinutes * 60_000 };
  const result = await runLoop(
    {
      model: preloadWhileAnswering(o.model, lazy),
      tools,
      system,
      limits,
      signal: o.signal,
      maxTokens: settings.maxOutputTokens,
      streamRetries: settings.maxRetries,
      compactAtTokens: settings.compactAtTokens,
      ...(o.transcript ? { transcript: o.transcript } : {}),
      ...(o.events ? { events: o.events } : {}),
    },
    o.messages,
  );
  // Outside git the only record of what changed is what the tools wrote.
  const fromGit = await changedSince(workspace.root, await takeOnce());
  const changedFiles = fromGit ?? [...written].map((p) => workspace.relative(resolve(workspace.root, p))).sort();
  return { ...result, changedFiles, durationMs: Date.now() - started };
}
