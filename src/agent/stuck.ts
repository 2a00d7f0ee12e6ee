import { outcomeText, type ToolCall, type ToolOutcome } from '../core/tools.js';

/** Identical failures in a row before the model is told it is going round in circles. */
export const STUCK_WARN = 3;
/** ...and before the run is ended. */
export const STUCK_STOP = 5;

/** Counts identical failing calls in a row; any success or different failure starts again. */
export class FailureStreak {
  private key = '';
  count = 0;
  tool = '';
  /** The first line of the repeated error, for the run's reason. */
  error = '';

  record(call: ToolCall, outcome: ToolOutcome): number {
    if (!outcome.isError) {
      this.key = '';
      this.count = 0;
      return 0;
    }
    const text = outcomeText(outcome);
    const key = `${call.name}\u0000${JSON.stringify(call.input)}\u0000${text.slice(0, 2000)}`;
    this.count = key === this.key ? this.count + 1 : 1;
    this.key = key;
    this.tool = call.name;
    this.error = text.split('\n')[0]?.slice(0, 200) ?? '';
    return this.count;
  }

  get stuck(): boolean {
    return this.count >= STUCK_STOP;
  }
}
