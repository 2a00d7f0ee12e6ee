import type { ToolSet } from '../../core/tools.js';
import type { TaskContext } from '../../github/context.js';
import type { TaskResult } from '../../session/run.js';
import type { Delivery, Plan } from '../deliver.js';
import type { Git } from '../plan.js';

/** Where a run's work is: the checkout and the plan for it. */
export interface Work {
  plan: Plan;
  git: Git;
}

/** What kind of run this is: which tools it gets, what it is asked, where its result goes. */
export interface Mode {
  readonly name: string;
  /** Tool rules the mode adds to the allow list (its own tools). */
  readonly allow?: readonly string[];
  /** Reads what the prompt and tools need once the checkout is there. */
  prepare?(context: TaskContext, work: Work): Promise<void>;
  /** The run's tools, from the configured ones. */
  tools(base: ToolSet): ToolSet;
  /** The first user message. */
  prompt(context: TaskContext, plan: Plan): string;
  /** Takes the run's result where it belongs; never throws (a failure is a note in the Delivery). */
  deliver(result: TaskResult, work: Work): Promise<Delivery>;
}
