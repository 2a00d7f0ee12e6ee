/**
 * Which parts of the trusted tree a run's trusted commands need: `.claude/` as a whole (hooks,
 * skills, commands and what they source), and for each file a command names, that file with the
 * rest of its folder, so a script's imports beside it (`tools/lib.mjs` next to
 * `tools/server.mjs`) are the trusted ref's too. A folder the command names is data the command
 * works on (`eslint src`), not code it runs: it is left as the workspace has it, unless it is
 * under `.claude/`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Tree } from './materialise.js';

export const CLAUDE_DIR = '.claude';

/** A folder beside a named file is taken whole only up to this many entries; past it, the file alone. */
export const MAX_FOLDER_ENTRIES = 2000;

const isUnder = (p: string, dir: string): boolean => p === dir || p.startsWith(`${dir}/`);

function entriesUnder(tree: Tree, dir: string): number {
  let n = 0;
  for (const p of tree.keys()) if (p.startsWith(`${dir}/`)) n++;
  return n;
}

/** The unit a named path belongs to, or undefined when the path is not trusted code. */
function unitOf(named: string, tree: Tree, workspace: string): string | undefined {
  if (isUnder(named, CLAUDE_DIR)) return CLAUDE_DIR;
  const entry = tree.get(named);
  if (entry?.type === 'tree' || entry?.type === 'commit') return undefined;
  if (!entry) {
    // Not at the trusted ref: a file the pull request added must not run in its place. A path
    // in neither (`echo hi`) names nothing.
    return existsSync(path.join(workspace, named)) ? named : undefined;
  }
  const folder = path.posix.dirname(named);
  return folder !== '.' && entriesUnder(tree, folder) <= MAX_FOLDER_ENTRIES ? folder : named;
}

/** The units to materialise, none inside another, sorted. `.claude` is always one when the tree has it. */
export function unitsFor(named: Iterable<string>, tree: Tree, workspace: string): string[] {
  const units = new Set<string>(tree.has(CLAUDE_DIR) ? [CLAUDE_DIR] : []);
  for (const p of named) {
    const unit = unitOf(p, tree, workspace);
    if (unit !== undefined) units.add(unit);
  }
  const sorted = [...units].sort();
  return sorted.filter((u) => !sorted.some((other) => other !== u && isUnder(u, other)));
}

/** The unit holding rel, if any. */
export function unitHolding(units: readonly string[], rel: string): string | undefined {
  return units.find((u) => isUnder(rel, u));
}
