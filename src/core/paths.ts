import path from 'node:path';

/** A `.` or `..` segment anywhere in a `/`-separated path. */
const DOT_SEGMENT = /(?:^|\/)\.\.?(?:\/|$)/;

/** Absolute and already in the form path.resolve gives: no `//`, no `.` or `..` segment, no trailing `/`. */
function isResolved(p: string): boolean {
  return p.charCodeAt(0) === 47 && !p.includes('//') && (p.length === 1 || !p.endsWith('/')) && !DOT_SEGMENT.test(p);
}

/**
 * path.relative(from, to), answered by a prefix test when both are resolved already and `to` is
 * `from` or below it (what the tools ask of every path a call names, several times a call), and by
 * path.relative, which resolves both again character by character, otherwise.
 */
export function relativePath(from: string, to: string): string {
  if (path.sep === '/' && isResolved(from) && isResolved(to)) {
    if (to === from) return '';
    const prefix = from === '/' ? '/' : `${from}/`;
    if (to.startsWith(prefix)) return to.slice(prefix.length);
  }
  return path.relative(from, to);
}

/** True when child is parent itself or lies below it (both absolute, already resolved). */
export function isInside(child: string, parent: string): boolean {
  const rel = relativePath(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
