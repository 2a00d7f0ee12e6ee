import * as z from '../core/schema.js';
import type { ToolCall, ToolOutcome, ToolSet, ToolSpec } from '../core/tools.js';
import { invalidInput, schemaJson } from './tool.js';

/**
 * The ToolSet wrappers a run is built from. Each returns a new set around the one it is given;
 * the loop sees only the outermost. Permissions (permissions/with-permissions.ts), hooks
 * (hooks/with-hooks.ts), lazy loading (lazy.ts) and change tracking (track-changes.ts) are
 * wrappers of the same shape beside these.
 */

/** One tool outside the built-ins: its spec and how a call runs (never throwing). */
export interface AddedTool {
  readonly spec: ToolSpec;
  execute(call: ToolCall, signal: AbortSignal): Promise<ToolOutcome>;
}

/**
 * A wrapper's specs() made from its inner sets' specs again only when one of them changed (a new
 * array): the same tools give back the same array, so what is kept per array (a name's spec for
 * each call, the request's tool list, its size in the spend check) is not redone call after call.
 * `derive` must depend on nothing but those arrays.
 */
export function derivedSpecs(
  inner: () => readonly (readonly ToolSpec[])[],
  derive: (...inner: (readonly ToolSpec[])[]) => readonly ToolSpec[],
): () => readonly ToolSpec[] {
  let from: readonly (readonly ToolSpec[])[] | undefined;
  let specs: readonly ToolSpec[] = [];
  return () => {
    const now = inner();
    if (!from || now.length !== from.length || now.some((s, i) => s !== from![i])) {
      specs = derive(...now);
      from = now;
    }
    return specs;
  };
}

/** The spec of each tool by name, for a set's specs array (kept while that array is the same). */
const byNameOf = new WeakMap<readonly ToolSpec[], ReadonlyMap<string, ToolSpec>>();

/** The spec of a named tool among these specs: one lookup per call, not a scan. */
export function specNamed(specs: readonly ToolSpec[], name: string): ToolSpec | undefined {
  let map = byNameOf.get(specs);
  if (!map) {
    const built = new Map<string, ToolSpec>();
    // The first of a name wins, as a scan would find it.
    for (const s of specs) if (!built.has(s.name)) built.set(s.name, s);
    byNameOf.set(specs, (map = built));
  }
  return map.get(name);
}

/** The tools `keep` accepts; a call to one left out is refused with `refusal(name)`, without running. */
export function filterTools(set: ToolSet, keep: (name: string) => boolean, refusal: (name: string) => string): ToolSet {
  return {
    specs: derivedSpecs(
      () => [set.specs()],
      (specs) => specs.filter((s) => keep(s.name)),
    ),
    isReadOnly: (name) => set.isReadOnly(name),
    execute: (call, signal) =>
      keep(call.name) ? set.execute(call, signal) : Promise.resolve({ isError: true, content: refusal(call.name) }),
  };
}

/** The set with one more tool (in place of any of the same name). */
export function withTool(set: ToolSet, tool: AddedTool): ToolSet {
  const { name } = tool.spec;
  return {
    specs: derivedSpecs(
      () => [set.specs()],
      (specs) => [...specs.filter((s) => s.name !== name), tool.spec],
    ),
    isReadOnly: (n) => (n === name ? tool.spec.readOnly : set.isReadOnly(n)),
    execute: (call, signal) => (call.name === name ? tool.execute(call, signal) : set.execute(call, signal)),
  };
}

/** A set of just these tools; a call to any other is refused. */
export function toolSetOf(...tools: AddedTool[]): ToolSet {
  const byName = new Map(tools.map((t) => [t.spec.name, t]));
  const offered = () => [...byName.keys()].join(', ') || 'none';
  const specs = tools.map((t) => t.spec);
  return {
    specs: () => specs,
    isReadOnly: (name) => byName.get(name)?.spec.readOnly ?? false,
    execute: (call, signal) =>
      byName.get(call.name)?.execute(call, signal) ??
      Promise.resolve({ isError: true, content: `No tool named "${call.name}" here; this tool set offers only ${offered()}.` }),
  };
}

/** Several sets as one: specs in order, each call to the set that offers its tool (the first one). */
export function mergeToolSets(...sets: ToolSet[]): ToolSet {
  const owner = (name: string) => sets.find((set) => specNamed(set.specs(), name) !== undefined);
  return {
    specs: derivedSpecs(
      () => sets.map((set) => set.specs()),
      (...inner) => {
        const seen = new Set<string>();
        return inner.flat().filter((s) => !seen.has(s.name) && Boolean(seen.add(s.name)));
      },
    ),
    isReadOnly: (name) => owner(name)?.isReadOnly(name) ?? false,
    execute: (call, signal) => (owner(call.name) ?? sets[0]!).execute(call, signal),
  };
}

/** Every outcome passed through `after` (redacted, counted, recorded) before the caller sees it. */
export function afterEach(set: ToolSet, after: (outcome: ToolOutcome, call: ToolCall) => ToolOutcome): ToolSet {
  return {
    specs: () => set.specs(),
    isReadOnly: (name) => set.isReadOnly(name),
    execute: async (call, signal) => after(await set.execute(call, signal), call),
  };
}

/** A tool defined from a zod schema, like the built-ins: the schema is both the model's JSON schema and the validation. */
export function zodTool<S extends z.ZodMiniType>(
  spec: Omit<ToolSpec, 'input_schema'>,
  schema: S,
  run: (input: z.infer<S>, signal: AbortSignal, call: ToolCall) => Promise<ToolOutcome>,
): AddedTool {
  return {
    spec: { ...spec, input_schema: schemaJson(schema) },
    async execute(call, signal) {
      const parsed = schema.safeParse(call.input);
      return parsed.success ? run(parsed.data, signal, call) : { isError: true, content: invalidInput(spec.name, parsed.error) };
    },
  };
}
