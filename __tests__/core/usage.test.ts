import { budget, firstStop, stopConditions } from '../../src/agent/limits.js';
import { UsageMeter } from '../../src/agent/meter.js';
import { costOf } from '../../src/core/usage.js';
import { FALLBACK_PRICE, priceFor } from '../../src/model/anthropic/prices.js';

describe('cost accounting', () => {
  it('prices a dated model id by its family and counts cache reads and writes', () => {
    const p = priceFor('claude-sonnet-5-5-20260601');
    expect(p.input).toBe(2);
    const cost = costOf(
      { input_tokens: 1_000_000, output_tokens: 1_000_000, cache_read_input_tokens: 1_000_000, cache_creation_input_tokens: 1_000_000 },
      p,
    );
    expect(cost).toBeCloseTo(2 + 10 + 0.1 + 2.5, 6);
  });

  it('bills each web search on top of the tokens, $10 per 1,000', () => {
    const tokens = { input_tokens: 1_000_000, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
    const p = priceFor('claude-sonnet-5-5');
    expect(costOf({ ...tokens, server_tool_use: { web_search_requests: 3 } }, p) - costOf(tokens, p)).toBeCloseTo(0.03, 9);
  });

  it('prices an unknown model at the safe high end, and takes overrides', () => {
    expect(priceFor('mystery-model')).toEqual(FALLBACK_PRICE);
    expect(priceFor('mystery-model', { mystery: { input: 1, output: 1, cacheRead: 0, cacheWrite: 1 } }).input).toBe(1);
  });

  it('keeps totals and the last prompt size across calls', () => {
    const meter = new UsageMeter();
    meter.add({ input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 100, cache_creation_input_tokens: 0 }, 0.001);
    meter.add({ input_tokens: 20, output_tokens: 5, cache_read_input_tokens: 110, cache_creation_input_tokens: 5 }, 0.002);
    expect(meter.total).toEqual({ input_tokens: 30, output_tokens: 10, cache_read_input_tokens: 210, cache_creation_input_tokens: 5 });
    expect(meter.lastPromptTokens).toBe(135);
    expect(meter.billedCalls).toBe(2);
  });
});

describe('stop conditions', () => {
  const state = { steps: 0, costUsd: 0, lastCallCostUsd: 0, now: 0, aborted: false };
  const limits = { maxSteps: 5, maxCostUsd: 1, deadline: 100 };

  it('names the limit that stopped the run, cancellation first', () => {
    expect(firstStop(stopConditions(limits), state)).toBeNull();
    expect(firstStop(stopConditions(limits), { ...state, steps: 5 })?.conclusion).toBe('max-steps');
    expect(firstStop(stopConditions(limits), { ...state, now: 100 })?.conclusion).toBe('timeout');
    expect(firstStop(stopConditions(limits), { ...state, steps: 5, aborted: true })?.conclusion).toBe('cancelled');
  });

  it('stops when the next call, guessed from the last, would pass the cap', () => {
    expect(budget(1)({ ...state, costUsd: 0.7, lastCallCostUsd: 0.2 })).toBeNull();
    expect(budget(1)({ ...state, costUsd: 0.9, lastCallCostUsd: 0.2 })?.conclusion).toBe('budget');
    expect(budget(1)({ ...state, costUsd: 1 })?.conclusion).toBe('budget');
  });
});
