import { jest } from '@jest/globals';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pushSigned, TREE_CHUNK_ENTRIES, type SignedPushInput } from '../../src/action/signed-push.js';
import { BOT_IDENTITY, Repo } from '../../src/git/repo.js';
import { createGitHub } from '../../src/github/client.js';
import { startGitHubSim, type GitHubSim } from '../../test-support/github-sim.js';
import { shallowCheckout, type ShallowCheckout } from '../../test-support/git-remote.js';

jest.setTimeout(120_000);

const TOKEN = 'ghs_signedPushTOKEN0123456789abcdefghij';
let co: ShallowCheckout;
let sim: GitHubSim;

beforeEach(async () => {
  co = await shallowCheckout();
  sim = await startGitHubSim({ owner: 'o', repo: 'r', token: TOKEN, permissions: {}, gitRemote: co.bare });
});
afterEach(async () => {
  await sim.close();
  await co.cleanup();
});

function input(o: Partial<SignedPushInput> = {}): SignedPushInput {
  const repo = Repo.open(co.work, { env: { HOME: co.env['HOME']! } });
  return {
    repo,
    pushRepo: repo,
    gh: createGitHub({ token: TOKEN, baseUrl: sim.url, retryBaseMs: 1 }),
    owner: 'o',
    name: 'r',
    fresh: false,
    redact: (t) => t,
    log: () => undefined,
    sleep: () => Promise.resolve(),
    ...o,
  };
}

async function commit(repo: Repo): Promise<string> {
  const sha = await repo.commitAll('Many files', { committer: BOT_IDENTITY });
  if (!sha) throw new Error('nothing committed');
  return sha;
}

describe('pushSigned against the simulator and a real bare remote', () => {
  it('5,000 new files and a few binary ones: trees chained in a few requests, blobs only for the binary files', async () => {
    const files = 5000;
    for (let i = 0; i < files; i++) {
      const dir = join(co.work, 'gen', String(i % 50));
      if (i < 50) await mkdir(dir, { recursive: true });
      await writeFile(join(dir, `f${i}.txt`), `file ${i}\n`);
    }
    for (let i = 0; i < 3; i++) await writeFile(join(co.work, `bin${i}.dat`), Buffer.from([0, 1, 2, 255, i]));
    await writeFile(join(co.work, 'big.txt'), 'x'.repeat(300 * 1024));
    await writeFile(join(co.work, 'run.sh'), '#!/bin/sh\n');
    await chmod(join(co.work, 'run.sh'), 0o755);
    const o = input();
    const local = await commit(o.repo);
    const started = performance.now();
    const pushed = await pushSigned(o, 'main', local);
    const ms = performance.now() - started;
    expect(pushed).toMatchObject({ branch: 'main' });
    const sha = 'sha' in pushed ? pushed.sha : '';
    const trees = sim.requests.filter((q) => q.path.endsWith('/git/trees'));
    const blobs = sim.requests.filter((q) => q.path.endsWith('/git/blobs'));
    expect(trees).toHaveLength(Math.ceil((files + 5) / TREE_CHUNK_ENTRIES));
    // Three binary files and one text file too big to go inline.
    expect(blobs).toHaveLength(4);
    expect(sim.schemaErrors).toEqual([]);
    expect(co.git(co.bare, ['rev-parse', 'main']).trim()).toBe(sha);
    // GitHub's tree is the workspace's commit's tree, entry for entry.
    expect(co.git(co.bare, ['rev-parse', `${sha}^{tree}`]).trim()).toBe(co.git(co.work, ['rev-parse', `${local}^{tree}`]).trim());
    expect(co.git(co.work, ['rev-parse', 'HEAD']).trim()).toBe(sha);
    expect(co.git(co.work, ['status', '--porcelain']).trim()).toBe('');
    console.log(
      `signed push of ${files + 5} files: ${trees.length} tree requests, ${blobs.length} blobs, ${sim.requests.length} requests, ${Math.round(ms)} ms`,
    );
  });

  it('a new branch whose name another run took meanwhile goes to the next free name', async () => {
    await writeFile(join(co.work, 'a.txt'), 'mine\n');
    const o = input({ fresh: true });
    await o.repo.createBranch('agent/run-1');
    const taken = sim.moveBranch({ branch: 'agent/run-1', files: { 'theirs.txt': 'theirs\n' } });
    const pushed = await pushSigned(o, 'agent/run-1', await commit(o.repo));
    expect(pushed).toMatchObject({ branch: 'agent/run-1-2' });
    expect('note' in pushed && pushed.note).toMatch(/Another run created `agent\/run-1` meanwhile/);
    expect(co.git(co.bare, ['rev-parse', 'agent/run-1']).trim()).toBe(taken.pushed[0]);
    expect(co.git(co.bare, ['show', 'agent/run-1-2:a.txt'])).toBe('mine\n');
    expect(co.git(co.work, ['symbolic-ref', '--short', 'HEAD']).trim()).toBe('agent/run-1-2');
    expect(co.git(co.work, ['branch', '--list', 'agent/run-1']).trim()).toBe('');
  });

  it('a 5xx after the new ref was made: read back, not made twice', async () => {
    await writeFile(join(co.work, 'a.txt'), 'mine\n');
    const o = input({ fresh: true });
    await o.repo.createBranch('agent/run-2');
    sim.fail({ method: 'POST', path: /\/git\/refs$/, status: 500, afterEffect: true });
    const pushed = await pushSigned(o, 'agent/run-2', await commit(o.repo));
    expect(pushed).toMatchObject({ branch: 'agent/run-2' });
    expect(sim.requests.filter((q) => /\/git\/refs?(\/|$)/.test(q.path)).map((q) => `${q.method} ${q.status}`)).toEqual([
      'POST 500',
      'GET 200',
    ]);
    expect(sim.gitData.commits).toHaveLength(1);
  });

  it('a 5xx before the ref update: sent again after a pause, then made', async () => {
    await writeFile(join(co.work, 'a.txt'), 'mine\n');
    const o = input();
    sim.fail({ method: 'PATCH', path: /\/git\/refs\//, status: 503 });
    const pushed = await pushSigned(o, 'main', await commit(o.repo));
    expect('sha' in pushed && pushed.sha).toBe(co.git(co.bare, ['rev-parse', 'main']).trim());
    expect(sim.requests.filter((q) => /\/git\/refs?\//.test(q.path)).map((q) => `${q.method} ${q.status}`)).toEqual([
      'PATCH 503',
      'GET 200',
      'PATCH 200',
    ]);
  });

  it('a branch that moves twice: rebuilt once, then reported, never forced', async () => {
    await writeFile(join(co.work, 'a.txt'), 'mine\n');
    const o = input();
    const before = co.git(co.bare, ['rev-parse', 'main']).trim();
    const other = sim.moveBranch({ branch: 'main', files: { 'b.txt': 'theirs\n' }, times: 2 });
    const pushed = await pushSigned(o, 'main', await commit(o.repo));
    expect(pushed).toMatchObject({ undelivered: expect.stringMatching(/Update is not a fast forward/) });
    expect(other.pushed).toHaveLength(2);
    expect(co.git(co.bare, ['rev-parse', 'main~2']).trim()).toBe(before);
    expect(co.git(co.bare, ['rev-parse', 'main']).trim()).toBe(other.pushed[1]);
    expect(sim.gitData.refUpdates).toEqual([]);
  });
});
