import { runAction, type ActionIo } from './action/run.js';
import { SettingsError } from './action/settings.js';
import { stepIo, type StepIo } from './action/workflow-commands.js';
import { neutralizeWorkflowCommands, Redactor } from './report/redact.js';
import { scrubEnvironment } from './secrets/environ.js';
import { isSecretVariable } from './tools/env.js';
import { providerSecrets } from './model/secrets.js';
import { privateKeySecrets } from './action/access.js';

/** Inputs as the runner passes them (INPUT_<NAME>), read from a copy taken before secrets are wiped. */
function inputReader(env: NodeJS.ProcessEnv): (name: string) => string {
  return (name) => (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}

function actionsIo(env: NodeJS.ProcessEnv, step: StepIo): ActionIo {
  return {
    getInput: inputReader(env),
    // Model and tool text can hold "::command::" lines; the log must never run them.
    info: (m) => step.info(neutralizeWorkflowCommands(m)),
    warning: (m) => step.warning(neutralizeWorkflowCommands(m)),
    setOutput: (name, value) => step.setOutput(name, value),
    setSecret: (value) => step.setSecret(value),
    summary: (markdown) => Promise.resolve(step.appendSummary(markdown)),
  };
}

/**
 * The action's entry: one try/catch around the run. A skipped or refused trigger ends the step
 * successfully; so does a run stopped by a limit (its work is delivered and reported). Only an
 * error fails the step.
 */
export async function run(): Promise<void> {
  const env = { ...process.env };
  const step = stepIo(env);
  const controller = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      step.warning(`agent-action: ${signal} received; stopping and saving the work so far`);
      controller.abort(new Error(signal));
    });
  }
  const input = inputReader(env);
  // Provider credentials too: an error message may quote one before the run's own redactor exists.
  const known = [
    input('anthropic-api-key'),
    input('github-token'),
    input('openai-api-key'),
    ...privateKeySecrets(input('github-app-private-key')),
    ...providerSecrets(env),
  ];
  const redactor = new Redactor(known.filter((v) => v.length > 0));
  const say = (text: string) => neutralizeWorkflowCommands(redactor.redact(text));
  scrubEnvironment(isSecretVariable);
  try {
    const outcome = await runAction({ env, io: actionsIo(env, step), signal: controller.signal });
    if (outcome.conclusion === 'error') step.setFailed(say(outcome.reason));
    else if (!['success', 'skipped', 'unauthorized'].includes(outcome.conclusion))
      step.warning(say(`agent-action stopped: ${outcome.reason}`));
  } catch (error) {
    const message =
      error instanceof SettingsError ? `invalid configuration: ${error.message}` : error instanceof Error ? error.message : String(error);
    step.setOutput('conclusion', 'error');
    step.setFailed(say(message));
  }
}
