import { ModelError, type ModelTurn } from '../core/model.js';
import { promptTokens } from '../core/usage.js';
import { blocksOf, textOf, type Block, type Message, type ToolUseBlock } from '../core/messages.js';
import { compact, compactionReports, noSummary } from './compaction.js';
import type { LoopConfig, LoopResult, TurnOutcome } from './config.js';
import { CANCELLED, firstStop, LimitReached, stopConditions, TIMEOUT, type Stop, type StopCondition } from './limits.js';
import { UsageMeter } from './meter.js';
import { CONTEXT_CLEARED, droppedCall, OUTPUT_LIMIT } from './notes.js';
import { FailureStreak } from './stuck.js';
import { backoffMs, defaultSleep, withDeadline } from './timing.js';
import { now } from './transcript.js';
import { appendAssistant, appendUser } from './turns.js';
import { TurnCalls } from './turn-calls.js';

export type { LoopConfig, LoopEvents, LoopResult } from './config.js';

/** Runs the model and its tools until the model is done or a limit stops it. */
export async function runLoop(config: LoopConfig, initial: readonly Message[]): Promise<LoopResult> {
  return new Loop(config, initial).run();
}

class Loop {
  private readonly messages: Message[];
  /** Shared with subagents, so their calls count toward the same step and cost limits. */
  private readonly meter: UsageMeter;
  /** Prompt size of this loop's newest call: how full its own context window is. */
  private window = 0;
  private readonly streak = new FailureStreak();
  private readonly conditions: StopCondition[];
  private readonly clock: () => number;
  private latestText = '';
  /** How many times an end hook sent the model on. */
  private held = 0;

  constructor(
    private readonly config: LoopConfig,
    initial: readonly Message[],
  ) {
    this.messages = [...initial];
    this.meter = config.meter ?? new UsageMeter();
    this.clock = config.clock ?? Date.now;
    this.conditions = [...stopConditions(config.limits), ...(config.stops ?? [])];
  }

  async run(): Promise<LoopResult> {
    const { signal, dispose } = withDeadline(this.config.signal, this.config.limits.deadline, this.clock);
    try {
      return await this.loop(signal);
    } finally {
      dispose();
    }
  }

  private async loop(signal: AbortSignal): Promise<LoopResult> {
    let continuing = false; // after a pause the next answer extends the same assistant turn
    let streamFailures = 0;
    for (;;) {
      const stop = this.check(signal);
      if (stop) return this.finish(stop);
      if (this.window > this.config.compactAtTokens) await this.compact(signal);
      const { tools, events, transcript } = this.config;
      const calls = new TurnCalls(signal, { tools, events, transcript, streak: this.streak, clock: this.clock });
      let turn: ModelTurn;
      try {
        turn = await this.call(this.messages, signal, calls);
      } catch (error) {
        await calls.discard();
        const outcome = await this.onModelError(error, signal, streamFailures);
        if (outcome !== 'retry') return this.finish(outcome);
        streamFailures++;
        continue;
      }
      streamFailures = 0;
      const outcome = await this.handle(turn, continuing, signal, calls).finally(() => calls.discard());
      continuing = outcome === 'continue-turn';
      if (typeof outcome === 'object') return this.finish(outcome.stop, outcome.result);
    }
  }

  private check(signal: AbortSignal): Stop | null {
    const state = this.meter.limitState(this.clock(), this.config.signal.aborted);
    // The deadline timer may fire a hair before the clock agrees.
    return firstStop(this.conditions, state) ?? (signal.aborted ? TIMEOUT : null);
  }

  /** One model call; every call is a step, billed and reported, whatever it was for. A live one streams text and calls. */
  private async call(messages: readonly Message[], signal: AbortSignal, live?: TurnCalls): Promise<ModelTurn> {
    const { model, tools, system, maxTokens, events, transcript } = this.config;
    const streamed = live ? { onToolUse: live.offer, ...(events?.onText ? { onText: events.onText } : {}) } : {};
    const request = { system, tools: tools.specs(), messages, maxTokens };
    // The step and the worst-case cost are taken from the meter shared with subagents, or the call never starts.
    const worst = model.worstCaseCostUsd?.(request) ?? this.meter.lastCallCostUsd;
    const hold = this.meter.reserve(worst, (s) => firstStop(this.conditions, s), this.clock(), this.config.signal.aborted);
    let turn: ModelTurn;
    try {
      turn = await model.send({ ...request, signal, ...streamed });
    } catch (error) {
      hold.release(error instanceof ModelError && error.billed ? error.billed : undefined);
      throw error;
    }
    const { meter } = this;
    hold.settle(turn.usage, turn.costUsd);
    this.window = promptTokens(turn.usage) || this.window;
    const step = meter.steps;
    events?.onStep?.({ step, usage: turn.usage, costUsd: turn.costUsd, totalCostUsd: meter.costUsd, stopReason: turn.stopReason });
    const record = { step, usage: turn.usage, cost_usd: turn.costUsd, total_cost_usd: meter.costUsd, stop_reason: turn.stopReason };
    transcript?.write({ type: 'meta', event: 'usage', time: now(), ...record });
    return turn;
  }

  private async onModelError(error: unknown, signal: AbortSignal, failures: number): Promise<'retry' | Stop> {
    if (error instanceof LimitReached) return error.stop;
    const e = error instanceof ModelError ? error : new ModelError(error instanceof Error ? error.message : String(error), 'stream', null);
    if (e.kind === 'aborted' || signal.aborted) return this.check(signal) ?? CANCELLED;
    if (e.kind === 'too_long' && (await this.compact(signal)) > 0) return 'retry';
    if (e.kind === 'stream' && failures < this.config.streamRetries) {
      const delay = backoffMs(failures);
      this.config.events?.onNotice?.(`model stream broke (${e.message}); retrying in ${Math.round(delay)} ms`);
      await (this.config.sleep ?? defaultSleep)(delay, signal);
      return 'retry';
    }
    return { conclusion: 'error', reason: e.kind === 'stream' ? `${e.message} (after ${failures} stream retries)` : e.message };
  }

  /** Makes room in the context (see compaction.ts); the transcript keeps everything. */
  private async compact(signal: AbortSignal): Promise<number> {
    await this.config.hooks?.beforeCompact?.(signal);
    const summarise = (request: Message[]) => this.call(request, signal).then((t) => textOf(t.content), noSummary);
    const made = await compact(this.messages, { summarise, ...compactionReports(this.config) });
    // The next call re-sends a changed prefix; until it answers, the old size is stale.
    if (made > 0) this.window = 0;
    return made;
  }

  /** The model is done; an end hook may send it on (a Stop hook's objection) or end the run its own way. */
  private async onEnd(text: string, signal: AbortSignal): Promise<TurnOutcome> {
    const verdict = await this.config.hooks?.onEnd?.(text, this.held > 0, signal);
    if (!verdict) return { stop: { conclusion: 'success', reason: '' }, result: text };
    if (typeof verdict !== 'string') return { stop: verdict, result: text };
    this.held++;
    appendUser(this.messages, [{ type: 'text', text: verdict }], this.config.transcript);
    return 'next';
  }

  private async handle(turn: ModelTurn, continuing: boolean, signal: AbortSignal, live: TurnCalls): Promise<TurnOutcome> {
    const cut = turn.stop === 'max_tokens' || turn.stop === 'context_full';
    const blocks = [...turn.content];
    // A tool_use cut off by the output limit has half its input: it is never run.
    const dropped = cut && blocks[blocks.length - 1]?.type === 'tool_use' ? (blocks.pop() as ToolUseBlock) : undefined;
    const text = textOf(blocks);
    if (text) this.latestText = text;
    if (continuing && this.messages[this.messages.length - 1]?.role === 'assistant') blocks.unshift(...blocksOf(this.messages.pop()!));
    if (blocks.length > 0) appendAssistant(this.messages, { role: 'assistant', content: blocks }, this.config.transcript, this.meter.steps);

    if (turn.stop === 'pause') return 'continue-turn';
    if (turn.stop === 'refusal') return { stop: { conclusion: 'refusal', reason: 'the model declined the task' } };
    const calls = blocks.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    if (!cut && calls.length === 0) return this.onEnd(text, signal);

    const results: Block[] = await live.finish(calls);
    if (turn.stop === 'context_full') {
      if ((await this.compact(signal)) === 0 && calls.length === 0) {
        return { stop: { conclusion: 'error', reason: 'the context window is full and nothing is left to clear' } };
      }
      results.push({ type: 'text', text: CONTEXT_CLEARED });
    } else if (cut) {
      results.push({ type: 'text', text: dropped ? droppedCall(dropped.name) : OUTPUT_LIMIT });
    }
    appendUser(this.messages, results, this.config.transcript);
    if (this.streak.stuck) {
      const { tool, count, error } = this.streak;
      const reason = `stuck: the same ${tool} call failed the same way ${count} times in a row (${error})`;
      return { stop: { conclusion: 'error', reason } };
    }
    if (this.config.signal.aborted) return { stop: CANCELLED };
    return signal.aborted ? { stop: this.check(signal) ?? TIMEOUT } : 'next';
  }

  private finish(stop: Stop, result?: string): LoopResult {
    const { total: usage, costUsd, steps } = this.meter;
    const lastPromptTokens = this.window;
    this.config.transcript?.write({ type: 'meta', event: 'conclusion', time: now(), ...stop, steps, usage, cost_usd: costUsd });
    return { ...stop, result: result ?? this.latestText, steps, usage, costUsd, lastPromptTokens, messages: this.messages };
  }
}
