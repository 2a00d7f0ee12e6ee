import { resolve } from 'node:path';
import type { Model } from './core/model.js';
import type { Message } from './core/messages.js';
import type { ToolSet } from './core/tools.js';
import { runLoop, type LoopResult } from './agent/loop.js';
import { messageRecord, TranscriptWriter } from './agent/transcript.js';
import { changedSince, takeBaseline, type Baseline } from './git/changes.js';
import { systemPrompt } from './prompt/system.js';
import type { LoopSettings } from './settings.js';
import { toolEnvironment } from './tools/env.js';
import { preloadWhileAnswering } from './tools/lazy.js';
import { loadRules, type RuleLists } from './tools/permissions/rules.js';
import { toolStack } from './tools/stack.js';
import type { HookSettings } from './tools/hooks/index.js';
import { taskHooks } from './task-hooks.js';
import type { TaskEvents } from './task-events.js';
import { Workspace } from './tools/workspace.js';

export type { TaskEvents } from './task-events.js';

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
  mode: 'action' | 'cli' | 'review';
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
  /** Shapes the tools inside the permission rules (a mode's choice of tools). */
  tools?: (base: ToolSet) => ToolSet;
  /** Allow and deny rules with their sources; by default the settings' allowed and disallowed tools. */
  rules?: RuleLists;
  /** Claude Code hooks from the trusted settings. */
  hooks?: HookSettings;
}

/** The rules of the settings alone, named as the inputs that hold them. */
export function defaultRules(settings: LoopSettings): RuleLists {
  return {
    allow: [{ source: 'allowed-tools', rules: settings.allowedTools }],
    deny: [{ source: 'disallowed-tools', rules: settings.disallowedTools }],
  };
}

export interface TaskResult extends LoopResult {
  changedFiles: string[];
  durationMs: number;
}

/** The rules, the hooks and the tools they guard. */
async function taskTools(o: TaskOptions, workspace: Workspace, ready: () => Promise<unknown>, onWrite: (path: string) => void) {
  const rules = await loadRules(o.rules ?? defaultRules(o.settings));
  const env = toolEnvironment(o.env);
  const hooks = await taskHooks({
    settings: o.hooks ?? {},
    cwd: workspace.root,
    env,
    wrap: o.wrap,
    transcript: o.transcript,
    events: o.events,
  });
  const stack = toolStack({
    workspace,
    env,
    outputLimit: o.settings.toolOutputLimit,
    rules,
    wrap: o.wrap,
    ready,
    shape: o.tools,
    hooks: hooks?.tools,
    onTodos: o.events?.onTodos,
    onRefusal: o.events?.onRefusal,
    onWrite,
  });
  return { ...stack, hooks };
}

/** One run of the loop in a workspace: tools, prompt, limits, and what changed afterwards. */
export async function runTask(o: TaskOptions): Promise<TaskResult> {
  const started = o.startedAt ?? Date.now();
  const { settings } = o;
  const workspace = await Workspace.open(o.cwd, o.runnerTemp ? { runnerTemp: o.runnerTemp } : {});
  let baseline: Promise<Baseline> | undefined;
  const takeOnce = () => (baseline ??= takeBaseline(workspace.root));
  const written = new Set<string>();
  const { tools, lazy, hooks } = await taskTools(o, workspace, takeOnce, (path) => written.add(path));
  // The tools as the model will see them: after the mode, the rules and the hooks had their say.
  const names = tools.specs().map((s) => s.name);
  const system = systemPrompt({
    mode: o.mode,
    workspace: workspace.root,
    tools: names,
    ...(o.appendSystemPrompt ? { append: o.appendSystemPrompt } : {}),
  });
  // Hooks may add context to the prompt: a copy, so the caller's messages stay as they were.
  const messages = o.messages.map((m) => ({ ...m }));
  await hooks?.begin(messages, o.signal);
  o.transcript?.write({ type: 'system', system, tools: names, model: settings.model, time: new Date().toISOString() });
  for (const message of messages.slice(o.recordMessagesFrom ?? 0)) o.transcript?.write(messageRecord(message));
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
      ...(hooks ? { hooks: hooks.loop, stops: hooks.stops } : {}),
    },
    messages,
  );
  // SessionEnd runs whatever ended the run, cancellation included: its own timeout bounds it.
  await hooks?.end(result.conclusion, new AbortController().signal);
  // Outside git the only record of what changed is what the tools wrote.
  const fromGit = await changedSince(workspace.root, await takeOnce());
  const changedFiles = fromGit ?? [...written].map((p) => workspace.relative(resolve(workspace.root, p))).sort();
  return { ...result, changedFiles, durationMs: Date.now() - started };
}
