import type { CommandWrap } from '../../core/confine.js';
import { confinedPaths } from './confine-paths.js';
import type { Rules } from './rules.js';

/**
 * The sandbox's wrap with the deny rules' paths out of reach, when the sandbox can do that;
 * otherwise the wrap as it is (and the permission check refuses commands naming denied paths).
 */
export async function confinedWrap(
  wrap: CommandWrap | undefined,
  rules: Rules,
  root: string,
): Promise<((argv: string[]) => string[]) | undefined> {
  if (!wrap?.confine) return wrap;
  return wrap.confine(await confinedPaths(rules, root));
}
