import { createGitHub } from '../../src/github/client.js';
import { TrackingComment } from '../../src/github/comments.js';
import { ACTIONS_BOT, WriterIdentity } from '../../src/github/identity.js';
import { startGitHubSim, type GitHubSim } from '../../test-support/github-sim.js';

const RUN = '<!-- agent-action:run 12 -->';
let sim: GitHubSim;
afterEach(async () => {
  await sim.close();
});

const edits = () => sim.requests.filter((q) => q.method === 'PATCH');

describe('the tracking comment', () => {
  it('waits its interval after creating the comment before the first progress edit, and a short run makes none', async () => {
    sim = await startGitHubSim({ owner: 'o', repo: 'r', token: 'ghs_x', permissions: {} });
    sim.issues.set(4, { number: 4, title: 't', body: 'b', user: { login: 'bob' }, comments: [] });
    const deps = {
      gh: createGitHub({ token: 'ghs_x', baseUrl: sim.url, retryBaseMs: 1 }),
      identity: WriterIdentity.known(ACTIONS_BOT),
      owner: 'o',
      repo: 'r',
      redact: (t: string) => t,
    };
    const place = { kind: 'issue' as const, number: 4 };
    const comment = await TrackingComment.start(deps, place, RUN, `Reading ${RUN}`, 200);
    comment.update(`Step 1 ${RUN}`);
    comment.update(`Step 2 ${RUN}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(edits()).toHaveLength(0);
    await comment.finish(`Done ${RUN}`);
    // One edit, the final text: the progress never went out, being older than the answer.
    expect(edits()).toHaveLength(1);
    expect(sim.issues.get(4)!.comments.find((c) => c.id === comment.id)!.body).toBe(`Done ${RUN}`);

    // A long run reports progress once the interval has passed, the latest step only.
    const again = await TrackingComment.start(deps, { kind: 'issue', number: 4 }, '<!-- agent-action:run 13 -->', 'Reading', 200);
    again.update('Step 1');
    again.update('Step 2');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(edits().map((q) => (q.body as { body: string }).body)).toEqual([`Done ${RUN}`, 'Step 2']);
    await again.finish('Done');
  });
});
