import type { StepIo } from './workflow-commands.js';

/** What the action does to the outside world, injected so that tests and the demo can watch. */
export interface ActionIo extends Pick<StepIo, 'info' | 'warning' | 'setOutput' | 'setSecret'> {
  getInput: (name: string) => string;
  summary: (markdown: string) => Promise<void>;
}

/** How a run ended, for the step's own status. */
export interface ActionOutcome {
  conclusion: string;
  reason: string;
}
