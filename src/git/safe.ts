import { spawn } from 'node:child_process';
import { isSecretVariable } from '../tools/env.js';

/**
 * Applied to every git call. The work tree is written by the model, so nothing git would take a
 * program from may come from it: hooks, fsmonitor, signing, askpass, credential helpers, pagers,
 * editors, an attributes file of the user's, submodules (whose own config would run), automatic
 * gc, and the `ext::` transport. Command-line settings win over every config file.
 */
export const SAFE_CONFIG: readonly string[] = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.attributesFile=/dev/null',
  'core.askPass=',
  'core.pager=cat',
  'core.editor=:',
  'sequence.editor=:',
  'credential.helper=',
  'commit.gpgSign=false',
  'tag.gpgSign=false',
  'gc.auto=0',
  'maintenance.auto=false',
  'diff.ignoreSubmodules=all',
  'submodule.recurse=false',
  'fetch.recurseSubmodules=false',
  'push.recurseSubmodules=no',
  'protocol.ext.allow=never',
].flatMap((c) => ['-c', c]);

/**
 * No system or global config (a HOME the model's commands could write, a runner's /etc/gitconfig)
 * and no system attributes: the action's git reads the repository's own config, which it keeps as
 * it was before the model ran (see guard.ts), and the settings above. Replace refs are ignored, so
 * what is pushed is what the commit names.
 */
export const ISOLATED_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_ATTR_NOSYSTEM: '1',
  GIT_NO_REPLACE_OBJECTS: '1',
  GIT_TERMINAL_PROMPT: '0',
};

/**
 * Inherited variables that would redirect git (another repository, index or config), start
 * programs (pager, editor, askpass) or stand in for an identity (EMAIL), and every variable
 * whose name says it grants access (the action's inputs, runner tokens): git needs none, and a
 * program git were tricked into running must not find them. Only the caller's explicit `env` may
 * set GIT_* variables.
 */
const DROPPED_ENV = new Set(['PAGER', 'EDITOR', 'VISUAL', 'SSH_ASKPASS', 'PREFIX', 'EMAIL']);

export function inheritedEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    const upper = key.toUpperCase();
    if (value === undefined || DROPPED_ENV.has(upper) || upper.startsWith('GIT_') || isSecretVariable(key)) continue;
    env[key] = value;
  }
  return env;
}

/** git the way the action runs it: arguments as argv (never a shell), output as text. */
export interface Git {
  raw(args: readonly string[]): Promise<string>;
}

/** One git command of a repository handle, with variables of its own (an index file, an identity) when given. */
export type RunGit = (args: readonly string[], env?: Record<string, string>) => Promise<string>;

/**
 * git in `dir` with the safe settings above and exactly `env` (every GIT_* key in it put there by
 * the action) plus the isolation variables. Any non-zero exit is a failure, even a silent one;
 * its message is everything git printed and the exit code. stdin is closed, so no command can
 * wait for input.
 */
export function safeGit(dir: string, env: Record<string, string>): Git {
  return {
    raw: (args) =>
      new Promise((resolve, reject) => {
        const child = spawn('git', [...SAFE_CONFIG, ...args], {
          cwd: dir,
          env: { ...env, ...ISOLATED_ENV },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        const out: Buffer[] = [];
        const err: Buffer[] = [];
        child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
        child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
        child.once('error', reject);
        child.once('close', (code, signal) => {
          const stdout = Buffer.concat(out).toString('utf8');
          if (code === 0) resolve(stdout);
          else reject(new Error(`${stdout}${Buffer.concat(err).toString('utf8')}git exited with code ${code ?? signal}`));
        });
      }),
  };
}

/** The line of a failed git command's answer that says what went wrong (its first line often names only the remote). */
export function gitErrorLine(error: unknown): string {
  const lines = (error instanceof Error ? error.message : String(error)).split('\n').map((l) => l.trim());
  return lines.find((l) => /\[rejected\]|\[remote rejected\]|^(error|fatal):/.test(l)) ?? lines[0] ?? '';
}
