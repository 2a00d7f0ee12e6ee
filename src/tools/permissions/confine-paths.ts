import { promises as fs, type Dirent } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ConfinedPaths } from '../../core/confine.js';
import { denyPatterns } from './hidden.js';
import { patternSet, type PatternSet } from './paths.js';
import type { Rules } from './rules.js';

/**
 * The deny rules' patterns, expanded to the paths that exist when the tools start, for a sandbox
 * to enforce in its mount namespace. A directory is taken whole when a file newly made inside it
 * would match too (`secrets/**`, `.github/**`), so what appears there later is covered; a pattern
 * that names files (`.env`, `*.pem`) covers only the ones that exist now. Symlinks are left out
 * (a mount would land on their target); the target is covered when it matches itself. `.git` is
 * not walked into: its own protections hold there.
 */

/** A name no file has, standing for "any file made later inside this directory". */
const NEW_FILE = '\u0001';

interface Walk {
  read: PatternSet | undefined;
  edit: PatternSet | undefined;
  root: string;
  out: { unreadable: { path: string; kind: 'dir' | 'file' }[]; readOnly: string[] };
}

// The walk goes top down and stops at a directory taken whole, so a path's parents are known not to match.
function matchesAny(set: PatternSet | undefined, root: string, relative: string): boolean {
  return set?.matchesExactly(relative, path.join(root, relative)) ?? false;
}

/** Matched itself, or every file it may come to hold is. */
function coversDir(set: PatternSet | undefined, root: string, relative: string): boolean {
  return matchesAny(set, root, relative) || matchesAny(set, root, `${relative}/${NEW_FILE}`);
}

async function visitEntry(w: Walk, entry: Dirent, relative: string, readOnlyAbove: boolean): Promise<void> {
  const abs = path.join(w.root, relative);
  if (entry.isDirectory()) {
    if (coversDir(w.read, w.root, relative)) return void w.out.unreadable.push({ path: abs, kind: 'dir' });
    const readOnly = !readOnlyAbove && coversDir(w.edit, w.root, relative);
    if (readOnly) w.out.readOnly.push(abs);
    // Under a read-only directory only Read denies are left to find.
    if (entry.name === '.git' || ((readOnly || readOnlyAbove) && !w.read)) return;
    return visitDir(w, relative, readOnly || readOnlyAbove);
  }
  if (!entry.isFile()) return; // symlinks, sockets, devices: nothing to mount over
  if (matchesAny(w.read, w.root, relative)) w.out.unreadable.push({ path: abs, kind: 'file' });
  else if (!readOnlyAbove && matchesAny(w.edit, w.root, relative)) w.out.readOnly.push(abs);
}

async function visitDir(w: Walk, relative: string, readOnlyAbove: boolean): Promise<void> {
  const entries = await fs.readdir(path.join(w.root, relative), { withFileTypes: true }).catch(() => []);
  await Promise.all(entries.map((e) => visitEntry(w, e, relative === '' ? e.name : `${relative}/${e.name}`, readOnlyAbove)));
}

/** Where the Read and Edit deny rules apply under root (a real path), as existing absolute paths. */
export async function confinedPaths(rules: Rules, root: string, home = os.homedir()): Promise<ConfinedPaths> {
  const set = (tool: 'Read' | 'Edit') => {
    const patterns = denyPatterns(rules, tool, home).map((p) => p.pattern);
    return patterns.length > 0 ? patternSet(patterns) : undefined;
  };
  const w: Walk = { read: set('Read'), edit: set('Edit'), root, out: { unreadable: [], readOnly: [] } };
  if (w.read || w.edit) await visitDir(w, '', false);
  // Parents before children: a read-only directory is mounted before a file inside it is hidden.
  w.out.unreadable.sort((a, b) => (a.path < b.path ? -1 : 1));
  w.out.readOnly.sort();
  return w.out;
}
