import { runAction, type ActionIo } from './action/run.js';
import { SettingsError } from './action/inputs.js';
import { stepIo, type StepIo } from './action/workflow-commands.js';
import { neutralizeWorkflowCommands } from './report/workflow-commands.js';
import { Redactor } from './secrets/redactor.js';
import { scrubEnvironment } from './secrets/environ.js';
import { isKeptVariable } from './secrets/allowlist.js';
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

/** Conclusions that end the step successfully; `error` and `undelivered` fail it, the rest warn. */
const QUIET = ['success', 'skipped', 'unauthorized'];
/**
 * After SIGINT/SIGTERM the run has this long to deliver and report before the step ends anyway:
 * the runner sends SIGTERM 7.5 s after SIGINT and kills the process 2.5 s later.
 */
const CANCEL_BACKSTOP_MS = 6_000;

/**
 * A cancel aborts the run, which then commits, pushes and reports what it has; if that is not
 * done within the backstop (something it waits on never answers), the outputs and the summary say
 * `cancelled` and the process ends.
 */
function onCancel(step: StepIo, controller: AbortController, reported: () => boolean): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      step.warning(`agent-action: ${signal} received; stopping and saving the work so far`);
      if (controller.signal.aborted) return;
      controller.abort(new Error(signal));
      setTimeout(() => {
        if (!reported()) {
          step.setOutput('conclusion', 'cancelled');
          step.setOutput('result', `stopped by ${signal} before the report was complete`);
          step.appendSummary(`## agent-action: ⚠️ cancelled\n\nStopped by ${signal}; the run could not finish its report in time.\n`);
        }
        process.exit(process.exitCode ?? 1);
      }, CANCEL_BACKSTOP_MS).unref();
    });
  }
}

/**
 * The action's entry: one try/catch around the run. A skipped or refused trigger ends the step
 * successfully; so does a run stopped by a limit (its work is delivered and reported). An error
 * fails the step, and so does work that did not reach GitHub (`undelivered`).
 */
export async function run(): Promise<void> {
  const env = { ...process.env };
  const step = stepIo(env);
  const controller = new AbortController();
  let reported = false;
  onCancel(step, controller, () => reported);
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
  // An allowlist, not a list of secret names: a DATABASE_URL the workflow set is a secret too.
  scrubEnvironment((name) => !isKeptVariable(name));
  try {
    const io = actionsIo(env, step);
    const setOutput = io.setOutput;
    io.setOutput = (name, value) => {
      if (name === 'conclusion') reported = true;
      setOutput(name, value);
    };
    const outcome = await runAction({ env, io, signal: controller.signal });
    if (outcome.conclusion === 'error' || outcome.conclusion === 'undelivered') step.setFailed(say(outcome.reason));
    else if (!QUIET.includes(outcome.conclusion)) step.warning(say(`agent-action stopped: ${outcome.reason}`));
  } catch (error) {
    const message =
      error instanceof SettingsError ? `invalid configuration: ${error.message}` : error instanceof Error ? error.message : String(error);
    reported = true;
    step.setOutput('conclusion', 'error');
    step.appendSummary(`## agent-action: ⚠️ error\n\n${say(message)}\n`);
    step.setFailed(say(message));
  }
}
