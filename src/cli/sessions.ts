import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

/** Transcripts kept per workspace; older ones are removed as new runs start. */
const KEPT = 20;

/**
 * Where the CLI keeps the transcripts of one workspace, for `--continue`: under
 * `$XDG_STATE_HOME/agent-action/sessions` (default `~/.local/state`), one folder per workspace
 * path; null when neither variable is set.
 */
export function sessionsDir(cwd: string, env: NodeJS.ProcessEnv): string | null {
  const state = env['XDG_STATE_HOME'] || (env['HOME'] ? join(env['HOME'], '.local', 'state') : '');
  if (!state) return null;
  let workspace = resolve(cwd);
  try {
    workspace = realpathSync(workspace);
  } catch {
    // A workspace that does not exist fails later, with its own message.
  }
  const slug =
    basename(workspace)
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .slice(0, 40) || 'root';
  const hash = createHash('sha256').update(workspace).digest('hex').slice(0, 12);
  return join(state, 'agent-action', 'sessions', `${slug}-${hash}`);
}

function transcripts(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.jsonl'))
      .sort();
  } catch {
    return [];
  }
}

/** The newest transcript of the workspace, or null when it has none. */
export function lastSession(dir: string): string | null {
  const last = transcripts(dir).at(-1);
  return last ? join(dir, last) : null;
}

/** A path for this run's transcript; names sort by start time, and only the newest few are kept. */
export function newSession(dir: string, now = new Date()): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const old = transcripts(dir);
  for (const f of old.slice(0, Math.max(0, old.length - (KEPT - 1)))) rmSync(join(dir, f), { force: true });
  return join(dir, `${now.toISOString().replace(/[:.]/g, '-')}-${process.pid}.jsonl`);
}

/**
 * The transcript to resume and the one to write: `--continue` resumes the workspace's last run;
 * a run given no `--transcript` writes one where the next `--continue` finds it.
 */
export function sessionPaths(
  o: { cwd: string; transcript?: string; resume?: string; continue: boolean },
  env: NodeJS.ProcessEnv,
): { resume?: string; transcript?: string } {
  const dir = sessionsDir(o.cwd, env);
  let resume = o.resume;
  if (o.continue) {
    const last = dir ? lastSession(dir) : null;
    const where = dir ? `runs are kept in ${dir}` : 'neither HOME nor XDG_STATE_HOME is set';
    if (!last) throw new Error(`there is no earlier run in ${resolve(o.cwd)} to continue (${where})`);
    resume = last;
  }
  let transcript = o.transcript ?? resume;
  if (transcript === undefined && dir) {
    try {
      transcript = newSession(dir);
    } catch {
      // A read-only home keeps no session: the run itself goes on.
    }
  }
  return { ...(resume ? { resume } : {}), ...(transcript ? { transcript } : {}) };
}
