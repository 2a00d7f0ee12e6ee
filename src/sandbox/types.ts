import type { CommandWrap } from '../core/confine.js';
import type { RunCommand } from './run.js';

export type SandboxMode = 'auto' | 'strict' | 'off';
export type NetworkMode = 'allowlist' | 'on' | 'off';

export interface SandboxOptions {
  mode: SandboxMode;
  network: NetworkMode;
  /** Under `allowlist`: the hosts commands may reach (hosts.ts entries). Default: the default list. */
  allowedDomains?: readonly string[];
  /** Real path; the only place a command may write besides its private /tmp and home. */
  workspace: string;
  /** The runner's HOME: hidden behind a tmpfs, with the toolchain dirs under it bound back read-only. */
  home?: string;
  /** More paths made unreachable (tmpfs over a dir, /dev/null over a file): RUNNER_TEMP, the runner's own dir. */
  hide?: string[];
  /** Relative to the workspace, e.g. '.git/config': re-bound read-only when they exist. */
  readOnlyInWorkspace?: string[];
  /** The allowlisted environment; the only variables a command sees (HOME becomes the private home). */
  env: Record<string, string>;
  /** The PATH bwrap is looked for on, from the caller's environment. Default: env's PATH. */
  path?: string;
  /** Default: bwrap found on PATH. */
  bwrapPath?: string;
  /** RUNNER_ENVIRONMENT === 'github-hosted': only there is the AppArmor sysctl lifted with sudo. */
  githubHosted?: boolean;
  /** Runs a helper program; injectable for tests. Default: execFile with a short timeout. */
  run?: RunCommand;
  /** Most processes a command may have at once (a fork bomb's ceiling). Default 2048. */
  processLimit?: number;
  /** Where Ubuntu's AppArmor switch for unprivileged user namespaces is read; injectable for tests. */
  apparmorSysctlPath?: string;
  /**
   * Directory of a pids cgroup hierarchy to create the limit group under, or false for none.
   * Default: detected, and only when running as root (the process limit does not bind root).
   */
  pidsCgroup?: string | false;
  /** The uid and gid a root runner's commands get inside a user namespace. Default 1000. */
  sandboxUid?: number;
}

export type { WrapExtras } from '../core/confine.js';

/** Turns the argv to run into the argv that runs it (inside the sandbox, or itself). */
export type Wrap = CommandWrap;

export interface Sandbox {
  kind: 'bubblewrap' | 'none';
  /** One plain sentence for the log and the final comment. */
  description: string;
  /** The argv that runs argv inside the sandbox; argv itself for kind 'none'. Only bubblewrap can confine. */
  wrap: Wrap;
  /** True when a fork bomb hits a ceiling (rlimit or pids cgroup) before the machine's own. */
  processesLimited: boolean;
  /** Under `allowlist` with bubblewrap: the hosts refused so far, with how many times. */
  networkRefused?: () => Record<string, number>;
  /** Removes what prepareSandbox created (the pids cgroup); safe to call more than once. */
  dispose(): Promise<void>;
}

export class SandboxUnavailableError extends Error {
  override name = 'SandboxUnavailableError';
}
