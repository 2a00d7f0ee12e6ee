import { appendFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { EOL } from 'node:os';

/**
 * The runner's side of a step, written directly: workflow commands on stdout and the
 * GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files. This is the documented protocol @actions/core
 * wraps; done here, an action start does not load a second HTTP client (undici, ~900 KB) that
 * only OIDC token requests need.
 */
export interface StepIo {
  info: (message: string) => void;
  warning: (message: string) => void;
  error: (message: string) => void;
  setSecret: (value: string) => void;
  setOutput: (name: string, value: string) => void;
  appendSummary: (markdown: string) => void;
  setFailed: (message: string) => void;
}

/** Command data escaping, as the runner unescapes it. */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function command(name: string, message: string): void {
  process.stdout.write(`::${name}::${escapeData(message)}${EOL}`);
}

/** `name<<delimiter` blocks; the delimiter is random so a value cannot end the block early. */
function fileCommand(path: string, name: string, value: string): void {
  const delimiter = `ghadelimiter_${randomUUID()}`;
  if (name.includes(delimiter) || value.includes(delimiter)) throw new Error(`output ${name} contains its delimiter`);
  appendFileSync(path, `${name}<<${delimiter}${EOL}${value}${EOL}${delimiter}${EOL}`, 'utf8');
}

export function stepIo(env: NodeJS.ProcessEnv): StepIo {
  return {
    info: (message) => process.stdout.write(`${message}${EOL}`),
    warning: (message) => command('warning', message),
    error: (message) => command('error', message),
    setSecret: (value) => command('add-mask', value),
    setOutput(name, value) {
      const path = env['GITHUB_OUTPUT'];
      if (path) fileCommand(path, name, value);
      else process.stdout.write(`${EOL}::set-output name=${name}::${escapeData(value)}${EOL}`);
    },
    appendSummary(markdown) {
      const path = env['GITHUB_STEP_SUMMARY'];
      if (path) appendFileSync(path, `${markdown}${EOL}`, 'utf8');
    },
    setFailed(message) {
      process.exitCode = 1;
      command('error', message);
    },
  };
}
