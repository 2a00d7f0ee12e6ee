// Prints agent-action's start-up time and per-step loop overhead beside `node -e 0`, all
// measured in this process with the same clean environment. Figures, not a test: nothing fails.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runLoop } from '../src/agent/loop.js';
import { AnthropicModel } from '../src/model/anthropic.js';
import { toolEnvironment } from '../src/tools/env.js';
import { selectTools } from '../src/tools/index.js';
import { specsFor } from '../src/tools/spec.js';
import { Workspace } from '../src/tools/workspace.js';
import { startAnthropicServer } from '../test-support/anthropic-server.js';
import { cleanEnv, fmt, median, timeProcess } from './stats.js';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 10);
const STEPS = 50;
const KEY = 'sk-ant-bench';
const CLI = resolve('dist/cli/index.js');

async function baseline(): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await timeProcess(['-e', '0'], cleanEnv()));
  return median(times);
}

/** Spawn of dist/cli/index.js to the moment its first request reaches the model server. */
async function startup(dir: string): Promise<number> {
  const server = await startAnthropicServer({ requireApiKey: KEY, script: () => ({ content: [{ type: 'text', text: 'ok' }] }) });
  const times: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const before = server.requests.length;
      const started = performance.now();
      await new Promise<void>((done, fail) => {
        const child = spawn(process.execPath, [CLI, '--cwd', dir, 'say ok'], { env: cleanEnv({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url }), stdio: 'ignore' });
        child.on('error', fail);
        child.on('exit', () => done());
      });
      const request = server.requests[before];
      if (!request) throw new Error('the CLI made no model request');
      times.push(request.receivedAt - started);
    }
  } finally {
    await server.close();
  }
  return median(times);
}

/** In-process: a 50-step run of trivial Bash calls against an instant model; tool time taken out. */
async function loopOverhead(dir: string): Promise<{ perStep: number; perStepWithTool: number }> {
  const perStep: number[] = [];
  const withTool: number[] = [];
  for (let run = 0; run < Math.max(3, Math.floor(RUNS / 3)); run++) {
    let n = 0;
    const server = await startAnthropicServer({
      requireApiKey: KEY,
      script: () => (++n <= STEPS ? { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'true' } }] } : { content: [{ type: 'text', text: 'done' }] }),
    });
    let toolMs = 0;
    const started = performance.now();
    const result = await runLoop(
      {
        model: new AnthropicModel({ model: 'claude-sonnet-5-5', apiKey: KEY, baseURL: server.url, maxRetries: 0 }),
        toolSpecs: specsFor(['Read', 'Write', 'Edit', 'Bash', 'Glob', 'Grep', 'TodoWrite']),
        tools: selectTools(['Read', 'Write', 'Edit', 'Bash', 'Glob', 'Grep', 'TodoWrite']),
        system: 'bench',
        workspace: await Workspace.open(dir),
        toolEnv: toolEnvironment(process.env),
        limits: { maxSteps: STEPS + 5, maxCostUsd: 100, deadline: Infinity },
        signal: new AbortController().signal,
        maxTokens: 1024,
        outputLimit: 30000,
        streamRetries: 0,
        compactAtTokens: 150000,
        events: { onToolEnd: (_c, _r, ms) => (toolMs += ms) },
      },
      [{ role: 'user', content: 'go' }],
    );
    const total = performance.now() - started;
    await server.close();
    if (result.conclusion !== 'success') throw new Error(`bench run ended ${result.conclusion}: ${result.reason}`);
    perStep.push((total - toolMs) / result.steps);
    withTool.push(total / result.steps);
  }
  return { perStep: median(perStep), perStepWithTool: median(withTool) };
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-bench-'));
  await writeFile(join(dir, 'README.md'), 'bench\n');
  try {
    const node = await baseline();
    const start = await startup(dir);
    const loop = await loopOverhead(dir);
    const rows: [string, string, string][] = [
      ['node -e 0 (baseline)', fmt(node), '1.00x'],
      ['dist/cli/index.js to first model request', fmt(start), `${(start / node).toFixed(2)}x`],
      [`loop overhead per step (${STEPS} steps, instant model, tool time excluded)`, fmt(loop.perStep), `${(loop.perStep / node).toFixed(2)}x`],
      ['per step including the Bash process', fmt(loop.perStepWithTool), `${(loop.perStepWithTool / node).toFixed(2)}x`],
    ];
    console.log(`agent-action bench: medians of ${RUNS} runs, node ${process.version}, clean environment`);
    for (const [name, value, ratio] of rows) console.log(`${name.padEnd(78)} ${value.padStart(10)}  ${ratio.padStart(7)} node -e 0`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
