import type { ToolSet, ToolSpec } from '../../src/core/tools.js';
import { filterTools, mergeToolSets, specNamed, toolSetOf, withTool } from '../../src/tools/compose.js';
import { compileRules } from '../../src/tools/permissions/rules.js';
import { withPermissions } from '../../src/tools/permissions/with-permissions.js';
import { trackChanges } from '../../src/tools/track-changes.js';

const spec = (name: string, more: Partial<ToolSpec> = {}): ToolSpec => ({
  name,
  description: name,
  readOnly: false,
  input_schema: { type: 'object' },
  ...more,
});

/** A set whose tools can change between calls, as an MCP server's do. */
function changing(initial: ToolSpec[]): ToolSet & { set(specs: ToolSpec[]): void; ran: string[] } {
  let specs: readonly ToolSpec[] = initial;
  const ran: string[] = [];
  return {
    ran,
    set: (next) => (specs = next),
    specs: () => specs,
    isReadOnly: () => false,
    execute: (call) => {
      ran.push(call.name);
      return Promise.resolve({ isError: false, content: 'ok' });
    },
  };
}

const signal = new AbortController().signal;

describe('wrappers keep their specs while the tools under them stay the same', () => {
  it('gives back the same array call after call, and a new one once the tools change', () => {
    const inner = changing([spec('A'), spec('B')]);
    const run = () => Promise.resolve({ isError: false, content: 'ran' });
    const extra = toolSetOf({ spec: spec('M'), execute: run });
    const rules = compileRules({ allow: [{ rules: ['A', 'B', 'C', 'M', 'T'], source: 'test' }] });
    const kept = filterTools(
      mergeToolSets(inner, extra),
      (n) => n !== 'B',
      () => 'no',
    );
    const set = withPermissions(withTool(kept, { spec: spec('T'), execute: run }), rules, '/tmp');
    const first = set.specs();
    expect(first.map((s) => s.name)).toEqual(['A', 'M', 'T']);
    expect(set.specs()).toBe(first);
    inner.set([spec('A'), spec('C')]);
    const second = set.specs();
    expect(second).not.toBe(first);
    expect(second.map((s) => s.name)).toEqual(['A', 'C', 'M', 'T']);
    expect(set.specs()).toBe(second);
  });

  it('merged sets send each call to the set that now offers its tool', async () => {
    const a = changing([spec('A')]);
    const b = changing([spec('B')]);
    const merged = mergeToolSets(a, b);
    await merged.execute({ id: '1', name: 'B', input: {} }, signal);
    b.set([]);
    a.set([spec('A'), spec('B')]);
    await merged.execute({ id: '2', name: 'B', input: {} }, signal);
    expect([a.ran, b.ran]).toEqual([['B'], ['B']]);
  });

  it('change tracking reads the field of the tool as its set now describes it', async () => {
    const inner = changing([spec('Write', { writesFile: 'file_path' })]);
    const written: string[] = [];
    const set = trackChanges(inner, (p) => written.push(p));
    await set.execute({ id: '1', name: 'Write', input: { file_path: 'a.ts', path: 'x' } }, signal);
    inner.set([spec('Write', { writesFile: 'path' })]);
    await set.execute({ id: '2', name: 'Write', input: { file_path: 'b.ts', path: 'c.ts' } }, signal);
    expect(written).toEqual(['a.ts', 'c.ts']);
  });

  it('specNamed finds the first spec of a name, as a scan would', () => {
    const specs = [spec('A', { description: 'first' }), spec('A', { description: 'second' }), spec('B')];
    expect(specNamed(specs, 'A')?.description).toBe('first');
    expect(specNamed(specs, 'B')?.name).toBe('B');
    expect(specNamed(specs, 'C')).toBeUndefined();
  });
});
