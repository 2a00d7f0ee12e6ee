import { expandCommand, findCommand, type Extensions } from '../extensions/index.js';
import type { TaskContext } from '../github/context.js';
import type { ActionIo } from './io.js';
import type { Mode } from './modes/mode.js';
import type { CommandSteps } from '../session/command-steps.js';

/** What a repository command makes of the run: its body as the task, its tools and model. */
export interface CommandRun {
  context: TaskContext;
  /** The command's `allowed-tools`: rules it pre-approves beside the run's. */
  commandRules?: { source: string; rules: string[] };
  /** The command's `model`. */
  model?: string;
  /** What the command runs and reads before the first request. */
  steps?: CommandSteps;
}

/**
 * `/agent <name> [args]` runs `.claude/commands/<name>.md` (from the trusted branch) with
 * `$ARGUMENTS`, `$1`... replaced. A review takes its instructions from review.md instead.
 */
export function commandRun(context: TaskContext, extensions: Extensions, mode: Mode, io: ActionIo): CommandRun {
  if (mode.name !== 'implement') return { context };
  const found = findCommand(context.trigger.task, null, extensions.commands);
  if (!found) return { context };
  const { command, args } = found;
  io.info(`agent-action: running the command ${command.name} (${command.source})`);
  const expanded = expandCommand(command, args);
  const trigger = { ...context.trigger, task: expanded.task };
  return {
    context: { ...context, trigger },
    ...(expanded.shell.length + expanded.files.length > 0 ? { steps: { shell: expanded.shell, files: expanded.files } } : {}),
    ...(command.allowedTools ? { commandRules: { source: `${command.source} allowed-tools`, rules: command.allowedTools } } : {}),
    ...(command.model ? { model: command.model } : {}),
  };
}
