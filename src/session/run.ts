import { resolve } from 'node:path';
import { runLoop, type LoopResult } from '../agent/loop.js';
import { messageRecord } from '../agent/transcript.js';
import { changedSince, takeBaseline, type Baseline } from '../git/changes.js';
import { systemPrompt } from '../prompt/system.js';
import { preloadWhileAnswering } from '../tools/lazy.js';
import { UsageMeter } from '../agent/meter.js';
import { taskTools } from './tools.js';
import { runCommandSteps } from './command-steps.js';
import type { LoopHooks } from '../agent/config.js';
import { toolEnvironment } from '../tools/env.js';
import { verification, type Verification } from './verify.js';
import { skillsPromptSection } from '../extensions/index.js';
import { Workspace } from '../tools/workspace.js';
import { answerCheck, answerInstructions, structuredValue } from '../structured/answer.js';

import type { TaskOptions } from './options.js';
import type { Message } from '../core/messages.js';
import type { ToolSet } from '../core/tools.js';

export type { TaskEvents } from './events.js';
export { defaultRules, type TaskOptions } from './options.js';

export interface TaskResult extends LoopResult {
  /** Whether the verify command passed in the end; null when none is set or it never ran. */
  verified: boolean | null;
  changedFiles: string[];
  durationMs: number;
  /** The final answer as JSON when json-schema is set and it satisfies it; absent otherwise. */
  structuredOutput?: unknown;
}

/** One run of the loop in a workspace: tools, prompt, limits, and what changed afterwards. */
export async function runTask(o: TaskOptions): Promise<TaskResult> {
  const started = o.startedAt ?? Date.now();
  const { settings } = o;
  const workspace = await Workspace.open(o.cwd, {
    ...(o.runnerTemp ? { runnerTemp: o.runnerTemp } : {}),
    ...(o.credentials ? { credentials: o.credentials } : {}),
    ...(o.readOnlyRoots ? { readOnlyRoots: o.readOnlyRoots } : {}),
  });
  let baseline: Promise<Baseline> | undefined;
  const takeOnce = () => (baseline ??= Promise.resolve(o.ready).then(() => takeBaseline(workspace.root)));
  // The scan starts as soon as the workspace is ready and runs while the first request is
  // answered: a tool waits for it only when it comes sooner. Its failure is the tools' and the end's to report.
  takeOnce().catch(() => undefined);
  const signal = stopWhenNotReady(o);
  const written = new Set<string>();
  const limits = { maxSteps: settings.maxSteps, maxCostUsd: settings.maxCostUsd, deadline: started + settings.timeoutMinutes * 60_000 };
  const meter = new UsageMeter();
  const { tools, lazy, hooks } = await taskTools(o, { workspace, meter, limits, ready: takeOnce, onWrite: (path) => written.add(path) });
  const names = tools.specs().map((s) => s.name);
  const system = systemFor(o, workspace.root, names);
  const messages = await firstMessages(o, tools, workspace.root, hooks, signal);
  o.transcript?.write({ type: 'system', system, tools: names, model: settings.model, time: new Date().toISOString() });
  for (const message of messages.slice(o.recordMessagesFrom ?? 0)) o.transcript?.write(messageRecord(message));
  const verify = verifyFor(o, workspace);
  const result = await runLoop(
    {
      model: preloadWhileAnswering(o.model, lazy),
      tools,
      system,
      limits,
      signal,
      maxTokens: settings.maxOutputTokens,
      streamRetries: settings.maxRetries,
      compactAtTokens: settings.compactAtTokens,
      meter,
      ...(o.transcript ? { transcript: o.transcript } : {}),
      ...(o.events ? { events: o.events } : {}),
      hooks: endHooks(hooks?.loop, verify, o.answerSchema ? answerCheck(o.answerSchema) : null),
      ...(hooks ? { stops: hooks.stops } : {}),
    },
    messages,
  );
  // A workspace that never became ready fails the run rather than ending it as cancelled.
  await o.ready;
  // SessionEnd runs whatever ended the run, cancellation included: its own timeout bounds it.
  await hooks?.end(result.conclusion, new AbortController().signal);
  // Outside git the only record of what changed is what the tools wrote.
  const fromGit = await changedSince(workspace.root, await takeOnce());
  const changedFiles = fromGit ?? [...written].map((p) => workspace.relative(resolve(workspace.root, p))).sort();
  const structured = o.answerSchema ? structuredValue(o.answerSchema, result.result) : undefined;
  return {
    ...result,
    changedFiles,
    durationMs: Date.now() - started,
    verified: verify?.passed() ?? null,
    ...(structured !== undefined ? { structuredOutput: structured } : {}),
  };
}

/** The messages of the first request: a command's steps run and hooks' context added, on a copy. */
async function firstMessages(
  o: TaskOptions,
  tools: ToolSet,
  root: string,
  hooks: { begin(messages: Message[], signal: AbortSignal): Promise<unknown> } | null,
  signal: AbortSignal,
): Promise<Message[]> {
  // A copy, so the caller's messages stay as they were.
  const messages = o.messages.map((m) => ({ ...m }));
  // Hooks and a command's steps run commands in the workspace.
  if (hooks || o.commandSteps) await o.ready;
  if (o.commandSteps) await runCommandSteps(o.commandSteps, tools, root, messages, signal, o.events?.onNotice);
  await hooks?.begin(messages, signal);
  return messages;
}

/** The system prompt for the tools as the model will see them: after the mode, the rules and the hooks had their say. */
function systemFor(
  o: Pick<TaskOptions, 'mode' | 'skills' | 'appendSystemPrompt' | 'answerSchema'>,
  workspace: string,
  tools: string[],
): string {
  // The skills' list is part of the stable prefix: sorted, and the same for every request of the run.
  const schemaPart = o.answerSchema ? answerInstructions(o.answerSchema) : '';
  const append = [skillsPromptSection(o.skills ?? []), o.appendSystemPrompt ?? '', schemaPart].filter((t) => t.trim() !== '').join('\n\n');
  return systemPrompt({ mode: o.mode, workspace, tools, ...(append ? { append } : {}) });
}

/** The caller's signal, also aborted when the workspace fails to become ready. */
function stopWhenNotReady(o: Pick<TaskOptions, 'ready' | 'signal'>): AbortSignal {
  if (!o.ready) return o.signal;
  const failed = new AbortController();
  o.ready.catch((error: unknown) => failed.abort(error));
  return AbortSignal.any([o.signal, failed.signal]);
}

/** The verify command of the settings, run when the model ends; null when none is set. */
function verifyFor(
  o: Pick<TaskOptions, 'settings' | 'env' | 'variables' | 'wrap' | 'transcript' | 'events'>,
  workspace: Workspace,
): Verification | null {
  const { settings } = o;
  if (!settings.verify) return null;
  return verification({
    command: settings.verify,
    attempts: settings.verifyAttempts,
    workspace,
    env: { ...toolEnvironment(o.env), ...o.variables },
    wrap: o.wrap,
    outputLimit: settings.toolOutputLimit,
    transcript: o.transcript,
    onNotice: o.events?.onNotice,
  });
}

/** The Stop hooks have their say first; once they let the model finish, the verify command does, then the answer's schema. */
function endHooks(hooks: LoopHooks | undefined, verify: Verification | null, schema: LoopHooks['onEnd'] | null): LoopHooks {
  return {
    ...hooks,
    async onEnd(text, again, signal) {
      const held = (await hooks?.onEnd?.(text, again, signal)) ?? (verify ? await verify.hook(text, again, signal) : null);
      return held ?? (schema ? schema(text, again, signal) : null);
    },
  };
}
