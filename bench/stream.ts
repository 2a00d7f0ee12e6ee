// Streaming tool execution: one turn of a model streaming at a realistic pace (first token after
// 500 ms, then 60 tokens/s) whose answer makes three Grep/Read calls and then writes on, against a
// generated git tree. The same turn runs with the calls started as their blocks end, and with the
// adapter's block reports hidden, so the calls start after the whole answer as on a provider
// that does not report them.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoop } from '../src/agent/loop.js';
import type { Model, ModelRequest } from '../src/core/model.js';
import { AnthropicModel } from '../src/model/anthropic/index.js';
import { Workspace } from '../src/tools/workspace.js';
import { startAnthropicServer, type ScriptedBlock } from '../test-support/anthropic-server.js';
import { loopConfig } from '../test-support/harness.js';
import { fmt, median, row } from './stats.js';

const KEY = 'sk-ant-bench';
const PACE = { firstTokenMs: 500, tokensPerSecond: 60 };
const FILES = Number(process.env['BENCH_STREAM_FILES'] ?? 20_000);
const PER_DIR = 200;

const text = (t: string): ScriptedBlock => ({ type: 'text', text: t });
const use = (name: string, input: unknown): ScriptedBlock => ({ type: 'tool_use', name, input });

/** The turn: a sentence, three calls, then the model writes on for about a second. */
const TURN: ScriptedBlock[] = [
  text('I will find where the values are defined and read the first module.'),
  use('Grep', { pattern: 'needle_\\d+', output_mode: 'files_with_matches' }),
  use('Read', { file_path: 'big.js' }),
  use('Grep', { pattern: 'value1\\d{3} =', output_mode: 'count' }),
  text(
    'While those run, the plan: the needles mark the modules that export a special value, so the search ' +
      'tells me which packages matter; the count shows how widely the values are used, and the big file ' +
      'is where they are collected. Then I will change the collector and run its tests.',
  ),
];

/** FILES one-line modules in directories of PER_DIR, every 997th holding a needle, and one 2 MB file; committed. */
async function makeTree(root: string): Promise<void> {
  for (let first = 0; first < FILES; first += PER_DIR) {
    const dir = join(root, `pkg${(first / PER_DIR) % 20}`, `mod${first / PER_DIR}`);
    await mkdir(dir, { recursive: true });
    const count = Math.min(PER_DIR, FILES - first);
    await Promise.all(
      Array.from({ length: count }, (_, f) => {
        const i = first + f;
        return writeFile(
          join(dir, `file${f}.js`),
          i % 997 === 0 ? `export const needle_${i} = ${i};\n` : `export const value${i} = ${i};\n`,
        );
      }),
    );
  }
  await writeFile(join(root, 'big.js'), Array.from({ length: 40_000 }, (_, i) => `collect(value${i}); // ${'x'.repeat(30)}`).join('\n'));
  const env = { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@x', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@x' };
  for (const args of [
    ['init', '-q'],
    ['add', '-A'],
    ['commit', '-qm', 'tree'],
  ])
    execFileSync('git', args, { cwd: root, env });
}

export interface TurnTimes {
  /** From the request to the whole answer. */
  stream: number;
  /** The three calls' own time, summed. */
  tools: number;
  /** From the request to the next request, the results ready. */
  wall: number;
}

/** One turn; `early` false hides the adapter's block reports from the loop. */
async function oneTurn(root: string, early: boolean): Promise<TurnTimes> {
  const server = await startAnthropicServer({
    requireApiKey: KEY,
    pace: PACE,
    script: (_req, i) => ({ content: i === 0 ? TURN : [text('Done.')] }),
  });
  const inner = new AnthropicModel({ model: 'claude-sonnet-5-5', apiKey: KEY, baseURL: server.url, maxRetries: 0 });
  const sends: { start: number; end: number }[] = [];
  const model: Model = {
    id: inner.id,
    async send(request) {
      const times = { start: performance.now(), end: 0 };
      sends.push(times);
      const { onToolUse: _hidden, ...unreported } = request;
      const shown: ModelRequest = early ? request : unreported;
      try {
        return await inner.send(shown);
      } finally {
        times.end = performance.now();
      }
    },
  };
  let tools = 0;
  const events = { onToolEnd: (_c: unknown, _o: unknown, ms: number) => (tools += ms) };
  try {
    const config = loopConfig(model, await Workspace.open(root), { events, streamRetries: 0 });
    const result = await runLoop(config, [{ role: 'user', content: 'find the values' }]);
    if (result.conclusion !== 'success' || sends.length !== 2) throw new Error(`bench turn ended ${result.conclusion}: ${result.reason}`);
  } finally {
    await server.close();
  }
  const [first, next] = sends as [{ start: number; end: number }, { start: number; end: number }];
  return { stream: first.end - first.start, tools, wall: next.start - first.start };
}

/** Medians of `runs` turns each way, taken in turn so that a noisy moment hits both alike. */
export async function streamingCalls(runs: number): Promise<{ files: number; early: TurnTimes; after: TurnTimes }> {
  const root = await mkdtemp(join(tmpdir(), 'agent-bench-stream-'));
  try {
    await makeTree(root);
    await oneTurn(root, true); // warm the file cache and the modules
    const early: TurnTimes[] = [];
    const after: TurnTimes[] = [];
    for (let i = 0; i < runs; i++) {
      early.push(await oneTurn(root, true));
      after.push(await oneTurn(root, false));
    }
    const med = (all: TurnTimes[]): TurnTimes => ({
      stream: median(all.map((t) => t.stream)),
      tools: median(all.map((t) => t.tools)),
      wall: median(all.map((t) => t.wall)),
    });
    return { files: FILES, early: med(early), after: med(after) };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** Prints the turn's figures: the stream, the tools, and the turn's wall time both ways. */
export async function streamBench(runs: number): Promise<void> {
  const { files, early, after } = await streamingCalls(runs);
  const ratio = (ms: number) => `${(ms / early.stream).toFixed(2)}x stream`;
  console.log(`\n# streaming tool execution: one turn at 500 ms to first token, 60 tokens/s; 3 Grep/Read calls, then text`);
  console.log(row(`stream: request to whole answer (medians of ${runs}, git tree of ${files} files)`, fmt(early.stream), '1.00x'));
  console.log(row("tools' own time, the three calls summed", fmt(early.tools)));
  console.log(row('turn wall time, calls started as their blocks end', fmt(early.wall), ratio(early.wall)));
  console.log(row('turn wall time, calls started after the answer (measured)', fmt(after.wall), ratio(after.wall)));
  console.log(
    row(
      "without streaming execution: stream + tools' own time (the sum)",
      fmt(early.stream + early.tools),
      ratio(early.stream + early.tools),
    ),
  );
}
