/**
 * A long thread: 600 comments (about 1 MB) against 3, the two interleaved in one process.
 * Figures: the first request's size and estimated tokens, and spawn to the first request.
 */
import { commentPayload } from '../test-support/action-payloads.js';
import { makeWorld, type World } from '../test-support/action-world.js';
import { estimateTokens } from '../src/prompt/thread.js';
import { median } from './stats.js';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 5);
const bodyOf = (i: number) => `comment-${i}: ${'the build fails again on the nightly runner with the same trace; '.repeat(26)}`;
const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();

async function threadWorld(count: number): Promise<World> {
  const w = await makeWorld({
    main: { 'README.md': '# bench\n' },
    script: () => ({ content: [{ type: 'text', text: 'ok' }] }),
    sim: { permissions: { alice: 'write' } },
  });
  const comments = Array.from({ length: count }, (_, i) => ({
    id: 10_000 + i,
    body: bodyOf(i),
    user: { login: 'bob' },
    created_at: at(i),
    updated_at: at(i),
  }));
  w.sim.issues.set(12, { number: 12, title: 'Nightly fails', body: 'It fails.', user: { login: 'bob' }, comments });
  return w;
}

async function once(w: World, i: number): Promise<{ ms: number; bytes: number; tokens: number }> {
  const before = w.model.requests.length;
  const payload = commentPayload({
    number: 12,
    body: '/agent why does it fail?',
    by: { login: 'alice' },
    onPull: false,
    commentId: 900 + i,
  });
  w.remoteGit(['update-ref', '-d', 'refs/agent-action/threads/12']);
  const run = await w.run({ event: 'issue_comment', payload, runId: String(3000 + i) });
  const request = w.model.requests[before];
  if (!request) throw new Error(`no model request: ${run.stderr}`);
  const text = JSON.stringify(request.body);
  return { ms: request.receivedAt - run.spawnedAt, bytes: Buffer.byteLength(text), tokens: estimateTokens(text) };
}

async function main(): Promise<void> {
  const short = await threadWorld(3);
  const long = await threadWorld(600);
  const s: Awaited<ReturnType<typeof once>>[] = [];
  const l: typeof s = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      s.push(await once(short, i));
      l.push(await once(long, i));
    }
  } finally {
    await Promise.all([short.close(), long.close()]);
  }
  const ms = (xs: typeof s) => median(xs.map((x) => x.ms));
  console.log(`thread context, median of ${RUNS}:`);
  console.log(
    `  3 comments:   first request ${(s[0]!.bytes / 1000).toFixed(1)} KB (~${s[0]!.tokens} tokens), start-up ${ms(s).toFixed(0)} ms`,
  );
  console.log(
    `  600 comments: first request ${(l[0]!.bytes / 1000).toFixed(1)} KB (~${l[0]!.tokens} tokens), start-up ${ms(l).toFixed(0)} ms`,
  );
  console.log(`  start-up ratio ${(ms(l) / ms(s)).toFixed(2)}x; goal: first request <= 200 KB`);
}

await main();
