import { execFile } from 'node:child_process';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}
export type RunCommand = (cmd: string, args: string[]) => Promise<RunResult>;

// Probes and sudo must not stall the run when a helper hangs, e.g. sudo waiting for a password.
const HELPER_TIMEOUT_MS = 10_000;

export const defaultRun: RunCommand = (cmd, args) =>
  new Promise((resolve) => {
    execFile(cmd, args, { timeout: HELPER_TIMEOUT_MS, maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 127;
      resolve({ code, stdout, stderr: stderr || (error?.message ?? '') });
    });
  });
