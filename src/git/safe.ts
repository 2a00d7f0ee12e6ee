import { simpleGit, type SimpleGit, type SimpleGitOptions } from 'simple-git';

/**
 * Applied to every git call: the work tree is written by the model (its Bash can plant hooks or
 * an fsmonitor command in .git), so nothing in the repository may run code when the action
 * itself runs git.
 */
const SAFE_CONFIG = ['core.hooksPath=/dev/null', 'core.fsmonitor=false', 'commit.gpgSign=false'];

/**
 * simple-git refuses these settings by default. They are set here by the action itself (hooks and
 * fsmonitor off above; GIT_CONFIG_COUNT from the caller for the push credentials), never from
 * model or user text, which the default checks keep guarding.
 */
const UNSAFE_ALLOWED: SimpleGitOptions['unsafe'] = {
  allowUnsafeHooksPath: true,
  allowUnsafeFsMonitor: true,
  allowUnsafeConfigEnvCount: true,
};

/**
 * Inherited variables that would redirect git (another repository, index or config), start
 * programs (pager, editor, askpass) or that simple-git rejects outright. Only the caller's
 * explicit `env` may set GIT_* variables.
 */
const DROPPED_ENV = new Set(['PAGER', 'EDITOR', 'VISUAL', 'SSH_ASKPASS', 'PREFIX', 'EMAIL']);

export function inheritedEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || DROPPED_ENV.has(key.toUpperCase()) || key.toUpperCase().startsWith('GIT_')) continue;
    env[key] = value;
  }
  return env;
}

/** Any non-zero exit is a failure, even a silent one (simple-git only fails when stderr has text). */
const strictErrors: SimpleGitOptions['errors'] = (error, result) => {
  if (error !== undefined || result.exitCode === 0) return error;
  return Buffer.concat([...result.stdOut, ...result.stdErr, Buffer.from(`git exited with code ${result.exitCode}`)]);
};

/** git in `dir` with the safe settings above and exactly `env` (every GIT_* key in it put there by the action). */
export function safeGit(dir: string, env: Record<string, string>): SimpleGit {
  const allowEnvironment = Object.keys(env);
  return simpleGit({ baseDir: dir, config: SAFE_CONFIG, unsafe: UNSAFE_ALLOWED, errors: strictErrors, allowEnvironment }).env(env);
}

/** The line of a failed git command's answer that says what went wrong (its first line often names only the remote). */
export function gitErrorLine(error: unknown): string {
  const lines = (error instanceof Error ? error.message : String(error)).split('\n').map((l) => l.trim());
  return lines.find((l) => /\[rejected\]|\[remote rejected\]|^(error|fatal):/.test(l)) ?? lines[0] ?? '';
}
