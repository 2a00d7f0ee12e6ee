import { runLoop, type LoopConfig } from '../../src/agent/loop.js';
import type { ToolCall, ToolOutcome, ToolSet, ToolSpec } from '../../src/core/index.js';
import { call, say, ScriptedModel } from '../../test-support/scripted-model.js';

const spec = (name: string, readOnly = false): ToolSpec => ({ name, description: name, readOnly, input_schema: { type: 'object' } });

/** A ToolSet that answers every call with a short text and records what it was asked. */
function echoTools(specs: () => readonly ToolSpec[]): ToolSet & { calls: ToolCall[] } {
  const calls: ToolCall[] = [];
  return {
    calls,
    specs,
    isReadOnly: (name) => specs().find((s) => s.name === name)?.readOnly ?? false,
    async execute(c): Promise<ToolOutcome> {
      calls.push(c);
      return { content: `ran ${c.name}`, isError: false };
    },
  };
}

function config(model: ScriptedModel, tools: ToolSet, overrides: Partial<LoopConfig> = {}): LoopConfig {
  const limits = { maxSteps: 20, maxCostUsd: 5, deadline: Infinity };
  return {
    model,
    tools,
    system: 'test',
    limits,
    signal: new AbortController().signal,
    maxTokens: 1000,
    streamRetries: 0,
    compactAtTokens: 1e9,
    ...overrides,
  };
}

describe('the loop over a scripted in-memory model', () => {
  it('reads the tool specs again before every model call', async () => {
    let offered = [spec('Read', true)];
    const model = new ScriptedModel([call('Read', {}), say('done')]);
    const tools = echoTools(() => offered);
    const loop = runLoop(
      config(model, tools, { events: { onToolEnd: () => (offered = [spec('Read', true), spec('mcp__docs__search', true)]) } }),
      [{ role: 'user', content: 'go' }],
    );
    const r = await loop;
    expect(r.conclusion).toBe('success');
    expect(model.requests.map((q) => q.tools.map((t) => t.name))).toEqual([['Read'], ['Read', 'mcp__docs__search']]);
  });

  it('sends a step event for the summary call too, so the events count every step', async () => {
    // The fifth answer fills the context; before the sixth call older turns are summarised.
    const script = [1, 2, 3, 4, 5].map((n) => call('TodoWrite', { n }, n === 5 ? { input_tokens: 50_000 } : undefined));
    const model = new ScriptedModel([...script, say('Summary: five todo updates.'), say('finished')]);
    const events: number[] = [];
    const r = await runLoop(
      config(
        model,
        echoTools(() => [spec('TodoWrite')]),
        { compactAtTokens: 40_000, events: { onStep: (s) => events.push(s.step) } },
      ),
      [{ role: 'user', content: 'task' }],
    );
    expect(r.conclusion).toBe('success');
    expect(r.steps).toBe(7);
    expect(events).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(JSON.stringify(model.requests[6]!.messages[0])).toContain('Summary: five todo updates.');
  });

  it('hands every call to the ToolSet and feeds its outcome back as the tool_result', async () => {
    const model = new ScriptedModel([call('Grep', { pattern: 'x' }), say('ok')]);
    const tools = echoTools(() => [spec('Grep', true)]);
    await runLoop(config(model, tools), [{ role: 'user', content: 'go' }]);
    expect(tools.calls.map((c) => c.name)).toEqual(['Grep']);
    const last = model.requests[1]!.messages.at(-1)!;
    expect(JSON.stringify(last.content)).toContain('ran Grep');
  });

  it('runs the read-only calls of a turn together, started early or not, and the next write after them all', async () => {
    for (const reportsToolUse of [false, true]) {
      const order: string[] = [];
      let started = 0;
      let allStarted!: () => void;
      const three = new Promise<void>((done) => (allStarted = done));
      const specs = [spec('Read', true), spec('Grep', true), spec('Bash')];
      const tools: ToolSet = {
        specs: () => specs,
        isReadOnly: (name) => name !== 'Bash',
        async execute(c) {
          order.push(`start ${c.id}`);
          // Each read waits until all three are under way: run one after another, they never would.
          if (c.name !== 'Bash' && ++started === 3) allStarted();
          if (c.name !== 'Bash') await Promise.race([three, new Promise((done) => setTimeout(done, 1000))]);
          order.push(`end ${c.id}`);
          return { content: `ran ${c.id}`, isError: false };
        },
      };
      const block = (id: string, name: string) => ({ type: 'tool_use' as const, id, name, input: {} });
      const answer = { content: [block('r1', 'Read'), block('r2', 'Read'), block('g3', 'Grep'), block('b4', 'Bash')] };
      const model = new ScriptedModel([answer, say('ok')], { reportsToolUse });
      await runLoop(config(model, tools), [{ role: 'user', content: 'go' }]);
      expect(order.slice(0, 3)).toEqual(['start r1', 'start r2', 'start g3']);
      expect(order.indexOf('start b4')).toBeGreaterThan(Math.max(...['r1', 'r2', 'g3'].map((id) => order.indexOf(`end ${id}`))));
      const results = model.requests[1]!.messages.at(-1)!.content as { tool_use_id: string }[];
      expect(results.map((r) => r.tool_use_id)).toEqual(['r1', 'r2', 'g3', 'b4']);
    }
  });
});
