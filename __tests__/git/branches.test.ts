import { Repo } from '../../src/git/repo.js';
import { shallowCheckout, type ShallowCheckout } from '../../test-support/git-remote.js';

describe('branch names', () => {
  // Read-only checks share one checkout to keep the suite fast.
  let shared: ShallowCheckout;
  let names: Repo;
  beforeAll(async () => {
    shared = await shallowCheckout();
    names = Repo.open(shared.work, { env: shared.env });
  });
  afterAll(() => shared.cleanup());

  it.each(['$(id)', '--upload-pack=x', 'a..b', '-x', '@{-1}', 'HEAD', 'a b', 'x.lock', '`id`', ''])('rejects %j', async (name) => {
    expect(await names.isValidBranchName(name)).toBe(false);
  });

  it.each(['feature', 'agent/issue-12-fix-the-test', 'release/1.2', 'ünïcode'])('accepts %j', async (name) => {
    expect(await names.isValidBranchName(name)).toBe(true);
  });

  it('refuses to create, fetch or push an invalid name', async () => {
    await expect(names.createBranch('$(id)')).rejects.toThrow(/invalid branch name/);
    await expect(names.checkoutPullHead('--upload-pack=touch /tmp/x')).rejects.toThrow(/invalid branch name/);
    await expect(names.push('a..b')).rejects.toThrow(/invalid branch name/);
  });
});
