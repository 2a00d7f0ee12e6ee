import {
  startAnthropicServer,
  type AnthropicServer,
  type RecordedRequest,
  type ScriptedReply,
} from '../../test-support/anthropic-server.js';
import { childEnv, cleanHome, makeRepo, runCli } from '../../test-support/cli-process.js';
import { costOf } from '../../src/core/usage.js';
import { priceFor } from '../../src/model/anthropic/prices.js';

const KEY = 'sk-ant-canary-limits-7d21';
const MODEL = 'claude-sonnet-5-5';
let server: AnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The main agent's system prompt names agent-action; a subagent's is its type's own. */
const isSubagent = (req: RecordedRequest) => !JSON.stringify(req.body.system ?? '').includes('You are agent-action,');
const tasks = (n: number) => ({
  content: Array.from({ length: n }, (_, i) => ({
    type: 'tool_use' as const,
    name: 'Task',
    input: { description: `look at part ${i}`, prompt: `Report on part ${i} of the code.`, subagent_type: 'general-purpose' },
  })),
});
const text = (t: string, extra: object = {}): ScriptedReply => ({ content: [{ type: 'text', text: t }], ...extra });

/** The main agent asks for n subagents at once, each of which answers (after `hold` ms), then it ends. */
function fanOut(n: number, reply: (req: RecordedRequest) => ScriptedReply = () => text('part looked at')) {
  return (req: RecordedRequest): ScriptedReply => {
    if (isSubagent(req)) return reply(req);
    return req.body.messages.length === 1 ? tasks(n) : text('all parts reported');
  };
}

/** What the server billed, priced as the run prices it: the spend, whatever the CLI says about it. */
const billed = (s: AnthropicServer) => s.requests.map((r) => (r.usage ? costOf(r.usage, priceFor(MODEL)) : 0));

/** The most subagent requests the server had open at one moment. */
function mostInFlight(s: AnthropicServer): number {
  const edges = s.requests
    .filter(isSubagent)
    .flatMap((r) => [
      { at: r.receivedAt, d: 1 },
      { at: r.answeredAt ?? Infinity, d: -1 },
    ])
    .sort((a, b) => a.at - b.at || a.d - b.d);
  let open = 0;
  let most = 0;
  for (const e of edges) most = Math.max(most, (open += e.d));
  return most;
}

async function run(args: string[]) {
  const home = await cleanHome();
  const repo = await makeRepo({ 'README.md': '# parts\n' }, home);
  const env = childEnv(home, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server!.url });
  const started = Date.now();
  const r = await runCli(['--cwd', repo, '--json', '--model', MODEL, ...args, 'look at every part'], env);
  return { ...r, ms: Date.now() - started, out: JSON.parse(r.stdout || '{}') as Record<string, unknown> };
}

describe('limits under concurrent subagents (dist/cli/index.js)', () => {
  it.each([12, 50])('makes at most --max-steps 4 model calls when one answer holds %i Task calls', async (n) => {
    server = await startAnthropicServer({ requireApiKey: KEY, script: fanOut(n) });
    const r = await run(['--max-steps', '4']);

    expect(server.requests).toHaveLength(4);
    expect(server.requests.filter(isSubagent)).toHaveLength(3);
    expect(r.out).toMatchObject({ conclusion: 'max-steps', steps: 4 });
    expect(r.code).toBe(1);
    expect(server.validationErrors).toEqual([]);
    // The subagents that got no step say so in their Task result, which the model would see.
    expect(r.stderr).toMatch(/subagent general-purpose-\d+ ended: max-steps/);
  });

  it('keeps the spend within one call of a tight --max-cost-usd while 12 subagents start at once', async () => {
    // Each answer writes 5000 tokens ($0.05 at $10/M); the cap leaves room for about two calls.
    const big = { usage: { output_tokens: 5000 } };
    server = await startAnthropicServer({
      requireApiKey: KEY,
      script: (req) => (isSubagent(req) ? text('part looked at', big) : { ...tasks(12), ...big }),
    });
    const cap = 0.15;
    const r = await run(['--max-cost-usd', String(cap)]);

    const costs = billed(server);
    const spent = costs.reduce((a, b) => a + b, 0);
    expect(spent).toBeLessThanOrEqual(cap + Math.max(...costs));
    expect(server.requests.length).toBeLessThan(13);
    expect(server.requests.filter(isSubagent).length).toBeGreaterThan(0);
    expect(r.out['conclusion']).toBe('budget');
    // cost_usd is rounded to six decimals: at most half a millionth from the exact sum.
    expect(Math.abs((r.out['cost_usd'] as number) - spent)).toBeLessThanOrEqual(5e-7 + 1e-12);
  });

  it('runs at most --max-parallel-agents 2 subagents at once, the others waiting for a slot', async () => {
    server = await startAnthropicServer({ requireApiKey: KEY, script: fanOut(6, () => text('part looked at', { delayMs: 300 })) });
    const r = await run(['--max-parallel-agents', '2']);

    expect(r.out['conclusion']).toBe('success');
    expect(server.requests.filter(isSubagent)).toHaveLength(6);
    expect(mostInFlight(server)).toBe(2);
  });
});

describe('model streams that go quiet (dist/cli/index.js)', () => {
  it('gives up on a stream silent after message_start and retries it after the idle timeout', async () => {
    server = await startAnthropicServer({
      requireApiKey: KEY,
      script: [{ kind: 'silent', content: [{ type: 'text', text: 'never sent' }], afterEvents: 1 }, text('done after the retry')],
    });
    const r = await run(['--stream-idle-timeout', '1']);

    expect(r.out).toMatchObject({ conclusion: 'success', result: 'done after the retry', steps: 1 });
    expect(server.requests.map((q) => q.reply)).toEqual(['silent', 'message']);
    expect(r.stderr).toMatch(/model stream broke \(.*sent nothing for 1 s.*\); retrying/);
    expect(r.ms).toBeLessThan(15_000);
  });

  it('ends with error after --max-retries attempts of a stream that stays silent', async () => {
    server = await startAnthropicServer({
      requireApiKey: KEY,
      script: () => ({ kind: 'silent', content: [{ type: 'text', text: 'never sent' }], afterEvents: 2 }),
    });
    const r = await run(['--stream-idle-timeout', '1', '--max-retries', '2']);

    expect(r.out['conclusion']).toBe('error');
    expect(server.requests).toHaveLength(3);
    // Three silences of 1 s and two backoffs (at most 0.625 s and 1.25 s), plus the start-up.
    expect(r.ms).toBeLessThan(12_000);
  });

  it('waits for the headers no longer than the idle timeout either', async () => {
    server = await startAnthropicServer({ requireApiKey: KEY, script: [{ kind: 'hang' }, text('answered')] });
    const r = await run(['--stream-idle-timeout', '1']);

    expect(r.out).toMatchObject({ conclusion: 'success', result: 'answered' });
    expect(server.requests).toHaveLength(2);
    expect(r.ms).toBeLessThan(15_000);
  });

  it('prints an unparsable stream event only with its workflow commands escaped', async () => {
    const data = '::add-mask::x\n::stop-commands::tok123\n  ::warning::planted';
    server = await startAnthropicServer({
      requireApiKey: KEY,
      script: [{ kind: 'garbled', content: [{ type: 'text', text: 'partial' }], afterEvents: 3, data }, text('done')],
    });
    const r = await run([]);

    expect(r.out).toMatchObject({ conclusion: 'success', result: 'done' });
    const lines = r.stderr.split(/\r\n|\r|\n/);
    expect(lines.filter((l) => /^\s*::/.test(l))).toEqual([]);
    // The event's text is there, readable, as data.
    expect(r.stderr).toContain('\\::stop-commands::tok123');
    expect(r.stderr).toContain('::add-mask::x');
  });
});
