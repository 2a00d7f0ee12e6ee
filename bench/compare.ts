// `npm run bench:compare`: one scripted 20-step session through agent-action's CLI and, when
// PEER_CLI names another agent CLI on this machine (e.g. Claude Code's `claude`, installed by
// whoever runs the bench, never committed), through that CLI against the same scripted server.
// Prints both side by side with ratios. PEER_ARGS overrides the peer's arguments.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { startAnthropicServer, type RecordedRequest, type ScriptedReply } from '../test-support/anthropic-server.js';
import { cleanEnv, median } from './stats.js';

const KEY = 'sk-ant-compare';
const STEPS = 20;

interface Figures {
  name: string;
  startupMs: number;
  perStepMs: number;
  bytesPerRequest: number;
  tokensPerRequest: number;
  cacheReadShare: number;
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
    const prompt = (q: RecordedRequest) => q.usage!.input_tokens + q.usage!.cache_read_input_tokens + q.usage!.cache_creation_input_tokens;
    const intervals = main.slice(1).map((q, i) => q.receivedAt - main[i]!.receivedAt);
    const later = main.slice(1);
    return {
      name,
      startupMs: server.requests[0]!.receivedAt - r.startedAt,
      perStepMs: median(intervals),
      bytesPerRequest: main.reduce((a, q) => a + q.bytes, 0) / main.length,
      tokensPerRequest: main.reduce((a, q) => a + prompt(q), 0) / main.length,
      cacheReadShare: later.reduce((a, q) => a + q.usage!.cache_read_input_tokens, 0) / later.reduce((a, q) => a + prompt(q), 0),
      peakMb: r.peakKb / 1024,
      requests: server.requests.length,
    };
  } finally {
    await server.close();
  }
}

function print(rows: Figures[]): void {
  const cols: [string, (f: Figures) => string][] = [
    ['start-up to first request', (f) => `${f.startupMs.toFixed(0)} ms`],
    ['median time between session requests', (f) => `${f.perStepMs.toFixed(1)} ms`],
    ['bytes sent per session request', (f) => `${(f.bytesPerRequest / 1024).toFixed(1)} KB`],
    ['prompt tokens per session request', (f) => f.tokensPerRequest.toFixed(0)],
    ['cache-read share (requests 2..n)', (f) => `${(f.cacheReadShare * 100).toFixed(1)}%`],
    ['peak memory', (f) => `${f.peakMb.toFixed(0)} MB`],
    ['model requests in all', (f) => String(f.requests)],
  ];
  console.log(['figure'.padEnd(40), ...rows.map((r) => r.name.padStart(16)), rows.length > 1 ? '    ratio' : ''].join(''));
  const raw: ((f: Figures) => number)[] = [
    (f) => f.startupMs,
    (f) => f.perStepMs,
    (f) => f.bytesPerRequest,
    (f) => f.tokensPerRequest,
    (f) => f.cacheReadShare,
    (f) => f.peakMb,
    (f) => f.requests,
  ];
  cols.forEach(([label, get], i) => {
    const ratio = rows.length > 1 ? `${(raw[i]!(rows[1]!) / raw[i]!(rows[0]!)).toFixed(2)}x` : '';
    console.log([label.padEnd(40), ...rows.map((r) => get(r).padStart(16)), ratio.padStart(9)].join(''));
  });
}

const dir = await mkdtemp(join(tmpdir(), 'agent-compare-'));
await writeFile(join(dir, 'README.md'), '# compare\nA small repository for the comparison.\n');
execFileSync('git', ['init', '-q'], { cwd: dir });
try {
  const ours = await measure(
    'agent-action',
    (d) => [process.execPath, resolve('dist/cli/index.js'), '--cwd', d, '--max-steps', '30', 'Look around the repository.'],
    dir,
    {},
  );
  const rows = [ours];
  const peer = process.env['PEER_CLI'];
  if (peer) {
    const args = process.env['PEER_ARGS']?.split(' ') ?? [
      '-p',
      'Look around the repository.',
      '--output-format',
      'json',
      '--allowedTools',
      'Read,Bash,Grep,Glob',
      '--max-turns',
      '30',
    ];
    rows.push(
      await measure('peer', () => [peer, ...args], dir, {
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      }),
    );
  } else {
    console.log('PEER_CLI is not set: agent-action alone (set PEER_CLI=/path/to/claude to compare).');
  }
  print(rows);
} finally {
  await rm(dir, { recursive: true, force: true });
}
