import type { ToolCall, ToolOutcome, ToolSet, ToolSpec } from '../../../src/core/tools.js';
import { loadRules, type Rules } from '../../../src/tools/permissions/rules.js';
import { withPermissions } from '../../../src/tools/permissions/with-permissions.js';

const spec = (name: string, keyArgument?: string): ToolSpec => ({
  name,
  description: `${name} tool`,
  readOnly: name === 'Read',
  input_schema: { type: 'object' },
  ...(keyArgument ? { keyArgument } : {}),
});

/** A ToolSet that records what reaches it and answers every call with 'ran <name>'. */
class RecordingToolSet implements ToolSet {
  readonly calls: ToolCall[] = [];
  constructor(private readonly tools: readonly ToolSpec[]) {}
  specs(): readonly ToolSpec[] {
    return this.tools;
  }
  isReadOnly(name: string): boolean {
    return this.tools.find((t) => t.name === name)?.readOnly ?? false;
  }
  async execute(call: ToolCall): Promise<ToolOutcome> {
    this.calls.push(call);
    return { isError: false, content: `ran ${call.name}` };
  }
}

const TOOLS = [
  spec('Read', 'file_path'),
  spec('Edit', 'file_path'),
  spec('Bash', 'command'),
  spec('TodoWrite'),
  spec('ReviewComment', 'file_path'),
];
const signal = new AbortController().signal;
const call = (name: string, input: Record<string, unknown>): ToolCall => ({ id: `id-${name}`, name, input });

function rulesOf(allow: string, deny = ''): Promise<Rules> {
  return loadRules({
    allow: [{ source: 'allowed-tools', rules: allow }],
    deny: [{ source: '.claude/settings.json permissions.deny', rules: deny }],
  });
}

describe('withPermissions', () => {
  it('offers only the tools the rules allow', async () => {
    const inner = new RecordingToolSet(TOOLS);
    const set = withPermissions(inner, await rulesOf('Read, Edit(src/**), Bash(npm test:*)', 'Edit(src/generated/**)'), '/repo');
    expect(set.specs().map((s) => s.name)).toEqual(['Read', 'Edit', 'Bash']);
  });

  it('never passes a refused call to the inner set, and names the rule that refused it', async () => {
    const inner = new RecordingToolSet(TOOLS);
    const set = withPermissions(inner, await rulesOf('Bash', 'Bash(rm:*)'), '/repo');
    const outcome = await set.execute(call('Bash', { command: 'rm -rf .' }), signal);
    expect(inner.calls).toEqual([]);
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toMatch(/^Permission denied: /);
    expect(outcome.content).toContain('Bash(rm:*) (.claude/settings.json permissions.deny)');
  });

  it('lists the allow rules when none matched', async () => {
    const inner = new RecordingToolSet(TOOLS);
    const set = withPermissions(inner, await rulesOf('Bash(npm test:*), Bash(git diff *)'), '/repo');
    const outcome = await set.execute(call('Bash', { command: 'npm test; curl evil.example' }), signal);
    expect(inner.calls).toEqual([]);
    expect(outcome).toEqual({
      isError: true,
      content:
        'Permission denied: no allow rule matches the command `curl evil.example` ' +
        '(each command of a list or pipeline needs an allow rule, or must be read-only); ' +
        'Bash is allowed only by Bash(npm test:*) (allowed-tools), Bash(git diff *) (allowed-tools)',
    });
  });

  it('refuses a tool it does not offer, even when the model calls it anyway', async () => {
    const inner = new RecordingToolSet(TOOLS);
    const set = withPermissions(inner, await rulesOf('Read'), '/repo');
    const outcome = await set.execute(call('TodoWrite', { todos: [] }), signal);
    expect(inner.calls).toEqual([]);
    expect(outcome.content).toBe('Permission denied: no allow rule names the tool TodoWrite');
  });

  it('passes an allowed call through and returns its outcome untouched', async () => {
    const inner = new RecordingToolSet(TOOLS);
    const set = withPermissions(inner, await rulesOf('Edit(src/**), Bash(npm test:*)'), '/repo', { realPath: (p) => p });
    const edit = call('Edit', { file_path: '/repo/src/a.ts', old_string: 'a', new_string: 'b' });
    expect(await set.execute(edit, signal)).toEqual({ isError: false, content: 'ran Edit' });
    expect(await set.execute(call('Bash', { command: 'npm test -- x' }), signal)).toEqual({ isError: false, content: 'ran Bash' });
    expect(inner.calls.map((c) => c.id)).toEqual(['id-Edit', 'id-Bash']);
  });

  it('tells onRefusal about each refusal, and survives it throwing', async () => {
    const inner = new RecordingToolSet(TOOLS);
    const seen: [string, string][] = [];
    const set = withPermissions(inner, await rulesOf('Read(src/**)'), '/repo', {
      realPath: (p) => p,
      onRefusal: (refused, reason) => {
        seen.push([refused.id, reason]);
        throw new Error('counter broke');
      },
    });
    const outcome = await set.execute(call('Read', { file_path: '.env' }), signal);
    expect(outcome.content).toBe('Permission denied: no allow rule matches `.env`; Read is allowed only by Read(src/**) (allowed-tools)');
    expect(seen).toEqual([['id-Read', 'no allow rule matches `.env`; Read is allowed only by Read(src/**) (allowed-tools)']]);
  });

  it("compares other tools' specifiers with the key argument the catalog names", async () => {
    const inner = new RecordingToolSet(TOOLS);
    const set = withPermissions(inner, await rulesOf('ReviewComment(src/a.ts)'), '/repo');
    expect((await set.execute(call('ReviewComment', { file_path: 'src/a.ts', body: 'x' }), signal)).isError).toBe(false);
    expect((await set.execute(call('ReviewComment', { file_path: 'src/b.ts', body: 'x' }), signal)).content).toMatch(
      /^Permission denied: /,
    );
  });

  it('turns a failing check into a refusal instead of throwing', async () => {
    const inner = new RecordingToolSet(TOOLS);
    const set = withPermissions(inner, await rulesOf('Read(src/**)'), '/repo', {
      realPath: () => {
        throw new Error('disk on fire');
      },
    });
    const outcome = await set.execute(call('Read', { file_path: 'src/a.ts' }), signal);
    expect(inner.calls).toEqual([]);
    expect(outcome).toEqual({ isError: true, content: 'Permission denied: the permission check failed (disk on fire)' });
  });

  it('asks the inner set which tools are read-only', async () => {
    const set = withPermissions(new RecordingToolSet(TOOLS), await rulesOf('Read'), '/repo');
    expect(set.isReadOnly('Read')).toBe(true);
    expect(set.isReadOnly('Edit')).toBe(false);
  });
});
