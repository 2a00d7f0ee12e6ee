import type { ToolSet } from '../core/tools.js';

/** Several ToolSets as one: specs in order, each call to the set that offers its tool (the first one). */
export function mergeToolSets(...sets: ToolSet[]): ToolSet {
  const owner = (name: string) => sets.find((set) => set.specs().some((s) => s.name === name));
  return {
    specs: () => {
      const seen = new Set<string>();
      return sets.flatMap((set) => set.specs()).filter((s) => !seen.has(s.name) && Boolean(seen.add(s.name)));
    },
    isReadOnly: (name) => owner(name)?.isReadOnly(name) ?? false,
    execute: (call, signal) => (owner(call.name) ?? sets[0]!).execute(call, signal),
  };
}
