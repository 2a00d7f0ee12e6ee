// `npm run bench:compare`: one scripted 20-step session through agent-action's CLI and, when
// PEER_CLI names another agent CLI on this machine (e.g. Claude Code's `claude`, installed by
// whoever runs the bench, never committed), through that CLI against the same scripted server.
// Prints both side by side with ratios, tokens per request and each session's cost at the built-in
// prices. PEER_ARGS overrides the peer's arguments.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { startAnthropicServer, type RecordedRequest, type ScriptedReply } from '../test-support/anthropic-server.js';
import { costOf, promptTokens, type Usage } from '../src/core/usage.js';
import { priceFor } from '../src/model/anthropic/prices.js';
import { cleanEnv, median } from './stats.js';

const KEY = 'sk-ant-compare';
const STEPS = 20;
/** Both CLIs are asked for this model, so the built-in prices cost them alike. */
const MODEL = 'claude-sonnet-5-5';

interface Figures {
  name: string;
  startupMs: number;
  perStepMs: number;
  bytesPerRequest: number;
  /** Per session request: the whole prompt, and its uncached, cache-read and cache-write parts. */
  tokensPerRequest: number;
  inputPerRequest: number;
  cacheReadPerRequest: number;
  cacheWritePerRequest: number;
  cacheReadShare: number;
  outputTokens: number;
  /** Every request of the session, side requests included, at the built-in price of its model. */
  costUsd: number;
  models: string;
  peakMb: number;
  requests: number;
}

/** The session: the same tool calls whoever asks; side requests (no tools offered) get a short text. */
function reply(req: RecordedRequest): ScriptedReply {
  const tools = req.body.tools ?? [];
  if (tools.length === 0) return { content: [{ type: 'text', text: 'ok' }] };
  const turns = req.body.messages.filter((m) => Array.isArray(m.content) && m.content.some((b) => b.type === 'tool_result')).length;
  if (turns >= STEPS - 1) return { content: [{ type: 'text', text: 'Looked around; all done.' }] };
  const calls = [
    { name: 'Read', input: { file_path: join(process.env['COMPARE_DIR'] ?? '.', 'README.md') } },
    { name: 'Bash', input: { command: `echo step ${turns}`, description: 'echo' } },
    { name: 'Grep', input: { pattern: 'compare' } },
    { name: 'Glob', input: { pattern: '**/*.md' } },
  ];
  const call = calls[turns % calls.length]!;
  return {
    content: [
      { type: 'text', text: `Step ${turns + 1}.` },
      { type: 'tool_use', name: call.name, input: call.input },
    ],
  };
}

function run(
  argv: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<{ startedAt: number; peakKb: number; code: number | null }> {
  return new Promise((done, fail) => {
    const startedAt = performance.now();
    const [cmd, ...args] = argv;
    const child = spawn(cmd!, args, { env, cwd, stdio: 'ignore' });
    let peakKb = 0;
    const timer = setInterval(() => {
      try {
        // The CLI may be a wrapper: the biggest process of its tree is what it costs.
        const pids = [
          String(child.pid),
          ...execFileSync('pgrep', ['-P', String(child.pid)], { encoding: 'utf8' })
            .split('\n')
            .filter(Boolean),
        ];
        for (const pid of pids) {
          const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
          if (m) peakKb = Math.max(peakKb, Number(m[1]));
        }
      } catch {
        // Between samples the process or its children may be gone.
      }
    }, 20);
    child.on('error', fail);
    child.on('exit', (code) => {
      clearInterval(timer);
      done({ startedAt, peakKb, code });
    });
  });
}

async function measure(name: string, argv: (dir: string) => string[], dir: string, extraEnv: Record<string, string>): Promise<Figures> {
  const server = await startAnthropicServer({ script: reply });
  try {
    process.env['COMPARE_DIR'] = dir;
    const r = await run(argv(dir), cleanEnv({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url, ...extraEnv }), dir);
    const main = server.requests.filter((q) => (q.body.tools ?? []).length > 0 && q.usage);
    if (main.length === 0) {
      throw new Error(
        `${name} made no session request (exit ${r.code}); check PEER_ARGS. Server saw: ${server.requests.map((q) => `${q.reply} ${q.validationError ?? ''}`).join('; ')} ${server.validationErrors.join('; ')}`,
      );
    }
    const billed = server.requests.filter((q) => q.usage);
    const usage = (q: RecordedRequest): Usage => q.usage!;
    const sum = (qs: RecordedRequest[], get: (u: Usage) => number) => qs.reduce((a, q) => a + get(usage(q)), 0);
    const intervals = main.slice(1).map((q, i) => q.receivedAt - main[i]!.receivedAt);
    const later = main.slice(1);
    return {
      name,
      startupMs: server.requests[0]!.receivedAt - r.startedAt,
      perStepMs: median(intervals),
      bytesPerRequest: main.reduce((a, q) => a + q.bytes, 0) / main.length,
      tokensPerRequest: sum(main, promptTokens) / main.length,
      inputPerRequest: sum(main, (u) => u.input_tokens) / main.length,
      cacheReadPerRequest: sum(main, (u) => u.cache_read_input_tokens) / main.length,
      cacheWritePerRequest: sum(main, (u) => u.cache_creation_input_tokens) / main.length,
      cacheReadShare: sum(later, (u) => u.cache_read_input_tokens) / sum(later, promptTokens),
      outputTokens: sum(billed, (u) => u.output_tokens),
      costUsd: billed.reduce((a, q) => a + costOf(usage(q), priceFor(q.body.model)), 0),
      models: [...new Set(billed.map((q) => q.body.model))].join(', '),
      peakMb: r.peakKb / 1024,
      requests: server.requests.length,
    };
  } finally {
    await server.close();
  }
}

/** Each figure: its label, how a value reads, and the number a ratio is taken of (none: no ratio). */
const FIGURES: [string, (f: Figures) => string, ((f: Figures) => number)?][] = [
  ['start-up to first request', (f) => `${f.startupMs.toFixed(0)} ms`, (f) => f.startupMs],
  ['median time between session requests', (f) => `${f.perStepMs.toFixed(1)} ms`, (f) => f.perStepMs],
  ['bytes sent per session request', (f) => `${(f.bytesPerRequest / 1024).toFixed(1)} KB`, (f) => f.bytesPerRequest],
  ['prompt tokens per session request', (f) => f.tokensPerRequest.toFixed(0), (f) => f.tokensPerRequest],
  ['  of which uncached input', (f) => f.inputPerRequest.toFixed(0), (f) => f.inputPerRequest],
  ['  of which read from cache', (f) => f.cacheReadPerRequest.toFixed(0), (f) => f.cacheReadPerRequest],
  ['  of which written to cache', (f) => f.cacheWritePerRequest.toFixed(0), (f) => f.cacheWritePerRequest],
  ['cache-read share (requests 2..n)', (f) => `${(f.cacheReadShare * 100).toFixed(1)}%`],
  ['output tokens in all', (f) => String(f.outputTokens), (f) => f.outputTokens],
  ['cost of the session (built-in prices)', (f) => `$${f.costUsd.toFixed(4)}`, (f) => f.costUsd],
  ['model priced', (f) => f.models],
  ['peak memory', (f) => `${f.peakMb.toFixed(0)} MB`, (f) => f.peakMb],
  ['model requests in all', (f) => String(f.requests), (f) => f.requests],
];

/** agent-action and the peer side by side; the peer's column says "not run" without PEER_CLI. */
function print(ours: Figures, peer: Figures | undefined): void {
  const cell = (text: string) => text.padStart(18);
  console.log(['figure'.padEnd(40), cell('agent-action'), cell('peer'), '    ratio'].join(''));
  for (const [label, show, value] of FIGURES) {
    const ratio = peer && value && value(ours) > 0 ? `${(value(peer) / value(ours)).toFixed(2)}x` : '';
    console.log([label.padEnd(40), cell(show(ours)), cell(peer ? show(peer) : 'not run'), ratio.padStart(9)].join(''));
  }
}

const dir = await mkdtemp(join(tmpdir(), 'agent-compare-'));
await writeFile(join(dir, 'README.md'), '# compare\nA small repository for the comparison.\n');
execFileSync('git', ['init', '-q'], { cwd: dir });
try {
  const ours = await measure(
    'agent-action',
    (d) => [
      process.execPath,
      resolve('dist/cli/index.js'),
      '--cwd',
      d,
      '--model',
      MODEL,
      '--max-steps',
      '30',
      'Look around the repository.',
    ],
    dir,
    {},
  );
  const peerCli = process.env['PEER_CLI'];
  let peer: Figures | undefined;
  if (peerCli) {
    const args = process.env['PEER_ARGS']?.split(' ') ?? [
      '-p',
      'Look around the repository.',
      '--model',
      MODEL,
      '--output-format',
      'json',
      '--allowedTools',
      'Read,Bash,Grep,Glob',
      '--max-turns',
      '30',
    ];
    peer = await measure('peer', () => [peerCli, ...args], dir, {
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    });
  } else {
    console.log('PEER_CLI is not set: the peer is not run (set PEER_CLI=/path/to/claude to compare).');
  }
  print(ours, peer);
} finally {
  await rm(dir, { recursive: true, force: true });
}
