import { spawn } from 'node:child_process';

/**
 * Applied to every git call: the work tree is written by the model (its Bash can plant hooks or
 * an fsmonitor command in .git), so nothing in the repository may run code when the action
 * itself runs git.
 */
const SAFE_CONFIG = ['core.hooksPath=/dev/null', 'core.fsmonitor=false', 'commit.gpgSign=false'].flatMap((c) => ['-c', c]);

/**
 * Inherited variables that would redirect git (another repository, index or config), start
 * programs (pager, editor, askpass) or stand in for an identity (EMAIL). Only the caller's
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

/** git the way the action runs it: arguments as argv (never a shell), output as text. */
export interface Git {
  raw(args: readonly string[]): Promise<string>;
}

/**
 * git in `dir` with the safe settings above and exactly `env` (every GIT_* key in it put there by
 * the action). Any non-zero exit is a failure, even a silent one; its message is everything git
 * printed and the exit code. stdin is closed, so no command can wait for input.
 */
export function safeGit(dir: string, env: Record<string, string>): Git {
  return {
    raw: (args) =>
      new Promise((resolve, reject) => {
        const child = spawn('git', [...SAFE_CONFIG, ...args], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
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
