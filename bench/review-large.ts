/**
 * A review at GitHub's limits: a 3,000-file pull request (about 11 MB of patches) against a
 * 3-file one, the two interleaved in one process. Figures: spawn to the first model request, the
 * first request's size, the pages of files listed and whether the review was posted.
 */
import { commentPayload } from '../test-support/action-payloads.js';
import { makeWorld, OWNER, REPO, type World } from '../test-support/action-world.js';
import type { SimPullFile } from '../test-support/github-sim.js';
import { median } from './stats.js';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 5);
const LINES = 100;
const pathOf = (i: number) => `pkg/m${i % 30}/f${i}.js`;
const lineOf = (i: number, n: number) => `export const v${i}_${n} = ${n}; // generated`;

function pullFiles(count: number): SimPullFile[] {
  return Array.from({ length: count }, (_, i) => ({
    filename: pathOf(i),
    status: 'added',
    additions: LINES,
    deletions: 0,
    patch: `@@ -0,0 +1,${LINES} @@\n` + Array.from({ length: LINES }, (_, n) => `+${lineOf(i, n)}`).join('\n'),
  }));
}

async function reviewWorld(count: number): Promise<World> {
  const branch = Object.fromEntries(
    Array.from({ length: count }, (_, i) => [pathOf(i), Array.from({ length: LINES }, (_, n) => lineOf(i, n) + '\n').join('')]),
  );
  const w = await makeWorld({
    main: { 'README.md': '# bench\n' },
    branches: { feature: branch },
    script: () => ({ content: [{ type: 'text', text: 'Checked it: nothing to flag.' }] }),
    sim: { permissions: { alice: 'write' } },
  });
  const headSha = w.remoteGit(['rev-parse', 'feature']).trim();
  w.remoteGit(['update-ref', 'refs/pull/7/head', headSha]);
  const pull = { headRef: 'feature', headSha, headRepoFullName: `${OWNER}/${REPO}`, baseRef: 'main', files: pullFiles(count) };
  w.sim.issues.set(7, { number: 7, title: 'Generated', body: 'Generated modules.', user: { login: 'alice' }, comments: [], pull });
  return w;
}

interface Sample {
  firstMs: number;
  firstBytes: number;
  filePages: number;
  posted: boolean;
}

async function once(w: World, i: number): Promise<Sample> {
  const requests = w.model.requests.length;
  const simRequests = w.sim.requests.length;
  const reviews = w.sim.issues.get(7)!.pull!.reviews?.length ?? 0;
  const payload = commentPayload({ number: 7, body: '/agent review', by: { login: 'alice' }, onPull: true, commentId: 900 + i });
  w.remoteGit(['update-ref', '-d', 'refs/agent-action/threads/7']);
  const run = await w.run({ event: 'issue_comment', payload, runId: String(2000 + i) });
  const request = w.model.requests[requests];
  if (!request) throw new Error(`no model request: ${run.stderr}`);
  const pages = w.sim.requests.slice(simRequests).filter((q) => q.path.endsWith('/pulls/7/files')).length;
  return {
    firstMs: request.receivedAt - run.spawnedAt,
    firstBytes: Buffer.byteLength(JSON.stringify(request.body)),
    filePages: pages,
    posted: (w.sim.issues.get(7)!.pull!.reviews?.length ?? 0) > reviews,
  };
}

async function main(): Promise<void> {
  const small = await reviewWorld(3);
  const large = await reviewWorld(3000);
  const s: Sample[] = [];
  const l: Sample[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      s.push(await once(small, i));
      l.push(await once(large, i));
    }
  } finally {
    await Promise.all([small.close(), large.close()]);
  }
  const ms = (xs: Sample[]) => median(xs.map((x) => x.firstMs));
  const ratio = ms(l) / ms(s);
  console.log(`review start-up (spawn to first request), median of ${RUNS}:`);
  console.log(`  3 files:     ${ms(s).toFixed(0)} ms, first request ${(s[0]!.firstBytes / 1000).toFixed(1)} KB`);
  console.log(
    `  3,000 files: ${ms(l).toFixed(0)} ms, first request ${(l[0]!.firstBytes / 1000).toFixed(1)} KB, ${l[0]!.filePages} pages of files`,
  );
  console.log(`  ratio ${ratio.toFixed(2)}x (goal <= 3x); reviews posted ${l.filter((x) => x.posted).length}/${RUNS}`);
}

await main();
