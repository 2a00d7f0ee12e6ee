import * as core from '@actions/core';
import { runAction, type ActionIo } from './action/run.js';
import { SettingsError } from './action/settings.js';
import { neutralizeWorkflowCommands } from './report/redact.js';
import { scrubEnvironment } from './secrets/environ.js';
import { isSecretVariable } from './tools/env.js';

/** Inputs as the runner passes them (INPUT_<NAME>), read from a copy taken before secrets are wiped. */
function inputReader(env: NodeJS.ProcessEnv): (name: string) => string {
  return (name) => (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}

function actionsIo(env: NodeJS.ProcessEnv): ActionIo {
  return {
    getInput: inputReader(env),
    // Model and tool text can hold "::command::" lines; the log must never run them.
    info: (m) => core.info(neutralizeWorkflowCommands(m)),
    warning: (m) => core.warning(neutralizeWorkflowCommands(m)),
    setOutput: (name, value) => core.setOutput(name, value),
    setSecret: (value) => core.setSecret(value),
    summary: async (markdown) => {
      if (!process.env['GITHUB_STEP_SUMMARY']) return;
      await core.summary.addRaw(markdown, true).write();
    },
  };
}

/**
 * The action's entry: one try/catch around the run. A skipped or refused trigger ends the step
 * successfully; so does a run stopped by a limit (its work is delivered and reported). Only an
 * error fails the step.
 */
export async function run(): Promise<void> {
  const controller = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      core.warning(`agent-action: ${signal} received; stopping and saving the work so far`);
      controller.abort(new Error(signal));
    });
  }
  const env = { ...process.env };
  scrubEnvironment(isSecretVariable);
  try {
    const outcome = await runAction({ env, io: actionsIo(env), signal: controller.signal });
    if (outcome.conclusion === 'error') core.setFailed(neutralizeWorkflowCommands(outcome.reason));
    else if (!['success', 'skipped', 'unauthorized'].includes(outcome.conclusion)) core.warning(`agent-action stopped: ${outcome.reason}`);
  } catch (error) {
    const message = error instanceof SettingsError ? `invalid configuration: ${error.message}` : error instanceof Error ? error.message : String(error);
    core.setOutput('conclusion', 'error');
    core.setFailed(neutralizeWorkflowCommands(message));
  }
}
