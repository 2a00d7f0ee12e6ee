import { addUsage, promptTokens, ZERO_USAGE, type Usage } from '../core/usage.js';
import type { LimitState } from './limits.js';

/** Running totals for a run: every billed call is added, failed and retried ones included. */
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

  /** What the stop conditions look at, as of now. */
  limitState(now: number, aborted: boolean): LimitState {
    return { steps: this.steps, costUsd: this.costUsd, lastCallCostUsd: this.lastCallCostUsd, now, aborted };
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
