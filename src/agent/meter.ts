import { addUsage, promptTokens, ZERO_USAGE, type Usage } from '../core/usage.js';
import type { Stop } from '../core/conclusion.js';
import { LimitReached, type LimitState } from './limits.js';

/** A model call's hold on one step and its worst-case cost, from before it starts until it ends. */
export interface Reservation {
  /** The call answered: its step is taken and its real cost replaces the worst case. */
  settle(usage: Usage, costUsd: number): void;
  /** The call failed: no step is taken; what it was still billed for, if anything, is added. */
  release(billed?: { usage: Usage; costUsd: number }): void;
}

/**
 * Running totals for a run: every billed call is added, failed and retried ones included. Calls in
 * flight (the main loop's and every subagent's) hold a reservation, which the limits count as spent.
 */
export class UsageMeter {
  total: Usage = { ...ZERO_USAGE };
  costUsd = 0;
  /** Cost of the newest billed call: the best guess of what the next one costs. */
  lastCallCostUsd = 0;
  /** Prompt size of the newest call: how full the context window is. */
  lastPromptTokens = 0;
  billedCalls = 0;
  /** Model calls that answered: the run's steps, subagents' included when they share the meter. */
  steps = 0;
  /** Steps and worst-case cost held by calls in flight. */
  reservedSteps = 0;
  reservedUsd = 0;

  /** What the stop conditions look at, as of now: calls in flight count as if they had answered at their worst. */
  limitState(now: number, aborted: boolean): LimitState {
    return {
      steps: this.steps + this.reservedSteps,
      costUsd: this.costUsd + this.reservedUsd,
      reservedUsd: this.reservedUsd,
      lastCallCostUsd: this.lastCallCostUsd,
      now,
      aborted,
    };
  }

  /**
   * Checks the limits and takes a step and `worstCaseUsd` in one synchronous move, so calls that
   * start together cannot all pass the same check; throws LimitReached when the limits forbid another call.
   */
  reserve(worstCaseUsd: number, check: (state: LimitState) => Stop | null, now: number, aborted: boolean): Reservation {
    const stop = check(this.limitState(now, aborted));
    if (stop) throw new LimitReached(stop);
    const usd = Math.max(0, worstCaseUsd);
    this.reservedSteps++;
    this.reservedUsd += usd;
    let open = true;
    const end = () => {
      if (!open) return false;
      open = false;
      this.reservedSteps--;
      this.reservedUsd = this.reservedSteps === 0 ? 0 : Math.max(0, this.reservedUsd - usd);
      return true;
    };
    return {
      settle: (usage, costUsd) => {
        if (!end()) return;
        this.steps++;
        this.add(usage, costUsd);
      },
      release: (billed) => {
        if (end() && billed) this.add(billed.usage, billed.costUsd);
      },
    };
  }

  add(usage: Usage, costUsd: number): void {
    this.total = addUsage(this.total, usage);
    this.costUsd += costUsd;
    this.lastCallCostUsd = costUsd;
    this.billedCalls += 1;
    const prompt = promptTokens(usage);
    if (prompt > 0) this.lastPromptTokens = prompt;
  }
}
