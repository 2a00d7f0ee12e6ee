import { runLoop, type LoopConfig } from '../../src/agent/loop.js';
import { UsageMeter } from '../../src/agent/meter.js';
import type { AgentDefinition } from '../../src/core/agents.js';
import { TASK } from '../../src/agent/subagent.js';
import { withSubagents } from '../../src/session/subagents.js';
import type { TranscriptRecord } from '../../src/agent/transcript.js';
import type { Block, Model, ModelRequest, ModelTurn, ToolSet, ToolSpec } from '../../src/core/index.js';

const spec = (name: string): ToolSpec => ({ name, description: name, readOnly: true, input_schema: { type: 'object' } });
const usage = { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
const turn = (content: Block[]): ModelTurn => ({
  content,
  stop: content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end',
  stopReason: null,
  usage,
  costUsd: 0.001,
  model: 'm',
});
let n = 0;
const use = (name: string, input: unknown): Block => ({ type: 'tool_use', id: `toolu_${++n}`, name, input });

/** A model answering by who asks: the parent (system 'parent') or a subagent (any other system prompt). */
function model(answer: (r: ModelRequest) => Promise<ModelTurn> | ModelTurn): Model & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    id: 'm',
    requests,
    send: async (r) => {
      requests.push({ ...r, messages: [...r.messages] });
      return answer(r);
    },
  };
}

const grep: ToolSet = {
  specs: () => [spec('Grep')],
  isReadOnly: () => true,
  execute: () => Promise.resolve({ content: 'found it', isError: false }),
};

const explorer: AgentDefinition = {
  name: 'explorer',
  description: 'searches the code',
  prompt: 'You explore.',
  tools: ['Grep'],
  source: 'test',
};

function setup(m: Model, o: { maxSteps?: number; records?: TranscriptRecord[] } = {}) {
  const meter = new UsageMeter();
  const limits = { maxSteps: o.maxSteps ?? 30, maxCostUsd: 5, deadline: Infinity };
  const transcript = o.records ? { path: 'mem', write: (r: TranscriptRecord) => o.records!.push(r) } : undefined;
  const common = { limits, maxTokens: 1000, streamRetries: 0, compactAtTokens: 1e9, meter, ...(transcript ? { transcript } : {}) };
  let tools: ToolSet = grep;
  tools = withSubagents(grep, { types: [explorer], model: m, tools: () => tools, ...common });
  const config: LoopConfig = { model: m, tools, system: 'parent', signal: new AbortController().signal, ...common };
  return { config, meter };
}

describe('subagents (the Task tool)', () => {
  it('runs the Task calls of one turn at the same time, each with a fresh context, and returns their answers', async () => {
    let waiting: (() => void)[] = [];
    const m = model(async (r) => {
      if (r.system === 'parent') {
        if (r.messages.length === 1)
          return turn(
            [1, 2, 3].map((i) => use(TASK, { description: `part ${i}`, prompt: `look at part ${i}`, subagent_type: 'explorer' })),
          );
        return turn([{ type: 'text', text: 'all parts seen' }]);
      }
      // Each subagent's first call waits until all three have asked: sequential Task calls would never get here.
      if (r.messages.length === 1) {
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          if (waiting.length === 3) for (const go of waiting) go();
        });
        waiting = waiting.length === 3 ? [] : waiting;
      }
      return turn([{ type: 'text', text: `answer to ${JSON.stringify(r.messages[0]!.content)}` }]);
    });
    const records: TranscriptRecord[] = [];
    const { config } = setup(m, { records });
    const r = await runLoop(config, [{ role: 'user', content: 'go' }]);
    expect(r.conclusion).toBe('success');
    expect(r.steps).toBe(5);
    const sub = m.requests.filter((q) => q.system === 'You explore.');
    expect(sub).toHaveLength(3);
    for (const q of sub) {
      expect(q.messages).toHaveLength(1);
      expect(q.tools.map((t) => t.name)).toEqual(['Grep']);
    }
    const results = JSON.stringify(m.requests.at(-1)!.messages.at(-1)!.content);
    for (const i of [1, 2, 3]) expect(results).toContain(`look at part ${i}`);
    expect(records.filter((x) => x.agent?.startsWith('explorer-')).length).toBeGreaterThan(0);
  });

  it('stops a subagent that never ends at the shared step limit, and the parent reports it', async () => {
    const m = model((r) =>
      r.system === 'parent' && r.messages.length === 1
        ? turn([use(TASK, { description: 'loop', prompt: 'loop', subagent_type: 'explorer' })])
        : turn([use('Grep', {})]),
    );
    const { config, meter } = setup(m, { maxSteps: 6 });
    const r = await runLoop(config, [{ role: 'user', content: 'go' }]);
    expect(r.conclusion).toBe('max-steps');
    expect(meter.steps).toBe(6);
    expect(r.reason).toMatch(/step limit \(max-steps 6\)/);
  });

  it('gives a subagent no Task tool: it cannot start subagents of its own', async () => {
    const m = model((r) =>
      r.system === 'parent' && r.messages.length === 1
        ? turn([use(TASK, { description: 'x', prompt: 'x', subagent_type: 'explorer' })])
        : r.system === 'parent'
          ? turn([{ type: 'text', text: 'done' }])
          : r.messages.length === 1
            ? turn([use(TASK, { description: 'nested', prompt: 'nested', subagent_type: 'explorer' })])
            : turn([{ type: 'text', text: 'could not nest' }]),
    );
    const { config } = setup(m);
    const r = await runLoop(config, [{ role: 'user', content: 'go' }]);
    expect(r.conclusion).toBe('success');
    const sub = m.requests.filter((q) => q.system === 'You explore.');
    expect(sub[0]!.tools.map((t) => t.name)).not.toContain(TASK);
    expect(JSON.stringify(sub[1]!.messages.at(-1)!.content)).toMatch(/Task is not available to this subagent/);
  });

  it("runs an agent that names a model on that model, asked for by the definition's name; the others on the parent's", async () => {
    const parent = model((r) => {
      if (r.system !== 'parent') return turn([{ type: 'text', text: 'parent model answered' }]);
      if (r.messages.length > 1) return turn([{ type: 'text', text: 'done' }]);
      return turn([
        use(TASK, { description: 'quick', prompt: 'look fast', subagent_type: 'fast' }),
        use(TASK, { description: 'plain', prompt: 'look', subagent_type: 'explorer' }),
      ]);
    });
    const other = model(() => turn([{ type: 'text', text: 'fast model answered' }]));
    const asked: string[] = [];
    const fast: AgentDefinition = { name: 'fast', description: 'quick looks', prompt: 'You are quick.', model: 'haiku', source: 'test' };
    const meter = new UsageMeter();
    const common = {
      limits: { maxSteps: 30, maxCostUsd: 5, deadline: Infinity },
      maxTokens: 1000,
      streamRetries: 0,
      compactAtTokens: 1e9,
      meter,
    };
    let tools: ToolSet = grep;
    const modelFor = (id: string): Model => (asked.push(id), other);
    tools = withSubagents(grep, { types: [explorer, fast], model: parent, modelFor, tools: () => tools, ...common });
    const r = await runLoop({ model: parent, tools, system: 'parent', signal: new AbortController().signal, ...common }, [
      { role: 'user', content: 'go' },
    ]);
    expect(r.conclusion).toBe('success');
    expect(asked).toEqual(['haiku']);
    expect(other.requests.map((q) => q.system)).toEqual(['You are quick.']);
    expect(parent.requests.filter((q) => q.system === 'You explore.')).toHaveLength(1);
  });
});
