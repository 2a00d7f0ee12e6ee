import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deliver, type DeliverOptions } from '../../src/action/deliver.js';
import { BOT_IDENTITY, Repo } from '../../src/git/repo.js';
import { createGitHub } from '../../src/github/client.js';
import { startGitHubSim, type GitHubSim } from '../../test-support/github-sim.js';
import { injectPushFaults, shallowCheckout, type ShallowCheckout } from '../../test-support/git-remote.js';

let fx: ShallowCheckout;
let sim: GitHubSim;
beforeEach(async () => {
  fx = await shallowCheckout();
  sim = await startGitHubSim({ owner: 'o', repo: 'r', token: 'ghs_test', permissions: {} });
});
afterEach(async () => {
  await sim.close();
  await fx.cleanup();
});

/** The pull request's branch `feature` checked out, one file changed by the run. */
async function options(content: string): Promise<DeliverOptions> {
  const repo = Repo.open(fx.work, { env: fx.env });
  await repo.checkoutPullHead('feature');
  await writeFile(join(fx.work, 'feature.txt'), content);
  return {
    repo,
    pushRepo: repo,
    gh: createGitHub({ token: 'ghs_test', baseUrl: sim.url, retryBaseMs: 1 }),
    owner: 'o',
    name: 'r',
    serverUrl: 'https://github.com',
    plan: { kind: 'pull', branch: 'feature', pullNumber: 3 },
    task: 'change the feature',
    requester: null,
    requestUrl: 'https://github.com/o/r/pull/3#issuecomment-1',
    pullRequest: 'auto',
    summary: '',
    branchPrefix: 'agent/',
    allowWorkflowChanges: false,
    redact: (t) => t,
    log: () => undefined,
  };
}

const tip = () => fx.git(fx.bare, ['rev-parse', 'feature']).trim();

describe('a delivery whose push fails', () => {
  it('names no commit and says what did not arrive when the server keeps failing', async () => {
    await injectPushFaults(fx.bare, { internalErrors: 100 });
    const before = tip();
    const delivery = await deliver(await options('changed\n'));
    expect(delivery).toMatchObject({
      pushed: false,
      undelivered: ['the push to feature: ! [remote rejected] HEAD -> feature (Internal Server Error)'],
    });
    expect(delivery.commit).toBeUndefined();
    expect(delivery.diff).toContain('+changed');
    expect(tip()).toBe(before);
  });

  it('names no commit and says what did not arrive when another run’s changes conflict', async () => {
    const o = await options('ours\n');
    // Another run pushed a change of the same line meanwhile.
    const other = join(fx.root, 'other');
    fx.git(fx.root, ['clone', '--quiet', '--branch', 'feature', `file://${fx.bare}`, other]);
    await writeFile(join(other, 'feature.txt'), 'theirs\n');
    const theirs = Repo.open(other, { env: fx.env });
    await theirs.commitAll('theirs', { committer: BOT_IDENTITY });
    await theirs.push('feature');
    const delivery = await deliver(o);
    expect(delivery).toMatchObject({
      pushed: false,
      undelivered: ["the push to feature: another run's changes to it conflict in feature.txt"],
    });
    expect(delivery.commit).toBeUndefined();
    expect(tip()).toBe(await theirs.headSha());
  });
});
