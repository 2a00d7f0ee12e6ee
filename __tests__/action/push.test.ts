import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pushOnce } from '../../src/action/push.js';
import { BOT_IDENTITY, Repo } from '../../src/git/repo.js';
import { shallowCheckout, type ShallowCheckout } from '../../test-support/git-remote.js';

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
});

describe('pushing after another run pushed first', () => {
  it('rebases onto the other run’s work on a shared branch', async () => {
    const a = await commitOn(fx.work, 'agent/shared', 'a.txt', 'A\n');
    const b = await commitOn(secondWorkspace(), 'agent/shared', 'b.txt', 'B\n');
    expect(await pushOnce(input(a.repo, false), 'agent/shared', a.sha)).toEqual({ sha: a.sha, branch: 'agent/shared' });
    const log: string[] = [];
    const pushed = await pushOnce(input(b.repo, false, log), 'agent/shared', b.sha);
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
    await pushOnce(input(a.repo, true), 'agent/issue-5-fix', a.sha);
    const pushed = await pushOnce(input(b.repo, true), 'agent/issue-5-fix', b.sha);
    expect(pushed).toMatchObject({ sha: b.sha, branch: 'agent/issue-5-fix-2' });
    expect(fx.git(fx.bare, ['ls-tree', '--name-only', 'agent/issue-5-fix']).split('\n')).not.toContain('b.txt');
    expect(fx.git(fx.bare, ['ls-tree', '--name-only', 'agent/issue-5-fix-2']).split('\n')).toContain('b.txt');
  });

  it('reports a conflict, leaves the remote as the other run left it, and keeps this run’s commit', async () => {
    const a = await commitOn(fx.work, 'agent/shared', 'README.md', 'from A\n');
    const b = await commitOn(secondWorkspace(), 'agent/shared', 'README.md', 'from B\n');
    await pushOnce(input(a.repo, false), 'agent/shared', a.sha);
    const pushed = await pushOnce(input(b.repo, false), 'agent/shared', b.sha);
    expect(pushed).toEqual({ failed: expect.stringMatching(/conflict in `README\.md`\. Nothing was pushed or forced/) as unknown });
    expect(fx.git(fx.bare, ['rev-parse', 'agent/shared']).trim()).toBe(a.sha);
    expect(await b.repo.headSha()).toBe(b.sha);
    expect(await b.repo.changedFiles()).toEqual([]);
  });

  it('does not retry a push refused for another reason', async () => {
    const a = await commitOn(fx.work, 'agent/x', 'a.txt', 'A\n');
    fx.git(fx.work, ['remote', 'set-url', 'origin', join(fx.root, 'nowhere.git')]);
    const pushed = await pushOnce(input(a.repo, false), 'agent/x', a.sha);
    expect(pushed).toEqual({ failed: expect.stringContaining('The commit could not be pushed to `agent/x`') as unknown });
  });
});
