import os from 'node:os';
import path from 'node:path';
import { compilePathPattern, patternSet, type PathPattern } from './paths.js';
import type { Rule, Rules } from './rule-types.js';
import { governs } from '../catalog.js';

/**
 * Whether a workspace-relative path ('/'-separated) must stay out of the tools' sight: Read
 * refuses it, Grep and Glob skip it. One predicate, so every tool hides the same files.
 */
export type HiddenPath = (relative: string) => boolean;

/** The compiled path patterns of the deny rules of one tool that have a specifier. */
export function denyPatterns(rules: Rules, tool: 'Read' | 'Edit', home = os.homedir()): { rule: Rule; pattern: PathPattern }[] {
  return rules.deny
    .filter((r) => r.specifier !== undefined && (r.tool === tool || governs(tool, r.tool, 'allow')))
    .map((rule) => ({ rule, pattern: compilePathPattern(rule.specifier ?? '', home, 'deny') }));
}

/** The files the Read deny rules cover; undefined when there are none (nothing to test). */
export function readDenied(rules: Rules, root: string, home = os.homedir()): HiddenPath | undefined {
  const patterns = denyPatterns(rules, 'Read', home).map((p) => p.pattern);
  if (patterns.length === 0) return undefined;
  const set = patternSet(patterns);
  // A search asks about thousands of files in a few hundred directories: each directory is tested once.
  const dirs = new Map<string, boolean>();
  const hidden = (relative: string): boolean => {
    const absolute = path.join(root, relative);
    if (relative === '') return set.matches({ relative, absolute });
    if (set.matchesExactly(relative, absolute)) return true;
    const parent = path.posix.dirname(relative);
    const dir = parent === '.' ? '' : parent;
    let known = dirs.get(dir);
    if (known === undefined) {
      if (dirs.size > 100_000) dirs.clear();
      known = hidden(dir);
      dirs.set(dir, known);
    }
    return known;
  };
  return hidden;
}

/** Hidden when any source hides it; each source is one more reason (deny rules, credential files...). */
export function hiddenByAny(...sources: (HiddenPath | undefined)[]): HiddenPath | undefined {
  const present = sources.filter((s): s is HiddenPath => s !== undefined);
  if (present.length === 0) return undefined;
  return (relative) => present.some((hides) => hides(relative));
}

/** Every reason a path is hidden from the tools of this run: the Read deny rules, and the other sources given (credentials files). */
export function hiddenPaths(rules: Rules, root: string, more: readonly HiddenPath[] = [], home = os.homedir()): HiddenPath | undefined {
  return hiddenByAny(readDenied(rules, root, home), ...more);
}
