import type { Stop } from '../core/conclusion.js';

export type { Conclusion, Stop } from '../core/conclusion.js';

export interface Limits {
  maxSteps: number;
  maxCostUsd: number;
  /** Epoch ms after which no model call starts; Infinity for none. */
  deadline: number;
}

/** What the stop conditions look at, taken fresh before every model call. */
export interface LimitState {
  /** Steps taken, and held by calls in flight. */
  steps: number;
  /** USD spent, and the worst case held by calls in flight. */
  costUsd: number;
  /** The part of costUsd held by calls in flight. */
  reservedUsd?: number;
  /** Cost of the newest billed call: the best guess of what the next one costs. */
  lastCallCostUsd: number;
  now: number;
  aborted: boolean;
}

export type StopCondition = (state: LimitState) => Stop | null;

export const CANCELLED: Stop = { conclusion: 'cancelled', reason: 'the run was cancelled' };
export const TIMEOUT: Stop = { conclusion: 'timeout', reason: 'the time limit (timeout-minutes) was reached' };

export const cancelled: StopCondition = (s) => (s.aborted ? CANCELLED : null);

export const pastDeadline =
  (deadline: number): StopCondition =>
  (s) =>
    s.now >= deadline ? TIMEOUT : null;

export const stepLimit =
  (maxSteps: number): StopCondition =>
  (s) =>
    s.steps >= maxSteps ? { conclusion: 'max-steps', reason: `the step limit (max-steps ${maxSteps}) was reached` } : null;

/**
 * Stops once the spend reaches the cap, and also when the next call, guessed from the last one,
 * would pass it: a cap is a promise about what is billed, not about when we noticed.
 */
export const budget =
  (maxCostUsd: number): StopCondition =>
  (s) => {
    if (s.costUsd >= maxCostUsd || s.costUsd + s.lastCallCostUsd > maxCostUsd) {
      return {
        conclusion: 'budget',
        reason: `the spend cap (max-cost-usd ${maxCostUsd}) was reached: $${s.costUsd.toFixed(4)} spent${held(s)}, about $${s.lastCallCostUsd.toFixed(4)} a call`,
      };
    }
    return null;
  };

const held = (s: LimitState) => (s.reservedUsd ? ` or held by calls in flight ($${s.reservedUsd.toFixed(4)})` : '');

/** A model call that could not reserve its step or cost: the limit stops the loop that made it. */
export class LimitReached extends Error {
  constructor(readonly stop: Stop) {
    super(stop.reason);
  }
}

export function stopConditions(limits: Limits): StopCondition[] {
  return [cancelled, pastDeadline(limits.deadline), stepLimit(limits.maxSteps), budget(limits.maxCostUsd)];
}

export function firstStop(conditions: readonly StopCondition[], state: LimitState): Stop | null {
  for (const condition of conditions) {
    const stop = condition(state);
    if (stop) return stop;
  }
  return null;
}
