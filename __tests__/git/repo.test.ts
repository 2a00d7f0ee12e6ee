import { chmod, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BOT_IDENTITY, Repo } from '../../src/git/repo.js';
import { shallowCheckout, type ShallowCheckout } from '../../test-support/git-remote.js';

let fx: ShallowCheckout;
let repo: Repo;

const asker = { name: 'Octo Cat', email: 'octocat@users.noreply.github.com' };

describe('with a fresh checkout each', () => {
  beforeEach(async () => {
    fx = await shallowCheckout();
    repo = Repo.open(fx.work, { env: fx.env });
  });

  afterEach(async () => {
    await fx.cleanup();
  });

  describe('the checkout actions/checkout leaves', () => {
    it('is shallow, on main, with no identity', async () => {
      expect(fx.git(fx.work, ['rev-parse', '--is-shallow-repository']).trim()).toBe('true');
      expect(await repo.currentBranch()).toBe('main');
      await fx.write('x.txt', 'x\n');
      fx.git(fx.work, ['add', '-A']);
      expect(() => fx.git(fx.work, ['commit', '-m', 'x'])).toThrow(/identity|tell me who you are|user\.useConfigOnly/i);
    });
  });

  describe('checkoutPullHead', () => {
    it('fetches a branch the single-branch shallow clone never had and tracks it', async () => {
      await repo.checkoutPullHead('feature');
      expect(await repo.currentBranch()).toBe('feature');
      expect(await readFile(join(fx.work, 'feature.txt'), 'utf8')).toBe('feature work\n');
      expect(await repo.headSha()).toBe(fx.git(fx.bare, ['rev-parse', 'refs/heads/feature']).trim());
      expect(fx.git(fx.work, ['rev-parse', '--abbrev-ref', '@{upstream}']).trim()).toBe('origin/feature');
    });

    it('fetches one commit of the branch, and deepens the history only when asked about an older commit', async () => {
      // Three more commits on feature in the remote, through a clone of its own.
      const other = join(fx.root, 'other');
      fx.git(fx.root, ['clone', '--quiet', '--branch', 'feature', `file://${fx.bare}`, other]);
      const shas: string[] = [];
      for (const n of [1, 2, 3]) {
        await writeFile(join(other, 'feature.txt'), `step ${n}\n`);
        fx.git(other, ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', 'commit', '--quiet', '-am', `step ${n}`]);
        shas.push(fx.git(other, ['rev-parse', 'HEAD']).trim());
      }
      fx.git(other, ['push', '--quiet', 'origin', 'feature']);
      await repo.checkoutPullHead('feature');
      expect(fx.git(fx.work, ['rev-list', '--count', 'HEAD']).trim()).toBe('1');
      expect(await repo.reaches(shas[2]!)).toBe(true);
      expect(await repo.reaches(shas[0]!)).toBe(true);
      expect(Number(fx.git(fx.work, ['rev-list', '--count', 'HEAD']).trim())).toBeGreaterThan(3);
      expect(await repo.reaches('0123456789abcdef0123456789abcdef01234567')).toBe(false);
      expect(await repo.reaches('not a sha')).toBe(false);
    });

    it('checks out a fork pull request head by number, detached', async () => {
      const forkSha = fx.git(fx.bare, ['rev-parse', 'refs/heads/feature']).trim();
      fx.git(fx.bare, ['update-ref', 'refs/pull/7/head', forkSha]);
      await repo.checkoutPullRef(7);
      expect(await repo.headSha()).toBe(forkSha);
      expect(await repo.currentBranch()).toBe('');
      await expect(repo.checkoutPullRef(-1)).rejects.toThrow(/invalid pull request number/);
    });

    it('pushes follow-up commits back to the PR branch', async () => {
      await repo.checkoutPullHead('feature');
      await fx.write('feature.txt', 'more\n');
      const sha = await repo.commitAll('Follow up', { committer: BOT_IDENTITY });
      await repo.push('feature');
      expect(fx.git(fx.bare, ['rev-parse', 'refs/heads/feature']).trim()).toBe(sha);
    });
  });

  describe('commitAll', () => {
    it('commits as the bot without any configured identity and credits the asker', async () => {
      await fx.write('src/app.txt', 'changed\n');
      const sha = await repo.commitAll('Fix the thing', { committer: BOT_IDENTITY, coAuthors: [asker] });
      expect(sha).toMatch(/^[0-9a-f]{40}$/);
      const show = (format: string) => fx.git(fx.work, ['log', '-1', `--format=${format}`]).trim();
      expect(show('%an <%ae>')).toBe(`${BOT_IDENTITY.name} <${BOT_IDENTITY.email}>`);
      expect(show('%cn <%ce>')).toBe(`${BOT_IDENTITY.name} <${BOT_IDENTITY.email}>`);
      expect(show('%B')).toBe('Fix the thing\n\nCo-authored-by: Octo Cat <octocat@users.noreply.github.com>');
      expect(show('%(trailers:key=Co-authored-by,valueonly)')).toBe('Octo Cat <octocat@users.noreply.github.com>');
    });

    it('cannot be forged into extra trailers through a co-author name', async () => {
      await fx.write('a.txt', 'a\n');
      await repo.commitAll('x', { committer: BOT_IDENTITY, coAuthors: [{ name: 'Eve\nSigned-off-by: Boss <b@x>', email: 'e@x' }] });
      const trailers = fx.git(fx.work, ['log', '-1', '--format=%(trailers:only)']).trim();
      expect(trailers.split('\n')).toHaveLength(1);
    });

    it('runs no hooks', async () => {
      const hook = join(fx.work, '.git', 'hooks', 'pre-commit');
      await writeFile(hook, '#!/bin/sh\ntouch "$(dirname "$0")/../../hook-ran"\nexit 1\n');
      await chmod(hook, 0o755);
      await fx.write('a.txt', 'a\n');
      expect(await repo.commitAll('with hook', { committer: BOT_IDENTITY })).not.toBeNull();
      await expect(stat(join(fx.work, 'hook-ran'))).rejects.toThrow();
      // The hook is live: plain git runs it and fails.
      await fx.write('b.txt', 'b\n');
      fx.git(fx.work, ['add', '-A']);
      expect(() => fx.git(fx.work, ['-c', 'user.name=x', '-c', 'user.email=x@x', 'commit', '-m', 'plain'])).toThrow();
      expect((await stat(join(fx.work, 'hook-ran'))).isFile()).toBe(true);
    });

    it('takes a message that looks like an option as plain text', async () => {
      await fx.write('a.txt', 'a\n');
      await repo.commitAll('--upload-pack=touch /tmp/pwned', { committer: BOT_IDENTITY });
      expect(fx.git(fx.work, ['log', '-1', '--format=%s']).trim()).toBe('--upload-pack=touch /tmp/pwned');
    });

    it('returns null when nothing changed', async () => {
      expect(await repo.commitAll('nothing', { committer: BOT_IDENTITY })).toBeNull();
    });

    it('stages only the paths it is given, new, changed, deleted and named like a glob, and the diff shows the same', async () => {
      const tracked = fx.git(fx.work, ['ls-files']).trim().split('\n');
      await fx.write('new dir/*', 'star\n');
      await fx.write('b.txt', 'b\n');
      await fx.write('other.txt', 'not given\n');
      await rm(join(fx.work, tracked[0]!));
      const paths = ['new dir/*', 'b.txt', tracked[0]!];
      const { stat: diffStat } = await repo.diffAndStat({ paths });
      expect(diffStat).toContain('b.txt');
      expect(diffStat).not.toContain('other.txt');
      await repo.commitAll('given paths', { committer: BOT_IDENTITY, paths });
      const committed = fx.git(fx.work, ['show', '--name-status', '--format=', 'HEAD']).trim().split('\n').sort();
      expect(committed).toEqual([`A\tb.txt`, `A\tnew dir/*`, `D\t${tracked[0]}`].sort());
      expect(await repo.changedFiles()).toEqual(['other.txt']);
    });

    it('leaves excluded paths out of the commit but in the work tree', async () => {
      await fx.write('.github/workflows/x.yml', 'on: push\n');
      await fx.write('a.txt', 'a\n');
      expect(await repo.workflowChanges()).toEqual(['.github/workflows/x.yml']);
      await repo.commitAll('no workflows', { committer: BOT_IDENTITY, exclude: await repo.workflowChanges() });
      expect(fx.git(fx.work, ['show', '--name-only', '--format=', 'HEAD']).trim()).toBe('a.txt');
      expect(await repo.changedFiles()).toEqual(['.github/workflows/x.yml']);
    });
  });

  describe('push and branch names on the remote', () => {
    it('pushes a new branch that shows up in the bare remote', async () => {
      const branch = await repo.uniqueBranchName('agent/issue-1-fix');
      expect(branch).toBe('agent/issue-1-fix');
      await repo.createBranch(branch);
      await fx.write('new.txt', 'new\n');
      const sha = await repo.commitAll('Add new', { committer: BOT_IDENTITY });
      await repo.push(branch, { setUpstream: true });
      expect(fx.git(fx.bare, ['rev-parse', `refs/heads/${branch}`]).trim()).toBe(sha);
      expect(await repo.remoteBranchExists(branch)).toBe(true);
      expect(await repo.remoteBranchExists('agent/issue-1')).toBe(false);
    });

    it('suffixes a name the remote already has', async () => {
      expect(await repo.uniqueBranchName('feature')).toBe('feature-2');
      fx.git(fx.work, ['push', '--quiet', 'origin', 'HEAD:refs/heads/feature-2']);
      expect(await repo.uniqueBranchName('feature')).toBe('feature-3');
      expect(await repo.remoteBranchExists('feature')).toBe(true);
    });

    it('never force-pushes over diverged work', async () => {
      await fx.write('a.txt', 'a\n');
      await repo.commitAll('diverge', { committer: BOT_IDENTITY });
      await expect(repo.push('feature')).rejects.toThrow(/rejected|fetch first|non-fast-forward/i);
    });
  });
});
