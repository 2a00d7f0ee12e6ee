import path from 'node:path';

/** True when child is parent itself or lies below it (both absolute, already resolved). */
export function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
