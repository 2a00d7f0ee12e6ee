import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { runLoop, type LoopConfig } from '../src/agent/loop.js';
import { TranscriptWriter } from '../src/agent/transcript.js';
import type { Model } from '../src/core/model.js';
import { AnthropicModel } from '../src/model/anthropic/index.js';
import { loopConfig } from '../test-support/harness.js';
import { Workspace } from '../src/tools/workspace.js';
import { startAnthropicServer, type Script, type SimUsage } from '../test-support/anthropic-server.js';
import { cleanEnv, median, peakMemory } from './stats.js';

const KEY = 'sk-ant-bench';
const CLI = resolve('dist/cli/index.js');

function benchConfig(workspace: Workspace, model: Model, overrides: Partial<LoopConfig> = {}): LoopConfig {
  return loopConfig(model, workspace, {
    system: 'bench',
    limits: { maxSteps: 1000, maxCostUsd: 1000, deadline: Infinity },
    maxTokens: 1024,
    streamRetries: 0,
    ...overrides,
  });
}

/** Times every model call, so the loop's own share can be told apart. */
function timed(model: Model): { model: Model; ms: () => number } {
  let total = 0;
  return {
    model: {
      id: model.id,
      async send(request) {
        const t = performance.now();
        try {
          return await model.send(request);
        } finally {
          total += performance.now() - t;
        }
      },
    },
    ms: () => total,
  };
}

const todo = {
  content: [{ type: 'tool_use' as const, name: 'TodoWrite', input: { todos: [{ content: 'bench', status: 'in_progress' }] } }],
};

export async function loopOverhead(dir: string): Promise<{ steps: number; perStep: number; ownPerStep: number }> {
  const STEPS = 50;
  const perStep: number[] = [];
  const own: number[] = [];
  const tdir = await mkdtemp(join(tmpdir(), 'agent-bench-transcript-'));
  for (let run = 0; run < 5; run++) {
    // Written as in every real run: each message and usage record appended as it happens.
    const transcript = new TranscriptWriter(join(tdir, `run${run}.jsonl`));
    let n = 0;
    const server = await startAnthropicServer({
      requireApiKey: KEY,
      script: () => (++n <= STEPS ? todo : { content: [{ type: 'text', text: 'done' }] }),
    });
    const t = timed(new AnthropicModel({ model: 'claude-sonnet-5-5', apiKey: KEY, baseURL: server.url, maxRetries: 0 }));
    let toolMs = 0;
    const started = performance.now();
    const result = await runLoop(
      benchConfig(await Workspace.open(dir), t.model, { transcript, events: { onToolEnd: (_c, _r, ms) => (toolMs += ms) } }),
      [{ role: 'user', content: 'go' }],
    );
    const total = performance.now() - started;
    await server.close();
    if (result.conclusion !== 'success') throw new Error(`bench run ended ${result.conclusion}: ${result.reason}`);
    perStep.push((total - toolMs) / result.steps);
    own.push((total - toolMs - t.ms()) / result.steps);
  }
  await rm(tdir, { recursive: true, force: true });
  return { steps: STEPS, perStep: median(perStep), ownPerStep: median(own) };
}

function runCli(args: string[], env: Record<string, string>): Promise<number | null> {
  return new Promise((done) => spawn(process.execPath, [CLI, ...args], { env, stdio: 'ignore' }).on('exit', (code) => done(code)));
}

export async function memoryPeak(dir: string): Promise<{ baselineMb: number; peakMb: number; steps: number; conclusion: string }> {
  let n = 0;
  const server = await startAnthropicServer({
    requireApiKey: KEY,
    script: () =>
      ++n <= 60
        ? { content: [{ type: 'tool_use', name: 'Bash', input: { command: "head -c 1000000 /dev/zero | tr '\\0' a" } }] }
        : { content: [{ type: 'text', text: 'done' }] },
  });
  try {
    const baseline = await peakMemory(['-e', 'setTimeout(() => {}, 200)'], cleanEnv());
    const run = await peakMemory(
      [CLI, '--cwd', dir, '--max-steps', '100', 'print a lot'],
      cleanEnv({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url }),
    );
    return {
      baselineMb: baseline.peakMb,
      peakMb: run.peakMb,
      steps: server.requests.length,
      conclusion: n > 60 ? 'completed' : 'stopped early',
    };
  } finally {
    await server.close();
  }
}

function prompt(u: SimUsage): number {
  return u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
}

export async function cachePerformance(
  dir: string,
): Promise<{ requests: number; readShare: number; minCarry: number; stablePrefix: boolean }> {
  let n = 0;
  const kinds = ['Read', 'Bash', 'Grep', 'Glob'];
  const script: Script = () => {
    n++;
    if (n > 19) return { content: [{ type: 'text', text: 'All done.' }] };
    const kind = kinds[n % kinds.length]!;
    const input =
      kind === 'Read'
        ? { file_path: 'README.md' }
        : kind === 'Bash'
          ? { command: `echo step ${n} && ls` }
          : kind === 'Grep'
            ? { pattern: 'bench' }
            : { pattern: '**/*.md' };
    return {
      content: [
        { type: 'text', text: `Step ${n}: checking with ${kind}.` },
        { type: 'tool_use', name: kind, input },
      ],
    };
  };
  const server = await startAnthropicServer({ requireApiKey: KEY, script });
  try {
    await runCli(['--cwd', dir, 'look around'], cleanEnv({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url }));
    const usages = server.requests.map((r) => r.usage!).filter(Boolean);
    const later = usages.slice(1);
    const read = later.reduce((a, u) => a + u.cache_read_input_tokens, 0);
    const all = later.reduce((a, u) => a + prompt(u), 0);
    const carries = later.map((u, i) => u.cache_read_input_tokens / prompt(usages[i]!));
    const prefixes = server.requests.map((r) => JSON.stringify([r.body.tools, r.body.system]));
    return { requests: usages.length, readShare: read / all, minCarry: Math.min(...carries), stablePrefix: new Set(prefixes).size === 1 };
  } finally {
    await server.close();
  }
}

export async function contextEconomy(dir: string): Promise<{
  steps: number;
  window: number;
  conclusion: string;
  maxPrompt: number;
  compactions: number;
  summaries: number;
  transcriptMessages: number;
}> {
  const STEPS = 200;
  const WINDOW = 200_000;
  let n = 0;
  const server = await startAnthropicServer({
    requireApiKey: KEY,
    contextWindow: WINDOW,
    script: (req) => {
      const last = JSON.stringify(req.body.messages.at(-1)?.content ?? '');
      if (last.includes('Write a summary of the work so far')) return { content: [{ type: 'text', text: 'Summary: printed many files.' }] };
      return ++n <= STEPS
        ? {
            content: [
              {
                type: 'tool_use',
                name: 'Bash',
                input: { command: `head -c 20000 /dev/urandom | base64 -w 100 | head -c 20000; echo ${n}` },
              },
            ],
          }
        : { content: [{ type: 'text', text: 'done' }] };
    },
  });
  const tdir = await mkdtemp(join(tmpdir(), 'agent-bench-transcript-'));
  try {
    const transcript = new TranscriptWriter(join(tdir, 'run.jsonl'));
    const model = new AnthropicModel({ model: 'claude-sonnet-5-5', apiKey: KEY, baseURL: server.url, maxRetries: 0 });
    const result = await runLoop(benchConfig(await Workspace.open(dir), model, { transcript }), [{ role: 'user', content: 'print files' }]);
    const records = (await readFile(transcript.path, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; event?: string });
    return {
      steps: STEPS,
      window: WINDOW,
      conclusion: `${result.conclusion} after ${result.steps} model calls${result.reason ? ` (${result.reason})` : ''}`,
      maxPrompt: Math.max(...server.requests.map((r) => (r.usage ? prompt(r.usage) : 0))),
      compactions: records.filter((r) => r.event === 'compaction').length,
      summaries: records.filter((r) => r.event === 'summary').length,
      transcriptMessages: records.filter((r) => r.type === 'user' || r.type === 'assistant').length,
    };
  } finally {
    await server.close();
    await rm(tdir, { recursive: true, force: true });
  }
}
