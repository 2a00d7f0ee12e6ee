import { jest } from '@jest/globals';
import type { Sandbox } from '../../src/sandbox/index.js';
import { commentPayload } from '../../test-support/action-payloads.js';
import { makeWorld, OWNER, REPO, type World } from '../../test-support/action-world.js';

jest.setTimeout(60_000);

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** A sandbox that only records whether it was taken down. */
function recordingSandbox(): { sandbox: Sandbox; disposed: () => number } {
  let disposed = 0;
  const sandbox: Sandbox = {
    kind: 'none',
    description: 'test sandbox',
    wrap: (argv) => argv,
    processesLimited: false,
    dispose: async () => {
      disposed++;
    },
  };
  return { sandbox, disposed: () => disposed };
}

describe('a job whose checkout fails', () => {
  it('fails with the checkout error and disposes the prepared sandbox', async () => {
    world = await makeWorld({ main: { 'README.md': 'calc\n' }, script: [], sim: { permissions: { alice: 'write' } } });
    // The pull request names a head branch the remote does not have: the plan's checkout throws.
    world.sim.issues.set(9, {
      number: 9,
      title: 'Gone',
      body: '',
      user: { login: 'bob' },
      comments: [],
      pull: {
        headRef: 'deleted-branch',
        headSha: '0'.repeat(40),
        headRepoFullName: `${OWNER}/${REPO}`,
        baseRef: 'main',
        files: [],
        diff: '',
      },
    });
    const { sandbox, disposed } = recordingSandbox();
    const payload = commentPayload({ number: 9, body: '/agent fix it', by: { login: 'alice', id: 501 }, onPull: true });
    const run = await world.runInProcess({ event: 'issue_comment', payload }, { prepareSandbox: async () => sandbox });
    // The first request does not wait for the checkout; the run ends with the checkout's failure all the same.
    expect(run.error).toBeInstanceOf(Error);
    expect(String(run.error)).toMatch(/deleted-branch/);
    expect(disposed()).toBe(1);
    const tracking = world.sim.issues.get(9)!.comments.find((c) => c.body.includes('<!-- agent-action -->'));
    expect(tracking?.body).toMatch(/error/i);
  });
});
