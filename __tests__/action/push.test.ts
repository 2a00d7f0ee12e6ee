import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pushWork, TRANSIENT_DELAYS_MS } from '../../src/action/push.js';
import { BOT_IDENTITY, Repo } from '../../src/git/repo.js';
import { serveGitOverHttp } from '../../test-support/git-http.js';
import { injectPushFaults, shallowCheckout, type ShallowCheckout } from '../../test-support/git-remote.js';

let fx: ShallowCheckout;
beforeEach(async () => {
  fx = await shallowCheckout();
});
afterEach(() => fx.cleanup());

/** A second checkout of the same origin, as a second job would have. */
function secondWorkspace(): string {
  const dir = join(fx.root, 'work-b');
  fx.git(fx.root, ['clone', '--quiet', '--depth', '1', '--single-branch', '--branch', 'main', `file://${fx.bare}`, dir]);
  return dir;
}

async function commitOn(dir: string, branch: string, file: string, content: string): Promise<{ repo: Repo; sha: string }> {
  const repo = Repo.open(dir, { env: fx.env });
  await repo.createBranch(branch);
  await writeFile(join(dir, file), content);
  const sha = await repo.commitAll(`add ${file}`, { committer: BOT_IDENTITY });
  return { repo, sha: sha! };
}

const input = (repo: Repo, fresh: boolean, log: string[] = []) => ({
  repo,
  pushRepo: repo,
  fresh,
  redact: (t: string) => t,
  log: (m: string) => log.push(m),
  sleep: (ms: number) => {
    slept.push(ms);
    return Promise.resolve();
  },
});
let slept: number[] = [];
beforeEach(() => {
  slept = [];
});

describe('pushing after another run pushed first', () => {
  it('rebases onto the other run’s work on a shared branch', async () => {
    const a = await commitOn(fx.work, 'agent/shared', 'a.txt', 'A\n');
    const b = await commitOn(secondWorkspace(), 'agent/shared', 'b.txt', 'B\n');
    expect(await pushWork(input(a.repo, false), 'agent/shared', a.sha)).toEqual({ sha: a.sha, branch: 'agent/shared' });
    const log: string[] = [];
    const pushed = await pushWork(input(b.repo, false, log), 'agent/shared', b.sha);
    expect(pushed).toMatchObject({ branch: 'agent/shared', note: expect.stringContaining('rebased onto it') as unknown });
    expect(log[0]).toMatch(/push to agent\/shared failed: .*rejected/);
    expect(fx.git(fx.bare, ['ls-tree', '--name-only', 'agent/shared'])).toMatch(/a\.txt[\s\S]*b\.txt/);
    expect(fx.git(fx.bare, ['rev-list', '--count', 'agent/shared']).trim()).toBe(
      String(Number(fx.git(fx.bare, ['rev-list', '--count', 'main']).trim()) + 2),
    );
  });

  it('moves a new branch’s work to the next free name when another run took the name', async () => {
    const a = await commitOn(fx.work, 'agent/issue-5-fix', 'a.txt', 'A\n');
    const b = await commitOn(secondWorkspace(), 'agent/issue-5-fix', 'b.txt', 'B\n');
    await pushWork(input(a.repo, true), 'agent/issue-5-fix', a.sha);
    const pushed = await pushWork(input(b.repo, true), 'agent/issue-5-fix', b.sha);
    expect(pushed).toMatchObject({ sha: b.sha, branch: 'agent/issue-5-fix-2' });
    expect(fx.git(fx.bare, ['ls-tree', '--name-only', 'agent/issue-5-fix']).split('\n')).not.toContain('b.txt');
    expect(fx.git(fx.bare, ['ls-tree', '--name-only', 'agent/issue-5-fix-2']).split('\n')).toContain('b.txt');
  });

  it('reports a conflict, leaves the remote as the other run left it, and keeps this run’s commit', async () => {
    const a = await commitOn(fx.work, 'agent/shared', 'README.md', 'from A\n');
    const b = await commitOn(secondWorkspace(), 'agent/shared', 'README.md', 'from B\n');
    await pushWork(input(a.repo, false), 'agent/shared', a.sha);
    const pushed = await pushWork(input(b.repo, false), 'agent/shared', b.sha);
    expect(pushed).toEqual({
      failed: expect.stringMatching(/conflict in `README\.md`\. Nothing was pushed or forced/) as unknown,
      undelivered: "the push to agent/shared: another run's changes to it conflict in README.md",
    });
    expect(fx.git(fx.bare, ['rev-parse', 'agent/shared']).trim()).toBe(a.sha);
    expect(await b.repo.headSha()).toBe(b.sha);
    expect(await b.repo.changedFiles()).toEqual([]);
  });

  it('does not retry a push refused for another reason', async () => {
    const a = await commitOn(fx.work, 'agent/x', 'a.txt', 'A\n');
    fx.git(fx.work, ['remote', 'set-url', 'origin', join(fx.root, 'nowhere.git')]);
    const pushed = await pushWork(input(a.repo, false), 'agent/x', a.sha);
    expect(pushed).toEqual({
      failed: expect.stringContaining('The commit could not be pushed to `agent/x`') as unknown,
      undelivered: expect.stringMatching(/^the push to agent\/x: fatal: .*nowhere\.git/) as unknown,
    });
    expect(slept).toEqual([]);
  });
});

describe('pushing when the git server fails or pushes race (a faulty remote)', () => {
  const onRemote = (branch: string) => fx.git(fx.bare, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]).trim();

  it('pushes again after an Internal Server Error, and the commit is on the remote', async () => {
    await injectPushFaults(fx.bare, { internalErrors: 2 });
    const a = await commitOn(fx.work, 'agent/x', 'a.txt', 'A\n');
    const log: string[] = [];
    expect(await pushWork(input(a.repo, false, log), 'agent/x', a.sha)).toEqual({ sha: a.sha, branch: 'agent/x' });
    expect(onRemote('agent/x')).toBe(a.sha);
    expect(slept).toEqual(TRANSIENT_DELAYS_MS.slice(0, 2));
    expect(log[0]).toBe('push to agent/x failed: ! [remote rejected] HEAD -> agent/x (Internal Server Error)');
  });

  it('gives up after a few attempts when the server keeps failing, and says what git answered', async () => {
    await injectPushFaults(fx.bare, { internalErrors: 100 });
    const a = await commitOn(fx.work, 'agent/x', 'a.txt', 'A\n');
    const pushed = await pushWork(input(a.repo, false), 'agent/x', a.sha);
    expect(pushed).toEqual({
      failed: expect.stringContaining(
        `(! [remote rejected] HEAD -> agent/x (Internal Server Error), after ${TRANSIENT_DELAYS_MS.length + 1} attempts)`,
      ) as unknown,
      undelivered: 'the push to agent/x: ! [remote rejected] HEAD -> agent/x (Internal Server Error)',
    });
    expect(slept).toEqual(TRANSIENT_DELAYS_MS);
    expect(fx.git(fx.bare, ['for-each-ref', 'refs/heads/agent/'])).toBe('');
  });

  it('rebases and pushes again after losing a race for the ref on the server (failed to update ref)', async () => {
    await injectPushFaults(fx.bare, { race: 3 });
    fx.git(fx.work, ['switch', '--quiet', '-c', 'agent/shared']);
    fx.git(fx.work, ['push', '--quiet', 'origin', 'HEAD:refs/heads/agent/shared']);
    const runs = await Promise.all(
      ['a', 'b', 'c'].map(async (name) => {
        const dir = join(fx.root, `work-${name}`);
        fx.git(fx.root, ['clone', '--quiet', '--depth', '1', '--branch', 'agent/shared', `file://${fx.bare}`, dir]);
        const repo = Repo.open(dir, { env: fx.env });
        await writeFile(join(dir, `${name}.txt`), `${name}\n`);
        const sha = (await repo.commitAll(`add ${name}`, { committer: BOT_IDENTITY }))!;
        return { repo, sha, log: [] as string[] };
      }),
    );
    // The second and third pushes are held until all three arrived: together they pass the client's check, then race.
    const pushed = await Promise.all(runs.map((r) => pushWork(input(r.repo, false, r.log), 'agent/shared', r.sha)));
    const logs = runs.flatMap((r) => r.log).join('\n');
    expect(logs).toContain('(failed to update ref)');
    const tip = onRemote('agent/shared');
    for (const p of pushed) {
      expect(p).toMatchObject({ branch: 'agent/shared' });
      if ('sha' in p) expect(fx.git(fx.bare, ['merge-base', '--is-ancestor', p.sha, tip])).toBe('');
    }
    expect(fx.git(fx.bare, ['ls-tree', '--name-only', 'agent/shared']).split('\n')).toEqual(
      expect.arrayContaining(['a.txt', 'b.txt', 'c.txt']),
    );
  });
});

describe('pushing over HTTP when the git server answers 500', () => {
  it('pushes again after the 500, and the commit is on the remote', async () => {
    const server = await serveGitOverHttp(fx.bare, { failPushes: 1 });
    try {
      fx.git(fx.work, ['remote', 'set-url', 'origin', server.url]);
      const a = await commitOn(fx.work, 'agent/x', 'a.txt', 'A\n');
      const log: string[] = [];
      expect(await pushWork(input(a.repo, false, log), 'agent/x', a.sha)).toEqual({ sha: a.sha, branch: 'agent/x' });
      expect(log).toEqual([
        'push to agent/x failed: error: RPC failed; HTTP 500 curl 22 The requested URL returned error: 500',
        'pushing to agent/x again in 1 s',
      ]);
      expect(server.pushes).toBe(2);
      expect(fx.git(fx.bare, ['rev-parse', 'agent/x']).trim()).toBe(a.sha);
    } finally {
      await server.close();
    }
  });

  it('pushes again after the connection dropped', async () => {
    // Two: curl itself sends a POST again once when a reused connection drops.
    const server = await serveGitOverHttp(fx.bare, { dropPushes: 2 });
    try {
      fx.git(fx.work, ['remote', 'set-url', 'origin', server.url]);
      const a = await commitOn(fx.work, 'agent/x', 'a.txt', 'A\n');
      const log: string[] = [];
      expect(await pushWork(input(a.repo, false, log), 'agent/x', a.sha)).toEqual({ sha: a.sha, branch: 'agent/x' });
      expect(log[0]).toMatch(/^push to agent\/x failed: error: RPC failed; curl 52 Empty reply from server/);
      expect(server.pushes).toBe(3);
      expect(fx.git(fx.bare, ['rev-parse', 'agent/x']).trim()).toBe(a.sha);
    } finally {
      await server.close();
    }
  });
});
