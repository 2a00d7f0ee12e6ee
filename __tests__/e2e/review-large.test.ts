import { jest } from '@jest/globals';
import { commentPayload } from '../../test-support/action-payloads.js';
import { makeWorld, OWNER, REPO, type World } from '../../test-support/action-world.js';
import type { ScriptedReply } from '../../test-support/anthropic-server.js';
import type { SimPullFile } from '../../test-support/github-sim.js';

jest.setTimeout(120_000);

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const tool = (name: string, input: unknown): ScriptedReply => ({ content: [{ type: 'tool_use', name, input }] });
const text = (t: string): ScriptedReply => ({ content: [{ type: 'text', text: t }] });
const alice = { login: 'alice', id: 501 };

/** GitHub's cap on the files a pull request lists; about 3.7 KB of patch each, 11 MB in all, as measured. */
const FILES = 3000;
const LINES = 100;
const pathOf = (i: number) => `pkg/m${i % 30}/f${i}.js`;
const lineOf = (i: number, n: number) => `export const v${i}_${n} = ${n}; // generated`;
const contentOf = (i: number) => Array.from({ length: LINES }, (_, n) => lineOf(i, n) + '\n').join('');

function pullFiles(): SimPullFile[] {
  return Array.from({ length: FILES }, (_, i) => ({
    filename: pathOf(i),
    status: 'added',
    additions: LINES,
    deletions: 0,
    patch: `@@ -0,0 +1,${LINES} @@\n` + Array.from({ length: LINES }, (_, n) => `+${lineOf(i, n)}`).join('\n'),
  }));
}

async function largeReviewWorld(script: ScriptedReply[]): Promise<World> {
  const branch = Object.fromEntries(Array.from({ length: FILES }, (_, i) => [pathOf(i), contentOf(i)]));
  const w = await makeWorld({
    main: { 'README.md': '# big\n' },
    branches: { feature: branch },
    script,
    sim: { permissions: { alice: 'write' } },
  });
  const headSha = w.remoteGit(['rev-parse', 'feature']).trim();
  w.remoteGit(['update-ref', 'refs/pull/7/head', headSha]);
  const pull = { headRef: 'feature', headSha, headRepoFullName: `${OWNER}/${REPO}`, baseRef: 'main', files: pullFiles() };
  w.sim.issues.set(7, { number: 7, title: 'Generate modules', body: 'Adds 3,000 modules.', user: { login: 'alice' }, comments: [], pull });
  return w;
}

describe('review of a pull request at GitHub limits (dist/index.js)', () => {
  it('3,000 files: the review is posted on a file past the prompt list, without the diff media type, in a first request under 200 KB', async () => {
    const late = pathOf(2500);
    const w = await largeReviewWorld([
      tool('Read', { file_path: late }),
      tool('ReviewComment', { file_path: late, line: 3, body: 'v2500_2 is never used' }),
      text('Checked the generated modules; one unused export.'),
    ]);
    world = w;
    const r = await w.run({
      event: 'issue_comment',
      payload: commentPayload({ number: 7, body: '/agent review', by: alice, onPull: true }),
    });
    expect(r.outputs['conclusion']).toBe('success');

    const first = JSON.stringify(w.model.requests[0]!.body);
    expect(Buffer.byteLength(first)).toBeLessThanOrEqual(200_000);
    expect(first).toContain(pathOf(0));
    expect(first).toMatch(/2900 more changed files not listed here \(3000 in all\)/);
    expect(first).toContain('pkg/m10/ (');
    expect(first).toMatch(/diff cut: \d+ more characters/);

    const review = w.sim.issues.get(7)!.pull!.reviews ?? [];
    expect(review).toHaveLength(1);
    expect(review[0]!.body).toContain('one unused export');
    expect(w.sim.issues.get(7)!.pull!.reviewComments).toMatchObject([{ path: late, line: 3 }]);

    // The files were listed once (30 pages of 100), and nothing asked for the diff the simulator refuses.
    const filePages = w.sim.requests.filter((q) => q.method === 'GET' && q.path.endsWith('/pulls/7/files'));
    expect(filePages).toHaveLength(30);
    expect(new Set(filePages.map((q) => q.query['page'] ?? '1')).size).toBe(30);
    expect(w.sim.requests.filter((q) => q.status === 406)).toEqual([]);
  });
});
