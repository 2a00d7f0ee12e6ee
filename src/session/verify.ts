import type { LoopHooks } from '../agent/config.js';
import type { Stop } from '../agent/limits.js';
import { DeadlineReached } from '../agent/timing.js';
import type { TranscriptWriter } from '../agent/transcript.js';
import { runProcess } from '../tools/process.js';
import type { Workspace } from '../tools/workspace.js';

export interface VerifyOptions {
  command: string;
  /** Failures before the run ends as unverified. */
  attempts: number;
  workspace: Workspace;
  env: Record<string, string>;
  wrap?: Promise<(argv: string[]) => string[]> | undefined;
  outputLimit: number;
  transcript?: Pick<TranscriptWriter, 'write'> | undefined;
  onNotice?: ((message: string) => void) | undefined;
}

/** Verification of a run: whether the command passed in the end (null: it never ran). */
export interface Verification {
  hook: NonNullable<LoopHooks['onEnd']>;
  passed(): boolean | null;
}

/** The last lines of the output, which say why a check failed. */
const TAIL_CHARS = 4000;
const VERIFY_TIMEOUT_MS = 10 * 60_000;

/**
 * `verify`: when the model ends, the command runs like Bash (same sandbox, environment and caps).
 * A failure sends the model back with the tail of the output, up to `attempts` times.
 */
export function verification(o: VerifyOptions): Verification {
  let failures = 0;
  let passed: boolean | null = null;
  const hook: Verification['hook'] = async (_text, _again, signal): Promise<string | Stop | null> => {
    const wrap = await o.wrap;
    const argv = ['bash', '-c', o.command];
    const { output, ending, ms } = await runProcess({
      argv: wrap ? wrap(argv) : argv,
      cwd: o.workspace.root,
      env: o.env,
      timeoutMs: VERIFY_TIMEOUT_MS,
      signal,
      outputLimit: o.outputLimit,
    });
    const code = ending.kind === 'exit' ? ending.code : null;
    o.transcript?.write({
      type: 'meta',
      event: 'verify',
      time: new Date().toISOString(),
      command: o.command,
      exit_code: code,
      ending: ending.kind,
      ms,
    });
    passed = code === 0;
    o.onNotice?.(`verify: ${o.command} ${passed ? 'passed' : `failed (${code === null ? ending.kind : `exit ${code}`})`}`);
    if (passed) return null;
    failures++;
    // A check still running when time is up ends the run as unverified: the work is delivered, the model not asked again.
    if (ending.kind !== 'exit' && signal.reason instanceof DeadlineReached) {
      return { conclusion: 'unverified', reason: `the verify command \`${o.command}\` did not finish before the run's deadline` };
    }
    const tail = output.length > TAIL_CHARS ? output.slice(-TAIL_CHARS) : output;
    if (failures >= o.attempts) {
      return { conclusion: 'unverified', reason: `the verify command \`${o.command}\` still fails after ${failures} attempts` };
    }
    return `The verify command \`${o.command}\` failed (${code === null ? ending.kind : `exit code ${code}`}); the work is not done yet. Its output ends:\n${tail}\nFix the cause, then finish again.`;
  };
  return { hook, passed: () => passed };
}
