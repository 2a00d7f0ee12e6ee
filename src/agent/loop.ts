import type Anthropic from '@anthropic-ai/sdk';
import { ModelError, type Model, type ModelResponse } from '../model/model.js';
import { capText } from '../tools/output.js';
import { executeToolCall, type Todo, type ToolDefinition, type ToolResult } from '../tools/registry.js';
import type { ToolSpec } from '../tools/spec.js';
import type { Workspace } from '../tools/workspace.js';
import { clearOldToolResults, withCacheBreakpoints } from './context.js';
import { firstStop, stopConditions, type Conclusion, type Limits, type Stop } from './limits.js';
import { blocksOf, messageRecord, now, textOf, toParam, type ContentBlockParam, type MessageParam, type TranscriptWriter } from './messages.js';
import { UsageMeter, type Usage, priceFor, type Price } from './usage.js';

export interface ToolCallInfo {
  id: string;
  name: string;
  input: unknown;
}

/** Progress as it happens, for the CLI's stderr and the action's tracking comment. */
export interface LoopEvents {
  onText?(delta: string): void;
  onToolStart?(call: ToolCallInfo): void;
  onToolEnd?(call: ToolCallInfo, result: ToolResult, ms: number): void;
  onStep?(info: { step: number; usage: Usage; costUsd: number; totalCostUsd: number; stopReason: string | null }): void;
  onTodos?(todos: Todo[]): void;
  /** Retries, compaction and other things worth a line in the log. */
  onNotice?(message: string): void;
}

export interface LoopConfig {
  model: Model;
  /** What the model is told about each tool offered, in order: the start of the cached prefix. */
  toolSpecs: readonly ToolSpec[];
  /**
   * The tools themselves, or how to load them: loading starts once the first response has begun
   * (the model is then thinking, and the process has nothing better to do), or when a tool is due.
   */
  tools: readonly ToolDefinition[] | (() => Promise<readonly ToolDefinition[]>);
  system: string;
  workspace: Workspace;
  toolEnv: Record<string, string>;
  limits: Limits;
  signal: AbortSignal;
  /** max_tokens of each model call. */
  maxTokens: number;
  /** Characters of one tool result before its middle is cut. */
  outputLimit: number;
  /** Retries of a stream that broke after a 200 (HTTP errors are the SDK's to retry). */
  streamRetries: number;
  /** Prompt size in tokens past which older tool output is cleared. */
  compactAtTokens: number;
  prices?: Readonly<Record<string, Price>>;
  transcript?: TranscriptWriter;
  events?: LoopEvents;
  clock?: () => number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export interface LoopResult {
  conclusion: Conclusion;
  /** Why the run ended, in words; empty on success. */
  reason: string;
  /** The model's final text (on success), or its latest text otherwise. */
  result: string;
  steps: number;
  usage: Usage;
  costUsd: number;
  lastPromptTokens: number;
  messages: MessageParam[];
}

const KEEP_RECENT_TURNS = 3;
const SUMMARY_REQUEST =
  'The conversation is getting too long for the context window. Write a summary of the work so far for yourself to continue from: what the task is, what you found, what you changed (files and why), what you ran and its results, and what is left to do. Do not call tools; answer with the summary only.';
const SUMMARY_HEADER = 'Summary of the work so far (older turns were summarised to save context):';
/** Identical failures in a row before the model is told it is going round in circles. */
const STUCK_WARN = 3;
/** ...and before the run is ended. */
const STUCK_STOP = 5;

function defaultSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** The deadline as a signal, so a model call or a tool in flight stops when time runs out. */
function runSignal(signal: AbortSignal, deadline: number, clock: () => number): { signal: AbortSignal; dispose(): void } {
  if (!Number.isFinite(deadline)) return { signal, dispose() {} };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('deadline')), Math.max(0, deadline - clock()));
  return { signal: AbortSignal.any([signal, controller.signal]), dispose: () => clearTimeout(timer) };
}

export async function runLoop(config: LoopConfig, initial: readonly MessageParam[]): Promise<LoopResult> {
  return new Loop(config, initial).run();
}

class Loop {
  private readonly messages: MessageParam[];
  private readonly readOnly: Set<string>;
  private loading: Promise<Map<string, ToolDefinition>> | null = null;
  private readonly toolParams: Anthropic.Tool[];
  private readonly system: Anthropic.TextBlockParam[];
  private readonly meter: UsageMeter;
  private readonly clock: () => number;
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  private readonly conditions;
  private steps = 0;
  private lastCallCost = 0;
  private latestText = '';
  /** The newest tool failure and how many times in a row it happened, identical call and error. */
  private failure = { key: '', count: 0, name: '', error: '' };

  constructor(
    private readonly config: LoopConfig,
    initial: readonly MessageParam[],
  ) {
    this.messages = [...initial];
    this.readOnly = new Set(config.toolSpecs.filter((s) => s.readOnly).map((s) => s.name));
    // Tools and system prompt never change during a run: they are the cached prefix.
    this.toolParams = config.toolSpecs.map((s) => ({ name: s.name, description: s.description, input_schema: s.input_schema }));
    this.system = [{ type: 'text', text: config.system, cache_control: { type: 'ephemeral' } }];
    const prices = config.prices ?? {};
    this.meter = new UsageMeter((model) => priceFor(model, prices));
    this.clock = config.clock ?? Date.now;
    this.sleep = config.sleep ?? defaultSleep;
    this.conditions = stopConditions(config.limits);
  }

  async run(): Promise<LoopResult> {
    const { signal, dispose } = runSignal(this.config.signal, this.config.limits.deadline, this.clock);
    try {
      return await this.loop(signal);
    } finally {
      dispose();
    }
  }

  private finish(stop: Stop, result?: string): LoopResult {
    const outcome: LoopResult = {
      conclusion: stop.conclusion,
      reason: stop.reason,
      result: result ?? this.latestText,
      steps: this.steps,
      usage: this.meter.total,
      costUsd: this.meter.costUsd,
      lastPromptTokens: this.meter.lastPromptTokens,
      messages: this.messages,
    };
    this.config.transcript?.write({
      type: 'meta',
      event: 'conclusion',
      time: now(),
      conclusion: outcome.conclusion,
      reason: outcome.reason,
      steps: outcome.steps,
      usage: outcome.usage,
      cost_usd: outcome.costUsd,
    });
    return outcome;
  }

  private check(signal: AbortSignal): Stop | null {
    const stop = firstStop(this.conditions, {
      steps: this.steps,
      costUsd: this.meter.costUsd,
      lastCallCostUsd: this.lastCallCost,
      now: this.clock(),
      aborted: this.config.signal.aborted,
    });
    if (stop) return stop;
    // The deadline timer may fire a hair before the clock agrees.
    return signal.aborted ? { conclusion: 'timeout', reason: 'the time limit (timeout-minutes) was reached' } : null;
  }

  private append(message: MessageParam): void {
    this.messages.push(message);
    this.config.transcript?.write(messageRecord(message, this.steps));
  }

  private async loop(signal: AbortSignal): Promise<LoopResult> {
    let continuing = false; // after pause_turn the next answer extends the same assistant turn
    let streamFailures = 0;
    for (;;) {
      const stop = this.check(signal);
      if (stop) return this.finish(stop);
      if (this.meter.lastPromptTokens > this.config.compactAtTokens) await this.compact(signal);

      let response: ModelResponse;
      try {
        response = await this.call(signal);
      } catch (error) {
        const outcome = await this.onModelError(error, signal, streamFailures);
        if (outcome === 'retry') {
          streamFailures++;
          continue;
        }
        return this.finish(outcome);
      }
      streamFailures = 0;
      this.steps++;
      const cost = this.meter.add(response.model || this.config.model.id, response.usage);
      this.lastCallCost = cost;
      this.config.events?.onStep?.({ step: this.steps, usage: response.usage, costUsd: cost, totalCostUsd: this.meter.costUsd, stopReason: response.stopReason });
      this.config.transcript?.write({ type: 'meta', event: 'usage', time: now(), step: this.steps, usage: response.usage, cost_usd: cost, total_cost_usd: this.meter.costUsd, stop_reason: response.stopReason });

      const outcome = await this.handle(response, continuing, signal);
      continuing = outcome === 'continue-turn';
      if (typeof outcome === 'object') return this.finish(outcome.stop, outcome.result);
    }
  }

  private call(signal: AbortSignal): Promise<ModelResponse> {
    return this.config.model.send({
      system: this.system,
      tools: this.toolParams,
      messages: withCacheBreakpoints(this.messages),
      maxTokens: this.config.maxTokens,
      signal,
      onConnect: () => this.preload(),
      ...(this.config.events?.onText ? { onText: this.config.events.onText } : {}),
    });
  }

  private async onModelError(error: unknown, signal: AbortSignal, failures: number): Promise<'retry' | Stop> {
    const e = error instanceof ModelError ? error : new ModelError(error instanceof Error ? error.message : String(error), 'stream', null);
    if (e.billed) this.lastCallCost = this.meter.add(this.config.model.id, e.billed);
    if (e.kind === 'aborted' || signal.aborted) {
      return this.check(signal) ?? { conclusion: 'cancelled', reason: 'the run was cancelled' };
    }
    if (e.kind === 'fatal' && /prompt is too long/i.test(e.message) && (await this.compact(signal)) > 0) return 'retry';
    if (e.kind === 'stream' && failures < this.config.streamRetries) {
      const delay = Math.min(500 * 2 ** failures, 8000) * (0.75 + Math.random() / 2);
      this.config.events?.onNotice?.(`model stream broke (${e.message}); retrying in ${Math.round(delay)} ms`);
      await this.sleep(delay, signal);
      return 'retry';
    }
    const reason = e.kind === 'stream' ? `${e.message} (after ${failures} stream retries)` : e.message;
    return { conclusion: 'error', reason };
  }

  /**
   * Makes room in the context: older tool output is cleared first (a one-line note of what was
   * there stays); when there is none left to clear, older turns are summarised by the model.
   * Returns how many things were cleared or summarised. The transcript keeps everything.
   */
  private async compact(signal: AbortSignal): Promise<number> {
    const cleared = clearOldToolResults(this.messages, KEEP_RECENT_TURNS);
    if (cleared > 0) {
      this.config.events?.onNotice?.(`context: cleared ${cleared} older tool results`);
      this.config.transcript?.write({ type: 'meta', event: 'compaction', time: now(), cleared });
    }
    const summarised = cleared > 0 ? 0 : await this.summarise(signal);
    // The next call re-sends a changed prefix; until it answers, the old size is stale.
    if (cleared + summarised > 0) this.meter.lastPromptTokens = 0;
    return cleared + summarised;
  }

  /** Replaces the turns before the newest few by the task and a summary the model writes of them. */
  private async summarise(signal: AbortSignal): Promise<number> {
    const userTurns = this.messages.flatMap((m, i) => (m.role === 'user' ? [i] : []));
    if (userTurns.length <= KEEP_RECENT_TURNS + 1) return 0;
    const cut = userTurns[userTurns.length - KEEP_RECENT_TURNS]! - 1;
    if (cut < 2 || this.messages[cut]?.role !== 'assistant') return 0;
    const head = this.messages.slice(0, cut);
    const last = head[head.length - 1]!;
    const ask: MessageParam = { role: 'user', content: [...blocksOf(last), { type: 'text', text: SUMMARY_REQUEST }] };
    let response: ModelResponse;
    try {
      response = await this.config.model.send({ system: this.system, tools: this.toolParams, messages: withCacheBreakpoints([...head.slice(0, -1), ask]), maxTokens: this.config.maxTokens, signal });
    } catch (error) {
      if (error instanceof ModelError && error.billed) this.lastCallCost = this.meter.add(this.config.model.id, error.billed);
      return 0;
    }
    this.steps++;
    this.lastCallCost = this.meter.add(response.model || this.config.model.id, response.usage);
    const summary = textOf(response.content);
    if (!summary) return 0;
    const task = blocksOf(this.messages[0]!).filter((b) => b.type === 'text');
    const replaced: MessageParam = { role: 'user', content: [...task, { type: 'text', text: `${SUMMARY_HEADER}\n${summary}` }] };
    this.messages.splice(0, cut, replaced);
    this.config.events?.onNotice?.(`context: summarised ${cut} older messages`);
    this.config.transcript?.write({ type: 'meta', event: 'summary', time: now(), replaced: cut, summary, usage: response.usage });
    return cut;
  }

  private async handle(response: ModelResponse, continuing: boolean, signal: AbortSignal): Promise<'next' | 'continue-turn' | { stop: Stop; result?: string }> {
    const reason = response.stopReason;
    const cut = reason === 'max_tokens' || reason === 'model_context_window_exceeded';
    const blocks = response.content.map(toParam);
    // A tool_use cut off by the output limit has half its input: it is never run.
    const lastBlock = blocks[blocks.length - 1];
    const dropped = cut && lastBlock?.type === 'tool_use' ? (blocks.pop() as Anthropic.ToolUseBlockParam) : undefined;
    const text = textOf(blocks);
    if (text) this.latestText = text;

    if (continuing && this.messages[this.messages.length - 1]?.role === 'assistant') {
      const prev = this.messages.pop()!;
      blocks.unshift(...blocksOf(prev));
    }
    if (blocks.length > 0) this.append({ role: 'assistant', content: blocks });

    if (reason === 'pause_turn') return 'continue-turn';
    if (reason === 'refusal') return { stop: { conclusion: 'refusal', reason: 'the model declined the task' } };
    const calls = blocks.filter((b): b is Anthropic.ToolUseBlockParam => b.type === 'tool_use');
    if (!cut && calls.length === 0) return { stop: { conclusion: 'success', reason: '' }, result: text };

    const results = await this.runTools(calls, signal);
    const notes: ContentBlockParam[] = [];
    if (reason === 'model_context_window_exceeded') {
      const cleared = await this.compact(signal);
      if (cleared === 0 && calls.length === 0) return { stop: { conclusion: 'error', reason: 'the context window is full and nothing is left to clear' } };
      notes.push({ type: 'text', text: 'The context window filled up; older tool output was cleared. Continue the task.' });
    } else if (dropped) {
      notes.push({ type: 'text', text: `Your reply hit the output limit (max_tokens) while writing a ${dropped.name} call, so that call was not run. Make it again in smaller pieces (for example several Edit calls instead of one large Write).` });
    } else if (cut) {
      notes.push({ type: 'text', text: 'Your reply hit the output limit (max_tokens). Continue from where it stopped.' });
    }
    this.appendUser([...results, ...notes]);
    if (this.failure.count >= STUCK_STOP) {
      return { stop: { conclusion: 'error', reason: `stuck: the same ${this.failure.name} call failed the same way ${this.failure.count} times in a row (${this.failure.error})` } };
    }
    if (this.config.signal.aborted) return { stop: { conclusion: 'cancelled', reason: 'the run was cancelled' } };
    if (signal.aborted) return { stop: this.check(signal) ?? { conclusion: 'timeout', reason: 'the time limit (timeout-minutes) was reached' } };
    return 'next';
  }

  /** A user turn; when the model's whole reply was dropped, the note joins the previous user turn. */
  private appendUser(content: ContentBlockParam[]): void {
    const last = this.messages[this.messages.length - 1];
    if (last && last.role === 'user') {
      last.content = [...blocksOf(last), ...content];
      this.config.transcript?.write(messageRecord({ role: 'user', content }));
      return;
    }
    this.append({ role: 'user', content });
  }

  /** Runs one turn's calls: neighbouring read-only calls together, the rest one at a time, results in call order. */
  private async runTools(calls: Anthropic.ToolUseBlockParam[], signal: AbortSignal): Promise<Anthropic.ToolResultBlockParam[]> {
    const results: Anthropic.ToolResultBlockParam[] = [];
    let i = 0;
    while (i < calls.length) {
      const batch = [calls[i]!];
      while (this.isReadOnly(calls[i]!) && i + batch.length < calls.length && this.isReadOnly(calls[i + batch.length]!)) {
        batch.push(calls[i + batch.length]!);
      }
      i += batch.length;
      results.push(...(await Promise.all(batch.map((call) => this.runTool(call, signal)))));
    }
    return results;
  }

  /** Counts identical failing calls in a row; any success or different failure starts again. */
  private countFailure(call: Anthropic.ToolUseBlockParam, result: ToolResult): number {
    if (!result.isError) {
      this.failure = { key: '', count: 0, name: '', error: '' };
      return 0;
    }
    const key = `${call.name}\u0000${JSON.stringify(call.input)}\u0000${result.content.slice(0, 2000)}`;
    const count = key === this.failure.key ? this.failure.count + 1 : 1;
    this.failure = { key, count, name: call.name, error: result.content.split('\n')[0]?.slice(0, 200) ?? '' };
    return count;
  }

  private isReadOnly(call: Anthropic.ToolUseBlockParam): boolean {
    return this.readOnly.has(call.name);
  }

  private tools(): Promise<Map<string, ToolDefinition>> {
    const source = this.config.tools;
    this.loading ??= (typeof source === 'function' ? source() : Promise.resolve(source)).then((list) => new Map(list.map((t) => [t.name, t])));
    return this.loading;
  }

  /** Starts loading the tools without waiting; a failure shows when a tool is called. */
  private preload(): void {
    this.tools().catch(() => {});
  }

  private async runTool(call: Anthropic.ToolUseBlockParam, signal: AbortSignal): Promise<Anthropic.ToolResultBlockParam> {
    const info: ToolCallInfo = { id: call.id, name: call.name, input: call.input };
    if (signal.aborted) {
      return { type: 'tool_result', tool_use_id: call.id, is_error: true, content: 'Not run: the run was stopped before this call.' };
    }
    this.config.events?.onToolStart?.(info);
    const started = this.clock();
    const result = await executeToolCall(await this.tools(), call.name, call.input, {
      workspace: this.config.workspace,
      signal,
      env: this.config.toolEnv,
      outputLimit: this.config.outputLimit,
      ...(this.config.events?.onTodos ? { onTodos: this.config.events.onTodos } : {}),
    });
    this.config.events?.onToolEnd?.(info, result, this.clock() - started);
    let content = capText(result.content || '(no output)', this.config.outputLimit);
    const repeats = this.countFailure(call, result);
    if (repeats >= STUCK_WARN && repeats < STUCK_STOP) {
      content += `\n\nThis exact ${call.name} call has now failed the same way ${repeats} times in a row. Repeating it will not help: read the error, check your assumptions (paths, arguments, file contents) and try a different approach. After ${STUCK_STOP} identical failures the run ends.`;
    }
    return { type: 'tool_result', tool_use_id: call.id, content, ...(result.isError ? { is_error: true } : {}) };
  }
}

