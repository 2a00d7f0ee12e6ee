import { readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Repo } from '../../src/git/repo.js';
import { shallowCheckout, type ShallowCheckout } from '../../test-support/git-remote.js';

describe('changes and diffs', () => {
  let fx: ShallowCheckout;
  let repo: Repo;
  beforeEach(async () => {
    fx = await shallowCheckout();
    repo = Repo.open(fx.work, { env: fx.env });
  });

  afterEach(async () => {
    await fx.cleanup();
  });

  it('leaves excluded paths out of the diff and its stat, tracked or not, and the real index alone', async () => {
    await fx.write('gha-creds-1.json', '{"private_key_id":"k1"}\n');
    await fx.write('a.txt', 'a\n');
    const { diff, stat } = await repo.diffAndStat({ exclude: ['gha-creds-1.json'] });
    expect(diff).toContain('a.txt');
    expect(diff + stat).not.toContain('gha-creds');
    expect(await repo.diff({ exclude: ['gha-creds-1.json'] })).not.toContain('private_key_id');
    expect(await repo.diff()).toContain('private_key_id');
    expect(fx.git(fx.work, ['diff', '--cached', '--name-only']).trim()).toBe('');
  });

  it('lists tracked and untracked changes, not ignored ones, sorted', async () => {
    await fx.write('src/app.txt', 'edited\n');
    await fx.write('b-new.txt', 'b\n');
    await fx.write('ignored/skip.txt', 'skip\n');
    expect(await repo.changedFiles()).toEqual(['b-new.txt', 'src/app.txt']);
  });

  it('includes untracked files in the diff and leaves the index untouched', async () => {
    await fx.write('src/app.txt', 'one\nTWO\nthree\n');
    await fx.write('brand-new.txt', 'fresh\n');
    // status refreshes the index's stat cache, so it runs before the snapshot.
    const statusBefore = fx.git(fx.work, ['status', '--porcelain']);
    const indexBefore = await readFile(join(fx.work, '.git', 'index'));
    const diff = await repo.diff();
    expect(diff).toContain('diff --git a/brand-new.txt b/brand-new.txt');
    expect(diff).toContain('+fresh');
    expect(diff).toContain('-two\n+TWO');
    const both = await repo.diffAndStat();
    expect(both.diff).toBe(diff);
    expect(both.stat).toMatch(/2 files changed/);
    expect(await readFile(join(fx.work, '.git', 'index'))).toEqual(indexBefore);
    expect(fx.git(fx.work, ['status', '--porcelain'])).toBe(statusBefore);
    expect(statusBefore).toContain('?? brand-new.txt');
  });

  it('cuts a long diff at a line with a note', async () => {
    await fx.write('big.txt', 'line\n'.repeat(1000));
    const diff = await repo.diff({ maxChars: 500 });
    expect(diff.length).toBeLessThan(600);
    expect(diff).toMatch(/\[… diff cut: \d+ of \d+ characters not shown\]\n$/);
  });

  it('lists workflow changes', async () => {
    await fx.write('.github/workflows/x.yml', 'on: push\n');
    await fx.write('.github/dependabot.yml', 'version: 2\n');
    expect(await repo.workflowChanges()).toEqual(['.github/workflows/x.yml']);
  });
});

describe('the diff of the work tree', () => {
  it('shows a same-size edit made in the same second as the checkout (the staged copy of the index keeps its time)', async () => {
    const fx = await shallowCheckout();
    try {
      // Only whole seconds and sizes compared, as where the change time is not trusted (and on a fast runner).
      fx.git(fx.work, ['config', 'core.checkStat', 'minimal']);
      const file = join(fx.work, 'src', 'app.txt');
      // The index records the file at a whole second; the edit keeps its size and that time, and the
      // index is no newer: only a racy-clean check of the content can tell the file changed.
      const second = Math.floor(Date.now() / 1000) - 5;
      await utimes(file, second, second);
      fx.git(fx.work, ['update-index', '--refresh']);
      await writeFile(file, 'one\nTWO\nthree\n');
      await utimes(file, second, second);
      await utimes(join(fx.work, '.git', 'index'), second, second);
      const repo = Repo.open(fx.work, { env: fx.env });
      expect(await repo.diff()).toContain('+TWO');
      expect(await repo.changedFiles()).toEqual(['src/app.txt']);
    } finally {
      await fx.cleanup();
    }
  });
});
