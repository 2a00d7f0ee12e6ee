import { runLoop, type LoopConfig } from '../../src/agent/loop.js';
import { UsageMeter } from '../../src/agent/meter.js';
import { TASK } from '../../src/agent/subagent.js';
import { withSubagents } from '../../src/session/subagents.js';
import type { TranscriptRecord } from '../../src/agent/transcript.js';
import {
  ModelError,
  type Block,
  type ModelRequest,
  type ToolCall,
  type ToolOutcome,
  type ToolSet,
  type ToolSpec,
} from '../../src/core/index.js';
import { loopWith } from '../../test-support/harness.js';
import { ScriptedModel, say, type ScriptedTurn } from '../../test-support/scripted-model.js';

const spec = (name: string, readOnly: boolean, extra: Partial<ToolSpec> = {}): ToolSpec => ({
  name,
  description: name,
  readOnly,
  input_schema: { type: 'object' },
  ...extra,
});
const SPECS = [spec('Grep', true), spec('Read', true), spec('Write', false), spec('Agent', true, { earlyStart: false })];

/**
 * Tools that log when each call starts and ends; a call whose input has `ms` takes that long (or
 * until its signal aborts), so calls can end in another order than they started.
 */
function loggedTools(): ToolSet & { calls: ToolCall[]; signals: AbortSignal[] } {
  const calls: ToolCall[] = [];
  const signals: AbortSignal[] = [];
  return {
    calls,
    signals,
    specs: () => SPECS,
    isReadOnly: (name) => SPECS.find((s) => s.name === name)?.readOnly ?? false,
    async execute(call, signal): Promise<ToolOutcome> {
      calls.push(call);
      signals.push(signal);
      const { ms = 0, fail = false } = call.input as { ms?: number; fail?: boolean };
      if (fail) return { content: 'No such file.', isError: true };
      await new Promise<void>((done) => {
        const timer = setTimeout(done, ms);
        signal.addEventListener('abort', () => (clearTimeout(timer), done()), { once: true });
      });
      return { content: `${call.name} ${call.id} ${signal.aborted ? 'aborted' : 'ran'}`, isError: false };
    },
  };
}

let ids = 0;
const use = (name: string, input: Record<string, unknown> = {}): Extract<Block, { type: 'tool_use' }> => ({
  type: 'tool_use',
  id: `toolu_s${++ids}`,
  name,
  input,
});
const answer = (...content: Block[]): ScriptedTurn => ({ content });

function setup(script: ConstructorParameters<typeof ScriptedModel>[0], o: { reports?: boolean; overrides?: Partial<LoopConfig> } = {}) {
  const log: string[] = [];
  const records: TranscriptRecord[] = [];
  const model = new ScriptedModel(script, { reportsToolUse: o.reports ?? true });
  const tools = loggedTools();
  const config = loopWith(model, tools, {
    system: 'test',
    maxTokens: 1000,
    streamRetries: 2,
    compactAtTokens: 1e9,
    sleep: () => Promise.resolve(),
    transcript: { path: 'memory', write: (r) => records.push(r) },
    events: {
      onToolStart: (c) => log.push(`start ${c.id}`),
      onToolEnd: (c) => log.push(`end ${c.id}`),
      onStep: (s) => log.push(`step ${s.step}`),
      onNotice: (m) => log.push(`notice ${m}`),
    },
    ...o.overrides,
  });
  const run = () => runLoop(config, [{ role: 'user', content: 'go' }]);
  return { log, records, model, tools, run };
}

/** The tool_result blocks of a request's last message, as [id, content]. */
function results(request: ModelRequest | undefined): [string, unknown][] {
  const last = request?.messages.at(-1);
  if (!last || typeof last.content === 'string') return [];
  return last.content.flatMap((b) => (b.type === 'tool_result' ? [[b.tool_use_id, b.content] as [string, unknown]] : []));
}

const before = (log: string[], a: string, b: string) => {
  expect(log).toContain(a);
  expect(log).toContain(b);
  expect(log.indexOf(a)).toBeLessThan(log.indexOf(b));
};

describe('tool calls started while the model is still answering', () => {
  it('starts the read-only calls as their blocks arrive and sends the results in block order', async () => {
    const [a, b, c] = [use('Grep', { ms: 30 }), use('Read', { ms: 15 }), use('Grep', { ms: 1 })];
    const { log, model, run } = setup([answer({ type: 'text', text: 'Looking.' }, a, b, c), say('done')]);
    const r = await run();
    expect(r.conclusion).toBe('success');
    // All three started before the answer was whole (step 1 is reported once it is).
    for (const call of [a, b, c]) before(log, `start ${call.id}`, 'step 1');
    // They ended in the reverse order, yet the results keep the order of the blocks.
    before(log, `end ${c.id}`, `end ${a.id}`);
    expect(results(model.requests[1])).toEqual([
      [a.id, `Grep ${a.id} ran`],
      [b.id, `Read ${b.id} ran`],
      [c.id, `Grep ${c.id} ran`],
    ]);
  });

  it('sends exactly the same conversation whether or not the model reports blocks early', async () => {
    const conversation = async (reports: boolean) => {
      ids = 100;
      const script = () => [answer(use('Grep', { ms: 5 }), use('Write'), use('Read')), answer(use('Read', { ms: 1 })), say('done')];
      const { model, run } = setup(script(), { reports });
      const r = await run();
      return { conclusion: r.conclusion, requests: model.requests.map((q) => q.messages) };
    };
    const streamed = await conversation(true);
    expect(streamed.conclusion).toBe('success');
    expect(streamed).toEqual(await conversation(false));
  });

  it('starts a write only once the answer is whole, and the calls after it only once it is done', async () => {
    const [read, write, after] = [use('Read', { ms: 10 }), use('Write'), use('Grep')];
    const { log, model, run } = setup([answer(read, write, after), say('done')]);
    await run();
    before(log, `start ${read.id}`, 'step 1');
    before(log, 'step 1', `start ${write.id}`);
    before(log, `end ${read.id}`, `start ${write.id}`);
    before(log, `end ${write.id}`, `start ${after.id}`);
    expect(results(model.requests[1]).map(([id]) => id)).toEqual([read.id, write.id, after.id]);
  });

  it('holds back a read-only tool that may not start early, and the reads after it', async () => {
    const [agent, grep] = [use('Agent'), use('Grep')];
    const { log, run } = setup([answer(agent, grep), say('done')]);
    await run();
    before(log, 'step 1', `start ${agent.id}`);
    before(log, 'step 1', `start ${grep.id}`);
  });

  it('counts the failures of early calls toward stuck detection as before, and ends the run at the fifth', async () => {
    const turns = [1, 2, 3, 4, 5].map(() => answer(use('Grep', { fail: true }), { type: 'text', text: 'Again.' }));
    const { model, run } = setup(turns);
    const r = await run();
    expect(r.conclusion).toBe('error');
    expect(r.reason).toMatch(/^stuck: the same Grep call failed the same way 5 times in a row/);
    expect(JSON.stringify(results(model.requests[3]))).toContain('has now failed the same way 3 times in a row');
  });

  it("starts a subagent's reads early in its own loop, but a Task only once the parent's answer is whole", async () => {
    const task = use(TASK, { description: 'look', prompt: 'find it', subagent_type: 'general-purpose' });
    const grep = use('Grep');
    const { log, model, tools } = setup([answer(task, { type: 'text', text: 'Waiting.' }), answer(grep), say('found'), say('done')]);
    const limits = { maxSteps: 20, maxCostUsd: 5, deadline: Infinity };
    const common = { limits, maxTokens: 1000, streamRetries: 0, compactAtTokens: 1e9, meter: new UsageMeter() };
    const type = { name: 'general-purpose', description: 'any task', prompt: 'You help.', source: 'test' };
    const events = { onToolStart: (c: ToolCall) => log.push(`start ${c.id}`), onStep: (s: { step: number }) => log.push(`step ${s.step}`) };
    const parent = withSubagents(tools, { types: [type], model, tools: () => tools, events, ...common });
    const config = { model, tools: parent, system: 'parent', signal: new AbortController().signal, events, ...common };
    const r = await runLoop(config, [{ role: 'user', content: 'go' }]);
    expect(r.result).toBe('done');
    before(log, 'step 1', `start ${task.id}`);
    before(log, `start ${grep.id}`, 'step 2');
  });

  it('runs every call after the answer when the model reports no blocks', async () => {
    const [a, b] = [use('Grep'), use('Read')];
    const { log, model, run } = setup([answer(a, b), say('done')], { reports: false });
    await run();
    before(log, 'step 1', `start ${a.id}`);
    expect(results(model.requests[1]).map(([id]) => id)).toEqual([a.id, b.id]);
  });
});

describe('an answer lost after its calls started', () => {
  it('stops and drops the reads of a broken stream, and sends only the retried answer and its results', async () => {
    const early = use('Grep', { ms: 10_000 });
    const again = use('Grep', { ms: 1 });
    const broken = (request: ModelRequest): ScriptedTurn => {
      request.onToolUse?.(early);
      throw new ModelError('model stream failed: socket hang up', 'stream', null);
    };
    const { log, records, model, tools, run } = setup([broken, answer(again), say('done')]);
    const r = await run();
    expect(r.conclusion).toBe('success');
    // The read ran, was stopped and had ended before the retry went out.
    expect(tools.calls.map((c) => c.id)).toEqual([early.id, again.id]);
    expect(tools.signals[0]!.aborted).toBe(true);
    before(log, `end ${early.id}`, `start ${again.id}`);
    expect(model.requests[1]!.messages).toEqual(model.requests[0]!.messages);
    expect(results(model.requests[2])).toEqual([[again.id, `Grep ${again.id} ran`]]);
    expect(JSON.stringify(model.requests[2]!.messages)).not.toContain(early.id);
    expect(records).toContainEqual(
      expect.objectContaining({ type: 'meta', event: 'calls_discarded', calls: [{ id: early.id, name: 'Grep' }] }),
    );
    expect(log.some((l) => l.startsWith('notice dropped the results of Grep'))).toBe(true);
  });

  it('never starts a write of an answer whose stream then broke', async () => {
    const write = use('Write');
    const broken = (request: ModelRequest): ScriptedTurn => {
      request.onToolUse?.(write);
      throw new ModelError('model stream failed: terminated', 'stream', null);
    };
    const { tools, run } = setup([broken, say('done')]);
    const r = await run();
    expect(r.conclusion).toBe('success');
    expect(tools.calls).toEqual([]);
  });

  it('drops the early reads of a refused answer and ends only once they stopped', async () => {
    const grep = use('Grep', { ms: 10_000 });
    // Whole once the text after it began; the answer then ends in a refusal, which runs no calls.
    const { log, records, tools, run } = setup([{ content: [grep, { type: 'text', text: 'I will not.' }], stop: 'refusal' }]);
    const r = await run();
    expect(r.conclusion).toBe('refusal');
    expect(log).toContain(`end ${grep.id}`);
    expect(tools.signals[0]!.aborted).toBe(true);
    expect(records.some((rec) => rec.type === 'meta' && rec.event === 'calls_discarded')).toBe(true);
  });

  it('does not run a reported call that a max_tokens cut then drops, and says it was not run', async () => {
    const [grep, cut] = [use('Grep'), use('Read', { ms: 10_000 })];
    // An adapter that reported the last block of a cut answer anyway: the loop still drops it.
    const careless = (request: ModelRequest): ScriptedTurn => {
      request.onToolUse?.(grep);
      request.onToolUse?.(cut);
      return { content: [grep, cut], stop: 'max_tokens' };
    };
    const { model, tools, run } = setup([careless, say('done')], { reports: false });
    await run();
    expect(tools.signals[1]!.aborted).toBe(true);
    expect(results(model.requests[1])).toEqual([[grep.id, `Grep ${grep.id} ran`]]);
    expect(JSON.stringify(model.requests[1]!.messages.at(-1))).toContain('hit the output limit (max_tokens) while writing a Read call');
  });

  it('stops the early reads when the run is cancelled mid-answer and returns once they ended', async () => {
    const controller = new AbortController();
    const grep = use('Grep', { ms: 10_000 });
    const cancelled = (request: ModelRequest): ScriptedTurn => {
      request.onToolUse?.(grep);
      controller.abort();
      throw new ModelError('the model call was aborted', 'aborted', null);
    };
    const { log, tools, run } = setup([cancelled], { overrides: { signal: controller.signal } });
    const r = await run();
    expect(r.conclusion).toBe('cancelled');
    expect(tools.signals[0]!.aborted).toBe(true);
    expect(log).toContain(`end ${grep.id}`);
  });
});
