import { randomUUID } from 'node:crypto';
import type { LoopHooks } from '../agent/config.js';
import type { StopCondition } from '../agent/limits.js';
import type { TranscriptWriter } from '../agent/transcript.js';
import { blocksOf, textOf, type Message } from '../core/messages.js';
import { outcomeText, type ToolSet } from '../core/tools.js';
import { afterEach } from '../tools/compose.js';
import { HOOK_REFUSED, hookRunner, toolHooks, withHooks, type HookContext, type HookRun, type HookSettings } from '../tools/hooks/index.js';
import { sessionHookEvents, type SessionHookEvents } from './hook-events.js';
import type { TaskEvents } from './events.js';
import type { Wrap } from '../sandbox/types.js';

export interface TaskHookOptions {
  settings: HookSettings;
  /** The workspace root: the hooks' cwd and CLAUDE_PROJECT_DIR. */
  cwd: string;
  /** The tools' environment: hooks see what Bash sees, never the action's secrets. */
  env: Record<string, string>;
  /** The sandbox Bash runs in; hooks run in it too. */
  wrap?: Promise<Wrap> | undefined;
  /** A hook's command as it runs (the trusted ref's files on a pull request run). */
  launch?: HookContext['launch'];
  transcript?: TranscriptWriter | undefined;
  events?: TaskEvents | undefined;
}

/** The run's hooks, as the task wires them: around the tools, at the loop's end and compaction, at start and end. */
export interface TaskHooks {
  tools: (set: ToolSet) => ToolSet;
  loop: LoopHooks;
  /** SubagentStop: when a subagent's model is done, as Stop is for the run's. */
  subagentEnd: NonNullable<LoopHooks['onEnd']>;
  stops: StopCondition[];
  /** SessionStart and UserPromptSubmit: context they add joins the last user message. */
  begin: (messages: Message[], signal: AbortSignal) => Promise<void>;
  end: (reason: string, signal: AbortSignal) => Promise<void>;
}

function recordRun(o: TaskHookOptions, run: HookRun): void {
  const { event, command, exitCode, ms, timedOut, outcome } = run;
  o.transcript?.write({
    type: 'meta',
    event: 'hook',
    time: new Date().toISOString(),
    hook_event: event,
    command,
    exit_code: exitCode,
    ms,
    timed_out: timedOut,
    outcome,
  });
  const how = timedOut ? 'timed out' : `exit ${exitCode ?? 'none'}`;
  o.events?.onNotice?.(`hook ${event}: ${command.split('\n')[0]!.slice(0, 100)} (${how}, ${Math.round(ms)} ms, ${outcome})`);
}

/** A call a hook refused counts as a refusal, as a rule's does, so the report can name it. */
function reportingRefusals(set: ToolSet, events: TaskEvents | undefined): ToolSet {
  return afterEach(set, (outcome, call) => {
    const text = outcome.isError ? outcomeText(outcome) : '';
    if (text.startsWith(HOOK_REFUSED)) events?.onRefusal?.(call, text.split('\n')[0]!);
    return outcome;
  });
}

function withContext(messages: Message[], context: string): void {
  const last = messages[messages.length - 1];
  if (last?.role !== 'user') return;
  last.content = [...blocksOf(last), { type: 'text', text: `Context from the repository's hooks:\n${context}` }];
}

/** Stop and SubagentStop: a hook may end the loop, send the model on with its feedback, or let it finish. */
function endHook(event: 'Stop' | 'SubagentStop', run: SessionHookEvents['stop']): NonNullable<LoopHooks['onEnd']> {
  return async (text, again, signal) => {
    const verdict = await run(text, again, signal);
    if (verdict.stop !== undefined)
      return { conclusion: 'stopped', reason: `a ${event} hook ended the ${event === 'Stop' ? 'run' : 'subagent'}: ${verdict.stop}` };
    return verdict.continueWith !== undefined ? `${event} hook feedback:\n${verdict.continueWith}` : null;
  };
}

/** The hooks of settings that configure some (task-tools loads this module only then). */
export async function taskHooks(o: TaskHookOptions): Promise<TaskHooks> {
  const wrap = await o.wrap;
  const runner = hookRunner(o.settings, {
    cwd: o.cwd,
    env: o.env,
    ...(wrap ? { wrap } : {}),
    ...(o.launch ? { launch: o.launch } : {}),
    sessionId: randomUUID(),
    transcriptPath: o.transcript?.path ?? '',
    onRun: (run) => recordRun(o, run),
    log: (message) => o.events?.onNotice?.(message),
  });
  const tools = toolHooks(runner);
  const hooks = sessionHookEvents(runner);
  let stopped: string | null = null;
  const stop = (reason: string | undefined) => (stopped ??= reason ?? null);
  return {
    tools: (set) => reportingRefusals(withHooks(set, tools), o.events),
    stops: [
      () =>
        (runner.stopped ?? stopped) !== null
          ? { conclusion: 'stopped', reason: `a hook ended the run: ${runner.stopped ?? stopped}` }
          : null,
    ],
    loop: {
      onEnd: endHook('Stop', (text, again, signal) => hooks.stop(text, again, signal)),
      beforeCompact: async (signal) => void stop((await hooks.preCompact(signal)).stop),
    },
    subagentEnd: endHook('SubagentStop', (text, again, signal) => hooks.subagentStop(text, again, signal)),
    async begin(messages, signal) {
      const started = await hooks.sessionStart(signal);
      stop(started.stop);
      const last = messages[messages.length - 1];
      const prompt = last?.role === 'user' ? textOf(blocksOf(last)) : '';
      const submitted = stopped === null ? await hooks.userPromptSubmit(prompt, signal) : {};
      const context = [started.additionalContext, submitted.additionalContext].filter((c): c is string => Boolean(c)).join('\n\n');
      if (context) withContext(messages, context);
    },
    end: (reason, signal) => hooks.sessionEnd(reason, signal),
  };
}
