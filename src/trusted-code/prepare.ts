import { mkdtemp, realpath } from 'node:fs/promises';
import path from 'node:path';
import { commandLine, type HookSettings } from '../tools/hooks/schema.js';
import { fetchTrustedCommit, listTree, writeUnits } from './materialise.js';
import { argvPaths, commandPaths } from './named-paths.js';
import { TrustedCode } from './trusted-code.js';
import { unitsFor } from './units.js';

export interface PrepareInput {
  workspace: string;
  /** A directory of the action's own, out of the tools' reach (under RUNNER_TEMP). */
  tempDir: string;
  /** The branch the trusted settings were read from. */
  ref: string;
  /** git's environment for reaching origin. */
  gitEnv: Record<string, string>;
  hooks: HookSettings;
  /** The stdio servers' command and args, as configured. */
  servers: readonly (readonly string[])[];
  /** Whether skills exist: their folders come from the trusted ref too. */
  skills: boolean;
  sandboxed: boolean;
  /** Resolves once the workspace holds the pull request's code: the fetch goes on meanwhile, the copies wait. */
  ready?: Promise<unknown>;
}

/** Every command of the hook settings. */
export function hookCommands(hooks: HookSettings): string[] {
  return Object.values(hooks).flatMap((matchers) =>
    (matchers ?? []).flatMap((m) => m.hooks.flatMap((h) => (h.type === 'command' ? [commandLine(h)] : []))),
  );
}

/** Whether a run has trusted code to take from the trusted ref at all: most runs have none. */
export function needsTrustedCode(o: Pick<PrepareInput, 'hooks' | 'servers' | 'skills'>): boolean {
  return hookCommands(o.hooks).length > 0 || o.servers.length > 0 || o.skills;
}

/** Fetches the trusted ref and writes the units the run's trusted commands need outside the workspace. */
export async function prepareTrustedCode(o: PrepareInput): Promise<TrustedCode> {
  const workspace = await realpath(o.workspace);
  const dir = await realpath(await mkdtemp(path.join(o.tempDir, 'trusted-')));
  const repo = await fetchTrustedCommit({ workspace, gitDir: path.join(dir, 'git'), ref: o.ref, env: o.gitEnv });
  // Which units there are depends on the workspace (a file only the pull request has), so on its checkout.
  const [tree] = await Promise.all([listTree(repo), o.ready]);
  const named = [
    ...hookCommands(o.hooks).flatMap((c) => commandPaths(c, workspace).map((n) => n.path)),
    ...o.servers.flatMap((argv) => argvPaths(argv, workspace)).filter((p): p is string => p !== undefined),
  ];
  const units = unitsFor(named, tree, workspace);
  const root = path.join(dir, 'tree');
  // Units the ref lacks are written as nothing: their words point at a copy that does not exist.
  await writeUnits(
    repo,
    units.filter((u) => tree.has(u)),
    root,
  );
  return new TrustedCode(workspace, root, units, o.sandboxed, repo.commit);
}
