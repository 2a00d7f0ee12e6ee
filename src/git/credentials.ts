import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { locateGitDirs } from './git-dir.js';
import { ISOLATED_ENV, inheritedEnv, safeGit } from './safe.js';

interface Entry {
  key: string;
  value: string;
}

function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    env: { ...inheritedEnv(), ...ISOLATED_ENV },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
}

/**
 * The repository's config file, found when the run starts: the token goes back into that file
 * at the end, never into one a `commondir` or `.git` file written during the run points at.
 */
function configFile(cwd: string): string[] {
  const dirs = locateGitDirs(cwd);
  return dirs ? ['--file', join(dirs.commonDir, 'config')] : ['--local'];
}

/** The same without blocking, for the start of a run, when GitHub's answers are arriving meanwhile. */
function gitAsync(cwd: string, args: string[]): Promise<string> {
  return safeGit(cwd, inheritedEnv()).raw(args);
}

/** Entries of .git/config that carry a credential: checkout's auth header, or an include of its credentials file. */
async function credentialEntries(cwd: string, file: string[]): Promise<Entry[]> {
  let listing = '';
  try {
    listing = await gitAsync(cwd, ['config', ...file, '--null', '--get-regexp', '^(http\\..*\\.extraheader|includeif\\..*\\.path)$']);
  } catch {
    return [];
  }
  return listing
    .split('\0')
    .filter((entry) => entry.length > 0)
    .map((entry) => {
      const at = entry.indexOf('\n');
      return { key: entry.slice(0, at), value: entry.slice(at + 1) };
    })
    .filter((e) => e.key.endsWith('.extraheader') || /credential/i.test(e.value));
}

/**
 * actions/checkout leaves the token in .git/config (or in a credentials file it includes), where
 * any command of the model could read it. It is taken out for the run; commands that reach origin
 * get credentials through their own environment instead. `restore` puts it back for later steps.
 */
export async function takeCheckoutCredentials(cwd: string): Promise<{ taken: number; restore(): void }> {
  const file = configFile(cwd);
  const entries = await credentialEntries(cwd, file);
  const keys = [...new Set(entries.map((e) => e.key))];
  for (const key of keys) {
    try {
      await gitAsync(cwd, ['config', ...file, '--unset-all', key]);
    } catch {
      // Already gone: nothing to hide.
    }
  }
  return {
    taken: entries.length,
    restore() {
      for (const e of entries) {
        try {
          git(cwd, ['config', ...file, '--add', e.key, e.value]);
        } catch {
          // The workspace may be gone by the end of a cancelled job.
        }
      }
    },
  };
}

/** Credentials for an https origin, for one git command's environment (never a tool's). */
export function authEnv(token: string, serverUrl: string): Record<string, string> {
  const basic = Buffer.from(`x-access-token:${token}`).toString('base64');
  return {
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: `http.${serverUrl.replace(/\/+$/, '')}/.extraheader`,
    GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${basic}`,
  };
}
