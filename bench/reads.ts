/**
 * Many Reads in one answer: the CLI answering a model that asks for 50 Reads at once, against one
 * that asks for one, the two interleaved. The gap is from the last byte of the answer holding the
 * tool calls to the next request (the tools, their progress lines and the next request's
 * building); the floor is reading the same 50 files in-process (open, read, close each).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startAnthropicServer } from '../test-support/anthropic-server.js';
import type { Pace } from '../test-support/anthropic-server/types.js';
import { cleanEnv, median } from './stats.js';

const KEY = 'sk-ant-bench';
/** The CLI as built by tsc into .tmp/bench (the current source); BENCH_CLI=dist/cli/index.js for the bundle. */
const CLI = resolve(process.env['BENCH_CLI'] ?? '.tmp/bench/src/cli/index.js');
const RUNS = Number(process.env['BENCH_RUNS'] ?? 7);
const MANY = 50;
/**
 * A model's answer as it streams, each tool_use block's input at this rate (a Read's is about 8
 * tokens): Reads started early then run while the rest of the answer arrives, as with the real API.
 */
const PACE: Pace = { firstTokenMs: 0, tokensPerSecond: Number(process.env['BENCH_TOKENS_PER_SECOND'] ?? 200) };
/** Lines in each file read: 200 by default, about 12 KB (BENCH_READ_LINES). */
const LINES = Number(process.env['BENCH_READ_LINES'] ?? 200);
const body = (i: number) =>
  Array.from({ length: LINES }, (_, n) => `export const value_${i}_${n} = ${n}; // line ${n} of module ${i}`).join('\n') + '\n';
const fileOf = (i: number) => `src/mod${i}.ts`;

/** A no-op tool's call: what the loop costs per call whatever the tool does. */
const todo = { todos: [{ content: 'read them', status: 'in_progress', activeForm: 'Reading them' }] };

/** The SDK-only agent of reads-floor.ts, built beside this file. */
const FLOOR = resolve(dirname(fileURLToPath(import.meta.url)), 'reads-floor.js');

interface GapOptions {
  /** TodoWrite calls instead of Reads. */
  noop?: boolean;
  pace?: Pace;
  /** The bare SDK's agent instead of the CLI. */
  sdk?: boolean;
}

async function gap(dir: string, reads: number, o: GapOptions = {}): Promise<number> {
  const { noop = false, pace } = o;
  const calls = Array.from({ length: reads }, (_, i) =>
    noop
      ? { type: 'tool_use' as const, name: 'TodoWrite', input: todo }
      : { type: 'tool_use' as const, name: 'Read', input: { file_path: fileOf(i) } },
  );
  const server = await startAnthropicServer({
    requireApiKey: KEY,
    ...(pace ? { pace } : {}),
    // A first Read loads the tools, so the gap measured (the second answer's) is the tools' work alone.
    script: (_req, index) =>
      index === 0
        ? { content: [{ type: 'tool_use', name: 'Read', input: { file_path: 'README.md' } }] }
        : index === 1
          ? { content: calls }
          : { content: [{ type: 'text', text: 'done' }] },
  });
  try {
    const code = await new Promise<number | null>((done, fail) => {
      const argv = o.sdk ? [FLOOR, dir, 'read them'] : [CLI, '--cwd', dir, '--max-steps', '4', 'read them'];
      const child = spawn(process.execPath, argv, {
        env: cleanEnv({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url, NODE_DISABLE_COMPILE_CACHE: '1' }),
        // Progress goes to a pipe, as in a terminal or a runner's log.
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      child.stderr.resume();
      child.on('error', fail);
      child.on('exit', done);
    });
    const [, asked, next] = server.requests;
    if (code !== 0 || !asked?.answeredAt || !next)
      throw new Error(`the ${o.sdk ? 'SDK floor' : 'CLI'} exited ${code} after ${server.requests.length} requests`);
    return next.receivedAt - asked.answeredAt;
  } finally {
    await server.close();
  }
}

function floor(dir: string): number {
  const t = performance.now();
  for (let i = 0; i < MANY; i++) readFileSync(join(dir, fileOf(i)));
  return performance.now() - t;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-bench-reads-'));
  try {
    await mkdir(join(dir, 'src'));
    await writeFile(join(dir, 'README.md'), '# bench\n');
    await Promise.all(Array.from({ length: MANY }, (_, i) => writeFile(join(dir, fileOf(i)), body(i))));
    const one: number[] = [];
    const many: number[] = [];
    const floors: number[] = [];
    const noops: number[] = [];
    const pacedOne: number[] = [];
    const pacedMany: number[] = [];
    const sdkOne: number[] = [];
    const sdkMany: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      one.push(await gap(dir, 1));
      many.push(await gap(dir, MANY));
      noops.push(await gap(dir, MANY, { noop: true }));
      floors.push(floor(dir));
      pacedOne.push(await gap(dir, 1, { pace: PACE }));
      sdkOne.push(await gap(dir, 1, { sdk: true }));
      sdkMany.push(await gap(dir, MANY, { sdk: true }));
      pacedMany.push(await gap(dir, MANY, { pace: PACE }));
    }
    const [o, m, f, n] = [median(one), median(many), median(floors), median(noops)];
    const [po, pm] = [median(pacedOne), median(pacedMany)];
    const [so, sm] = [median(sdkOne), median(sdkMany)];
    console.log(
      `Reads in one answer, the gap from the answer to the next request, median of ${RUNS}, files of ${LINES} lines (node ${process.version}):`,
    );
    console.log(`  1 Read:   ${o.toFixed(1)} ms`);
    console.log(`  ${MANY} Reads: ${m.toFixed(1)} ms, ${(m / o).toFixed(2)}x one (goal <= 3x)`);
    console.log(`  ${MANY} calls of a no-op tool (TodoWrite), the loop's own share: ${n.toFixed(1)} ms, ${(n / o).toFixed(2)}x one Read`);
    console.log(`  floor: ${MANY} files read in-process, ${f.toFixed(1)} ms`);
    console.log(
      `  floor: the bare SDK's agent (MessageStream, whole files, nothing checked): 1 Read ${so.toFixed(1)} ms, ${MANY} Reads ${sm.toFixed(1)} ms, ${(sm / so).toFixed(2)}x one; the CLI's ${MANY} Reads ${(m / sm).toFixed(2)}x it`,
    );
    console.log(
      `  the answer streamed at ${PACE.tokensPerSecond} tokens/s: 1 Read ${po.toFixed(1)} ms, ${MANY} Reads ${pm.toFixed(1)} ms, ${(pm / po).toFixed(2)}x one`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
