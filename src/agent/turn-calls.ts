import type { ToolResultBlock, ToolUseBlock } from '../core/messages.js';
import type { ToolOutcome } from '../core/tools.js';
import { resultOf, runInBatches, startCall, type ToolCallContext } from './tool-calls.js';
import { now } from './transcript.js';

interface Started {
  call: ToolUseBlock;
  run: Promise<ToolOutcome | null>;
}

const sameCall = (a: ToolUseBlock, b: ToolUseBlock) => a.name === b.name && JSON.stringify(a.input) === JSON.stringify(b.input);

/**
 * One model answer's tool calls, each started as early as is safe, their results in block order.
 *
 * While the answer streams, the model adapter reports each tool_use block once it is whole
 * (`ModelRequest.onToolUse`). A read-only call then starts at once, alongside the read-only calls
 * before it, unless its tool says `earlyStart: false`. The first call that may not start early
 * holds back the rest of the answer, whose calls then run once it is whole, in batches as ever:
 * neighbouring read-only calls together, the others one at a time, in order.
 *
 * Only reads start early because an answer can still be lost after a call started: its stream
 * breaks and is retried (the retried answer may differ), or it ends in a way that runs no calls
 * (a pause, a refusal). A read that ran for a lost answer is harmless: it is stopped, awaited and
 * recorded in the transcript, and its result is never sent. A write, a command or a subagent would
 * have changed the workspace behind the next answer's back, so those wait for the whole answer.
 * The adapter, for its part, never reports a block an output limit may have cut short.
 */
export class TurnCalls {
  private readonly started = new Map<string, Started>();
  /** Set by the first call that may not start early, and once the answer is whole. */
  private held = false;
  private readonly stop = new AbortController();
  private readonly signal: AbortSignal;
  private early: ReadonlySet<string> | undefined;

  constructor(
    signal: AbortSignal,
    private readonly c: ToolCallContext,
  ) {
    this.signal = AbortSignal.any([signal, this.stop.signal]);
  }

  /** A block is whole while the answer streams on: its call starts now if it may. */
  readonly offer = (call: ToolUseBlock): void => {
    if (this.held || this.started.has(call.id)) return;
    if (!this.mayStartEarly(call.name)) {
      this.held = true;
      return;
    }
    const run = startCall(call, this.signal, this.c);
    // Awaited only later (by finish or discard), where a rejection still surfaces; not unhandled meanwhile.
    void run.catch(() => undefined);
    this.started.set(call.id, { call, run });
  };

  private mayStartEarly(name: string): boolean {
    this.early ??= new Set(
      this.c.tools
        .specs()
        .filter((s) => s.earlyStart !== false)
        .map((s) => s.name),
    );
    return this.early.has(name) && this.c.tools.isReadOnly(name);
  }

  /** The answer is whole: its calls that started early are awaited, the others run now; results in block order. */
  async finish(calls: readonly ToolUseBlock[]): Promise<ToolResultBlock[]> {
    this.held = true;
    const early = new Map<ToolUseBlock, Promise<ToolOutcome | null>>();
    // An early run stands for a call of the answer only in an unbroken run from its first call and
    // with the very same input; anything else is discarded and the call runs in its turn.
    for (const call of calls) {
      const started = this.started.get(call.id);
      if (!started || !sameCall(started.call, call)) break;
      early.set(call, started.run);
      this.started.delete(call.id);
    }
    const outcomes = await runInBatches(
      calls,
      (call) => this.c.tools.isReadOnly(call.name),
      (call) => early.get(call) ?? startCall(call, this.signal, this.c),
    );
    await this.discard();
    return calls.map((call, i) => resultOf(call, outcomes[i] ?? null, this.c.streak));
  }

  /** Stops the calls whose answer was lost, waits for them and records them; their results are never sent. */
  async discard(): Promise<void> {
    this.held = true;
    const lost = [...this.started.values()];
    this.started.clear();
    if (lost.length === 0) return;
    this.stop.abort();
    await Promise.allSettled(lost.map((s) => s.run));
    const calls = lost.map(({ call: { id, name } }) => ({ id, name }));
    this.c.transcript?.write({ type: 'meta', event: 'calls_discarded', time: now(), calls });
    const names = calls.map((call) => call.name).join(', ');
    this.c.events?.onNotice?.(`dropped the results of ${names}: they started while the model was answering, and that answer was not used`);
  }
}
