import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { harness, lastToolResults, lastUserText, type Harness } from '../../test-support/harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });

describe('the agent loop', () => {
  it("ends with the model's text when it answers directly", async () => {
    h = await harness([text('All done.')]);
    const r = await h.run();
    expect(r.reason).toBe('');
    expect(r.conclusion).toBe('success');
    expect(r.result).toBe('All done.');
    expect(r.steps).toBe(1);
    expect(r.usage.output_tokens).toBeGreaterThan(0);
    expect(r.costUsd).toBeGreaterThan(0);
    expect(h.server.validationErrors).toEqual([]);
  });

  it('prices calls with an override table when one is given', async () => {
    h = await harness([text('free')]);
    const r = await h.run({ prices: { 'claude-sonnet-5-5': { input: 0, output: 1_000_000, cacheRead: 0, cacheWrite: 0 } } });
    expect(r.costUsd).toBe(r.usage.output_tokens);
  });

  it('runs a tool and sends its result back in the next user message', async () => {
    h = await harness([
      {
        content: [
          { type: 'text', text: 'Writing.' },
          { type: 'tool_use', id: 'toolu_w', name: 'Write', input: { file_path: 'hello.txt', content: 'hi\n' } },
        ],
      },
      text('Wrote it.'),
    ]);
    const r = await h.run();
    expect(r.conclusion).toBe('success');
    expect(await readFile(join(h.dir, 'hello.txt'), 'utf8')).toBe('hi\n');
    const results = lastToolResults(h.server, 1);
    expect(results).toHaveLength(1);
    expect(results[0]!.tool_use_id).toBe('toolu_w');
    expect(results[0]!.is_error).toBeUndefined();
    expect(h.server.validationErrors).toEqual([]);
  });

  it('feeds a failing tool back as is_error and goes on', async () => {
    h = await harness([{ content: [{ type: 'tool_use', name: 'Read', input: { file_path: 'missing.txt' } }] }, text('It does not exist.')]);
    const r = await h.run();
    expect(r.conclusion).toBe('success');
    const [result] = lastToolResults(h.server, 1);
    expect(result!.is_error).toBe(true);
    expect(result!.content).toMatch(/missing\.txt/);
  });

  it('answers input that fails the schema, and an unknown tool, with is_error saying what to change', async () => {
    h = await harness([
      {
        content: [
          { type: 'tool_use', name: 'Read', input: { path: 'x' } },
          { type: 'tool_use', name: 'Deploy', input: {} },
        ],
      },
      text('ok'),
    ]);
    await h.run();
    const [invalid, unknown] = lastToolResults(h.server, 1);
    expect(invalid!.is_error).toBe(true);
    expect(invalid!.content).toMatch(/file_path/);
    expect(unknown!.is_error).toBe(true);
    expect(unknown!.content).toMatch(/No tool named "Deploy".*Read/);
    expect(h.server.validationErrors).toEqual([]);
  });

  // That they run together is held by loop-unit's test, whose calls wait for each other: a Read
  // may end here before the next block of the answer is even parsed.
  it('runs the read-only calls of one turn before the write after them and keeps results in call order', async () => {
    h = await harness([
      {
        content: [
          { type: 'tool_use', id: 't1', name: 'Read', input: { file_path: 'a.txt' } },
          { type: 'tool_use', id: 't2', name: 'Read', input: { file_path: 'b.txt' } },
          { type: 'tool_use', id: 't3', name: 'Glob', input: { pattern: '*.txt' } },
          { type: 'tool_use', id: 't4', name: 'Bash', input: { command: 'echo after' } },
        ],
      },
      text('read'),
    ]);
    await writeFile(join(h.dir, 'a.txt'), 'A\n');
    await writeFile(join(h.dir, 'b.txt'), 'B\n');
    const order: string[] = [];
    await h.run({ events: { onToolStart: (c) => order.push(`start ${c.id}`), onToolEnd: (c) => order.push(`end ${c.id}`) } });
    expect(order.filter((e) => e.startsWith('start')).slice(0, 3)).toEqual(['start t1', 'start t2', 'start t3']);
    expect(order.indexOf('start t4')).toBeGreaterThan(Math.max(...['t1', 't2', 't3'].map((id) => order.indexOf(`end ${id}`))));
    const results = lastToolResults(h.server, 1);
    expect(results.map((r) => r.tool_use_id)).toEqual(['t1', 't2', 't3', 't4']);
    expect(results[0]!.content).toMatch(/A/);
    expect(results[1]!.content).toMatch(/B/);
  });

  it('keeps thinking and redacted_thinking blocks in the history exactly as received', async () => {
    h = await harness([
      {
        content: [
          { type: 'thinking', thinking: 'Let me list the files.', signature: 'c2lnbmF0dXJlLTE=' },
          { type: 'redacted_thinking', data: 'ZW5jcnlwdGVk' },
          { type: 'tool_use', name: 'Glob', input: { pattern: '*' } },
        ],
      },
      text('listed'),
    ]);
    const r = await h.run();
    expect(r.conclusion).toBe('success');
    const sent = h.server.requests[1]!.body.messages[1]!.content;
    expect(Array.isArray(sent) && sent.slice(0, 2)).toEqual([
      { type: 'thinking', thinking: 'Let me list the files.', signature: 'c2lnbmF0dXJlLTE=' },
      { type: 'redacted_thinking', data: 'ZW5jcnlwdGVk' },
    ]);
    expect(h.server.validationErrors).toEqual([]);
  });

  it('treats stop_sequence as the end of the run', async () => {
    h = await harness([{ content: [{ type: 'text', text: 'stopped here' }], stop_reason: 'stop_sequence' }]);
    const r = await h.run();
    expect(r.conclusion).toBe('success');
    expect(r.result).toBe('stopped here');
  });

  it('ends with conclusion refusal when the model refuses', async () => {
    h = await harness([{ content: [{ type: 'text', text: 'I cannot help with that.' }], stop_reason: 'refusal' }]);
    const r = await h.run();
    expect(r.conclusion).toBe('refusal');
    expect(h.server.requests).toHaveLength(1);
  });

  it('sends a paused turn back as it is and joins the continuation to it', async () => {
    h = await harness([{ content: [{ type: 'text', text: 'Part one.' }], stop_reason: 'pause_turn' }, text('Part two.')]);
    const r = await h.run();
    expect(r.conclusion).toBe('success');
    const second = h.server.requests[1]!.body.messages;
    expect(second[second.length - 1]!.role).toBe('assistant');
    const last = r.messages[r.messages.length - 1]!;
    expect(last.role).toBe('assistant');
    expect(JSON.stringify(last.content)).toMatch(/Part one.*Part two/);
    expect(h.server.validationErrors).toEqual([]);
  });

  it('asks the model to go on when text is cut at max_tokens', async () => {
    h = await harness([{ content: [{ type: 'text', text: 'A long expla' }], stop_reason: 'max_tokens' }, text('nation.')]);
    const r = await h.run();
    expect(r.conclusion).toBe('success');
    expect(lastUserText(h.server, 1)).toMatch(/output limit/);
  });

  it('never runs a tool_use cut off by max_tokens and tells the model', async () => {
    h = await harness([
      {
        content: [
          { type: 'text', text: 'Writing the file.' },
          { type: 'tool_use_partial', name: 'Write', partialJson: '{"file_path": "big.txt", "content": "aaaa' },
        ],
      },
      text('Retrying later.'),
    ]);
    const r = await h.run();
    expect(r.conclusion).toBe('success');
    expect(existsSync(join(h.dir, 'big.txt'))).toBe(false);
    expect(lastUserText(h.server, 1)).toMatch(/max_tokens.*Write call.*not run/);
    expect(h.server.validationErrors).toEqual([]);
  });

  it('clears old tool output and goes on when the context window is exceeded', async () => {
    const big = 'x'.repeat(5000);
    const script = [
      ...[1, 2, 3, 4, 5].map((n) => ({
        content: [{ type: 'tool_use' as const, name: 'Bash', input: { command: `printf '${big}'; echo ${n}` } }],
      })),
      { content: [{ type: 'text' as const, text: 'Context filled.' }], stop_reason: 'model_context_window_exceeded' as const },
      text('Finished.'),
    ];
    h = await harness(script);
    const r = await h.run();
    expect(r.conclusion).toBe('success');
    const last = JSON.stringify(h.server.requests[6]!.body.messages);
    expect(last).toMatch(/cleared to save context/);
    expect(lastUserText(h.server, 6)).toMatch(/context window filled up/);
  });
});

describe('faults', () => {
  it('succeeds after two 529 overloaded errors (the SDK retries them)', async () => {
    const overloaded = { kind: 'error' as const, status: 529, type: 'overloaded_error', message: 'Overloaded' };
    h = await harness([overloaded, overloaded, text('made it')], { maxRetries: 2 });
    const r = await h.run();
    expect(r.conclusion).toBe('success');
    expect(h.server.requests).toHaveLength(3);
  });

  it('waits as long as a 429 retry-after says', async () => {
    h = await harness([
      { kind: 'error', status: 429, type: 'rate_limit_error', message: 'Rate limited', headers: { 'retry-after': '1' } },
      text('ok'),
    ]);
    const started = Date.now();
    const r = await h.run();
    expect(r.conclusion).toBe('success');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('does not retry a 400 and says what to fix', async () => {
    h = await harness([{ kind: 'error', status: 400, type: 'invalid_request_error', message: 'max_tokens: too large' }, text('never')]);
    const r = await h.run();
    expect(r.conclusion).toBe('error');
    expect(r.reason).toMatch(/400.*max_tokens: too large/);
    expect(h.server.requests).toHaveLength(1);
  });

  it('does not retry a spend-limit 429', async () => {
    h = await harness(
      [{ kind: 'error', status: 429, type: 'rate_limit_error', message: 'You have reached your spend limit' }, text('never')],
      { maxRetries: 3 },
    );
    const r = await h.run();
    expect(r.conclusion).toBe('error');
    expect(r.reason).toMatch(/spend limit/);
    expect(h.server.requests).toHaveLength(1);
  });

  it('gives up with error when 529s outlast the retries', async () => {
    const overloaded = { kind: 'error' as const, status: 529, type: 'overloaded_error', message: 'Overloaded' };
    h = await harness([overloaded, overloaded, overloaded], { maxRetries: 2 });
    const r = await h.run();
    expect(r.conclusion).toBe('error');
    expect(r.reason).toMatch(/529 after 2 retries/);
  });

  it('retries a stream cut after the 200 and still bills the cut call', async () => {
    h = await harness([{ kind: 'cut', content: [{ type: 'text', text: 'half an answ' }], afterEvents: 4 }, text('whole answer')]);
    const r = await h.run();
    expect(r.conclusion).toBe('success');
    expect(r.result).toBe('whole answer');
    const firstInput = h.server.requests[0]!.usage!;
    const secondInput = h.server.requests[1]!.usage!;
    const prompt = (u: typeof firstInput) => u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
    expect(r.usage.input_tokens + r.usage.cache_read_input_tokens + r.usage.cache_creation_input_tokens).toBe(
      prompt(firstInput) + prompt(secondInput),
    );
  });
});

describe('limits', () => {
  const forever = () => ({ content: [{ type: 'tool_use' as const, name: 'Bash', input: { command: 'true' } }] });

  it('stops at max-steps and still reports usage', async () => {
    h = await harness(forever);
    const r = await h.run({ limits: { maxSteps: 3, maxCostUsd: 5, deadline: Infinity } });
    expect(r.conclusion).toBe('max-steps');
    expect(r.steps).toBe(3);
    expect(h.server.requests).toHaveLength(3);
    expect(r.usage.output_tokens).toBeGreaterThan(0);
    expect(r.reason).toMatch(/max-steps 3/);
  });

  it('stops before a call that the budget cannot pay for', async () => {
    h = await harness(forever);
    const r = await h.run({ limits: { maxSteps: 100, maxCostUsd: 0.01, deadline: Infinity } });
    expect(r.conclusion).toBe('budget');
    expect(r.costUsd).toBeLessThanOrEqual(0.01);
    expect(r.steps).toBeGreaterThan(1);
    expect(r.reason).toMatch(/max-cost-usd 0.01/);
  });

  it('stops at the deadline even while the model is still answering', async () => {
    h = await harness([{ kind: 'hang' }]);
    const started = Date.now();
    const r = await h.run({ limits: { maxSteps: 10, maxCostUsd: 5, deadline: Date.now() + 500 } });
    expect(r.conclusion).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('cancels a running tool and kills its process', async () => {
    h = await harness([{ content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo $$ > pid; sleep 30' } }] }, text('never')]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 500);
    const started = Date.now();
    const r = await h.run({ signal: controller.signal });
    expect(r.conclusion).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(5000);
    const pid = Number(await readFile(join(h.dir, 'pid'), 'utf8'));
    expect(() => process.kill(pid, 0)).toThrow();
    expect(h.server.requests).toHaveLength(1);
  });
});

describe('prompt caching', () => {
  it('marks the stable prefix and the newest messages, never more than 4 breakpoints, and reads the cache back', async () => {
    let n = 0;
    h = await harness(() =>
      ++n < 6 ? { content: [{ type: 'tool_use', name: 'Bash', input: { command: `echo step ${n}` } }] } : text('done'),
    );
    const r = await h.run();
    expect(r.conclusion).toBe('success');
    for (const req of h.server.requests) {
      const count = JSON.stringify(req.body).split('"cache_control"').length - 1;
      expect(count).toBeGreaterThanOrEqual(2);
      expect(count).toBeLessThanOrEqual(4);
    }
    for (const req of h.server.requests.slice(1)) {
      const u = req.usage!;
      expect(u.cache_read_input_tokens / (u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens)).toBeGreaterThan(0.5);
    }
    expect(h.server.validationErrors).toEqual([]);
  });
});

describe('tool output', () => {
  it('caps 5 MB of output, keeping head and tail and saying how much was cut', async () => {
    h = await harness([
      {
        content: [
          { type: 'tool_use', name: 'Bash', input: { command: "echo START; head -c 5000000 /dev/zero | tr '\\0' a; echo; echo END" } },
        ],
      },
      text('ok'),
    ]);
    await h.run({ outputLimit: 20000 });
    const [result] = lastToolResults(h.server, 1);
    expect(result!.content.length).toBeLessThan(21000);
    expect(result!.content).toMatch(/^START/);
    expect(result!.content).toMatch(/END/);
    expect(result!.content).toMatch(/characters cut/);
  });

  it('refuses paths that escape the workspace', async () => {
    h = await harness([
      {
        content: [
          { type: 'tool_use', name: 'Read', input: { file_path: '../../etc/passwd' } },
          { type: 'tool_use', name: 'Write', input: { file_path: '/tmp/agent-escape.txt', content: 'x' } },
        ],
      },
      text('ok'),
    ]);
    await h.run();
    const results = lastToolResults(h.server, 1);
    expect(results.every((r) => r.is_error === true)).toBe(true);
    expect(existsSync('/tmp/agent-escape.txt')).toBe(false);
    expect(results[0]!.content).not.toMatch(/root:/);
  });
});

describe('stuck detection', () => {
  const failing = { content: [{ type: 'tool_use' as const, name: 'Read', input: { file_path: 'nope.txt' } }] };

  it('points out the third identical failure and ends the run at the fifth', async () => {
    h = await harness(() => failing);
    const r = await h.run();
    expect(r.conclusion).toBe('error');
    expect(r.reason).toMatch(/stuck: the same Read call failed the same way 5 times in a row/);
    expect(h.server.requests).toHaveLength(5);
    expect(lastToolResults(h.server, 2)[0]!.content).not.toMatch(/times in a row/);
    expect(lastToolResults(h.server, 3)[0]!.content).toMatch(/failed the same way 3 times in a row/);
  });

  it('starts counting again after a call that works', async () => {
    let n = 0;
    h = await harness(() =>
      ++n === 4 ? { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'true' } }] } : n > 8 ? text('gave up') : failing,
    );
    const r = await h.run();
    expect(r.conclusion).toBe('success');
  });
});

describe('context economy', () => {
  it('summarises older turns through the model when there is no tool output left to clear', async () => {
    let step = 0;
    const prose = 'Thinking about the next step. '.repeat(60);
    h = await harness((req) => {
      const last = req.body.messages[req.body.messages.length - 1]!;
      if (JSON.stringify(last.content).includes('Write a summary of the work so far'))
        return text('SUMMARY: ran echo many times, nothing left but to finish.');
      step++;
      return step < 12
        ? {
            content: [
              { type: 'text', text: `${prose} (${step})` },
              { type: 'tool_use', name: 'Bash', input: { command: `echo ${step}` } },
            ],
          }
        : text('finished');
    });
    const r = await h.run({ compactAtTokens: 3000 });
    expect(r.conclusion).toBe('success');
    const summaryRequests = h.server.requests.filter((q) =>
      JSON.stringify(q.body.messages.at(-1)).includes('Write a summary of the work so far'),
    );
    expect(summaryRequests.length).toBeGreaterThan(0);
    const after = h.server.requests[h.server.requests.indexOf(summaryRequests[0]!) + 1]!;
    const first = JSON.stringify(after.body.messages[0]);
    expect(first).toContain('do the task');
    expect(first).toContain('SUMMARY: ran echo many times');
    const before = h.server.requests[h.server.requests.indexOf(summaryRequests[0]!) - 1]!;
    expect(after.body.messages.length).toBeLessThan(before.body.messages.length + 2);
    for (const q of h.server.requests.slice(4))
      expect(q.usage!.input_tokens + q.usage!.cache_read_input_tokens + q.usage!.cache_creation_input_tokens).toBeLessThan(6000);
    expect(h.server.validationErrors).toEqual([]);
  });
});
