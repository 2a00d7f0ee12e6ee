import { runLoop, type LoopConfig } from '../../src/agent/loop.js';
import { budget, LimitReached, stepLimit } from '../../src/agent/limits.js';
import { UsageMeter } from '../../src/agent/meter.js';
import { Slots } from '../../src/agent/slots.js';
import type { AgentDefinition } from '../../src/core/agents.js';
import { TASK } from '../../src/agent/subagent.js';
import { withSubagents } from '../../src/session/subagents.js';
import type { Block, Model, ModelRequest, ModelTurn, ToolSet } from '../../src/core/index.js';

const usage = { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
const turn = (content: Block[], costUsd = 0.001): ModelTurn => ({
  content,
  stop: content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end',
  stopReason: null,
  usage,
  costUsd,
  model: 'm',
});
let n = 0;
const tasks = (count: number): Block[] =>
  Array.from({ length: count }, (_, i) => ({
    type: 'tool_use',
    id: `toolu_r${++n}`,
    name: TASK,
    input: { description: `part ${i}`, prompt: `look at part ${i}`, subagent_type: 'explorer' },
  }));
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** The parent asks for `count` subagents, then ends; each subagent answers after a tick. Counts calls in flight. */
function fanOutModel(count: number, o: { costUsd?: number; worstCaseUsd?: number } = {}) {
  const seen = { requests: [] as ModelRequest[], inFlight: 0, mostInFlight: 0 };
  const model: Model = {
    id: 'm',
    send: async (r) => {
      seen.requests.push(r);
      seen.mostInFlight = Math.max(seen.mostInFlight, ++seen.inFlight);
      try {
        await tick();
        if (r.system !== 'parent') return turn([{ type: 'text', text: 'looked' }], o.costUsd);
        return turn(r.messages.length === 1 ? tasks(count) : [{ type: 'text', text: 'done' }], o.costUsd);
      } finally {
        seen.inFlight--;
      }
    },
    ...(o.worstCaseUsd !== undefined ? { worstCaseCostUsd: () => o.worstCaseUsd! } : {}),
  };
  return { model, seen };
}

const none: ToolSet = { specs: () => [], isReadOnly: () => true, execute: () => Promise.resolve({ content: '', isError: false }) };
const explorer: AgentDefinition = { name: 'explorer', description: 'searches', prompt: 'You explore.', source: 'test' };

function setup(model: Model, o: { maxSteps?: number; maxCostUsd?: number; maxParallel?: number; signal?: AbortSignal } = {}) {
  const meter = new UsageMeter();
  const limits = { maxSteps: o.maxSteps ?? 100, maxCostUsd: o.maxCostUsd ?? 100, deadline: Infinity };
  const common = { limits, maxTokens: 1000, streamRetries: 0, compactAtTokens: 1e9, meter };
  const parallel = o.maxParallel !== undefined ? { maxParallel: o.maxParallel } : {};
  const tools = withSubagents(none, { types: [explorer], model, tools: () => none, ...parallel, ...common });
  const config: LoopConfig = { model, tools, system: 'parent', signal: o.signal ?? new AbortController().signal, ...common };
  return { config, meter };
}

describe('limits reserved before each model call', () => {
  it('refuses a reservation the limits no longer allow, counting the calls in flight', () => {
    const meter = new UsageMeter();
    const check = (s: Parameters<ReturnType<typeof stepLimit>>[0]) => stepLimit(2)(s) ?? budget(1)(s);
    const a = meter.reserve(0.4, check, 0, false);
    const b = meter.reserve(0.4, check, 0, false);
    let refused: unknown;
    try {
      meter.reserve(0.1, check, 0, false);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(LimitReached);
    expect((refused as LimitReached).stop.conclusion).toBe('max-steps');
    a.release();
    expect(meter.steps).toBe(0);
    // The spend counts what is held: 0.4 of the cap of 1 is in flight.
    expect(meter.limitState(0, false)).toMatchObject({ steps: 1, costUsd: 0.4 });
    b.settle(usage, 0.05);
    b.settle(usage, 0.05);
    expect(meter).toMatchObject({ steps: 1, costUsd: 0.05, reservedSteps: 0, reservedUsd: 0 });
  });

  it('makes at most max-steps calls when one answer starts 12 subagents', async () => {
    const { model, seen } = fanOutModel(12);
    const { config } = setup(model, { maxSteps: 4 });
    const result = await runLoop(config, [{ role: 'user', content: 'go' }]);

    expect(seen.requests).toHaveLength(4);
    expect(result).toMatchObject({ conclusion: 'max-steps', steps: 4 });
  });

  it('tells the parent which subagents got no step, in their Task results', async () => {
    const { model, seen } = fanOutModel(6);
    // Steps for the parent's first call and four subagents: the other two cannot start.
    const { config } = setup(model, { maxSteps: 5 });
    const result = await runLoop(config, [{ role: 'user', content: 'go' }]);

    expect(seen.requests).toHaveLength(5);
    expect(result.conclusion).toBe('max-steps');
    const parentCalls = seen.requests.filter((r) => r.system === 'parent');
    expect(parentCalls).toHaveLength(1);
    expect(result.messages.at(-1)?.role).toBe('user');
    const results = JSON.stringify(result.messages.at(-1)?.content);
    expect(results.match(/stopped before finishing: max-steps/g)).toHaveLength(2);
    expect(results.match(/looked/g)).toHaveLength(4);
  });

  it('holds the worst case of each call in flight against the cap: the spend passes it by one call at most', async () => {
    // Each call costs 0.05 and may cost 0.08; the cap of 0.12 fits two calls.
    const { model, seen } = fanOutModel(12, { costUsd: 0.05, worstCaseUsd: 0.08 });
    const { config, meter } = setup(model, { maxCostUsd: 0.12 });
    const result = await runLoop(config, [{ role: 'user', content: 'go' }]);

    expect(result.conclusion).toBe('budget');
    expect(meter.costUsd).toBeLessThanOrEqual(0.12 + 0.08);
    expect(seen.requests.length).toBeLessThanOrEqual(3);
    expect(seen.mostInFlight).toBe(1);
  });

  it('runs at most maxParallel subagents at once; the others wait and all finish', async () => {
    const { model, seen } = fanOutModel(7);
    const { config } = setup(model, { maxParallel: 2 });
    const result = await runLoop(config, [{ role: 'user', content: 'go' }]);

    expect(result.conclusion).toBe('success');
    expect(seen.requests.filter((r) => r.system !== 'parent')).toHaveLength(7);
    expect(seen.mostInFlight).toBe(2);
  });

  it('runs four subagents at once by default', async () => {
    const { model, seen } = fanOutModel(9);
    await runLoop(setup(model).config, [{ role: 'user', content: 'go' }]);
    expect(seen.mostInFlight).toBe(4);
  });
});

describe('Slots', () => {
  it('hands slots out in order and lets a waiter give up when its signal aborts', async () => {
    const slots = new Slots(1);
    const stop = new AbortController();
    const first = await slots.take(stop.signal);
    const order: string[] = [];
    const second = slots.take(new AbortController().signal).then((r) => (order.push('second'), r));
    const third = slots.take(stop.signal).then((r) => (order.push(`third ${r === null ? 'gave up' : 'got one'}`), r));
    stop.abort();
    expect(await third).toBeNull();
    first?.();
    first?.();
    const release = await second;
    expect(order).toEqual(['third gave up', 'second']);
    release?.();
    // One slot, released twice by the first holder, is still one slot.
    const again = await slots.take(new AbortController().signal);
    let fourth = false;
    void slots.take(new AbortController().signal).then(() => (fourth = true));
    await tick();
    expect(fourth).toBe(false);
    again?.();
    await tick();
    expect(fourth).toBe(true);
  });
});
