import type { ToolSet } from '../core/tools.js';
import { specNamed } from './compose.js';

/**
 * Reports the file named by every successful call of a tool that writes one (its spec says which
 * field): outside git, that is the only record of what a run changed.
 */
export function trackChanges(set: ToolSet, onWrite: (filePath: string) => void): ToolSet {
  return {
    specs: () => set.specs(),
    isReadOnly: (name) => set.isReadOnly(name),
    async execute(call, signal) {
      const outcome = await set.execute(call, signal);
      const field = specNamed(set.specs(), call.name)?.writesFile;
      const value =
        field && typeof call.input === 'object' && call.input !== null ? (call.input as Record<string, unknown>)[field] : undefined;
      if (!outcome.isError && typeof value === 'string') onWrite(value);
      return outcome;
    },
  };
}
