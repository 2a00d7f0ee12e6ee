import type { ToolSet } from '../../core/tools.js';
import { WORKSPACE_KEEPING_TOOLS } from '../../tools/catalog.js';
import { filterTools } from '../../tools/compose.js';

/**
 * The configured tools a review keeps: read-only ones, and Bash only for a pull request from this
 * repository (a fork's code is never run with the repository's secrets at hand). Write and Edit are
 * never offered; a call to a tool left out is refused without running.
 */
export function reviewTools(base: ToolSet, o: { bash: boolean }): ToolSet {
  const kept = (name: string) => WORKSPACE_KEEPING_TOOLS.includes(name) || (o.bash && name === 'Bash');
  return filterTools(base, kept, (name) => `${name} is not available in a review: nothing is changed, only commented on.`);
}
