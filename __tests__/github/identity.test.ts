import { createGitHub } from '../../src/github/client.js';
import { TrackingComment } from '../../src/github/comments.js';
import { ACTIONS_BOT, WriterIdentity } from '../../src/github/identity.js';
import { startGitHubSim, type GitHubSim, type GitHubSimOptions, type SimUser } from '../../test-support/github-sim.js';

const sims: GitHubSim[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

const MALLORY: SimUser = { login: 'mallory', type: 'User' };
const MALLORY_TOKEN = 'ghp_mallory0123456789abcdefghijklmnopq';

async function start(o: Partial<GitHubSimOptions> & { token: string }): Promise<GitHubSim> {
  const sim = await startGitHubSim({ owner: 'o', repo: 'r', permissions: {}, tokens: { [MALLORY_TOKEN]: MALLORY }, ...o });
  sims.push(sim);
  return sim;
}

const client = (sim: GitHubSim, token: string) => createGitHub({ token, baseUrl: sim.url, retryBaseMs: 1 });
const userCalls = (sim: GitHubSim) => sim.requests.filter((q) => q.path === '/user');

describe('who the action writes as', () => {
  it('an installation token by its prefix, without a request', async () => {
    const sim = await start({ token: 'ghs_installation0123' });
    const identity = WriterIdentity.ofToken(client(sim, 'ghs_installation0123'), 'ghs_installation0123');
    expect(await identity.login()).toBe(ACTIONS_BOT);
    expect(userCalls(sim)).toEqual([]);
  });

  it('a token of no known prefix that GET /user answers 403 (an installation token) writes as github-actions[bot]', async () => {
    const token = 'a'.repeat(40);
    const sim = await start({ token });
    expect(await WriterIdentity.ofToken(client(sim, token), token).login()).toBe(ACTIONS_BOT);
    expect(userCalls(sim).map((q) => q.status)).toEqual([403]);
  });

  it('a personal token writes as its user, asked once however often it is needed', async () => {
    const token = 'ghp_maintainer0123456789abcdefghijklmno';
    const sim = await start({ token, appLogin: 'octo-maint' });
    const identity = WriterIdentity.ofToken(client(sim, token), token);
    expect(await identity.login()).toBe('octo-maint');
    expect(await identity.wrote({ login: 'Octo-Maint' })).toBe(true);
    expect(await identity.wrote({ login: 'mallory' })).toBe(false);
    expect(await identity.wrote(null)).toBe(false);
    expect(userCalls(sim)).toHaveLength(1);
  });

  it('unknown when GET /user keeps failing: then nothing counts as the action’s', async () => {
    const token = 'ghp_maintainer0123456789abcdefghijklmno';
    const sim = await start({ token, appLogin: 'octo-maint' });
    sim.fail({ path: /^\/user$/, status: 500, times: 10 });
    const logs: string[] = [];
    const identity = WriterIdentity.ofToken(client(sim, token), token, (m) => logs.push(m));
    expect(await identity.login()).toBeNull();
    expect(await identity.wrote({ login: 'octo-maint' })).toBe(false);
    expect(logs.join('\n')).toMatch(/could not find who the token writes as/);
  });
});

describe("the tracking comment is found again only among the action's own", () => {
  const RUN = '<!-- agent-action:run 9 -->';
  const deps = (sim: GitHubSim, identity: WriterIdentity) => ({
    gh: client(sim, 'ghs_x'),
    identity,
    owner: 'o',
    repo: 'r',
    redact: (t: string) => t,
  });

  it('in a review thread: a reply by someone else carrying the marker is left alone, a new reply is made', async () => {
    const sim = await start({
      token: 'ghs_x',
      issues: [
        {
          number: 7,
          title: 'PR',
          body: null,
          user: MALLORY,
          comments: [],
          pull: {
            headRef: 'f',
            headSha: 'c'.repeat(40),
            headRepoFullName: 'o/r',
            baseRef: 'main',
            reviewComments: [
              {
                id: 50,
                body: '/agent rename',
                user: { login: 'alice' },
                path: 'a.ts',
                line: 1,
                diff_hunk: '@@ -1 +1 @@',
                created_at: '2024-01-01T00:00:00Z',
                updated_at: '2024-01-01T00:00:00Z',
              },
              {
                id: 51,
                body: `mine ${RUN}`,
                user: MALLORY,
                path: 'a.ts',
                line: 1,
                diff_hunk: '@@ -1 +1 @@',
                in_reply_to_id: 50,
                created_at: '2024-01-01T00:00:00Z',
                updated_at: '2024-01-01T00:00:00Z',
              },
            ],
          },
        },
      ],
    });
    const place = { kind: 'review-thread' as const, pullNumber: 7, replyTo: 50 };
    const comment = await TrackingComment.start(deps(sim, WriterIdentity.known(ACTIONS_BOT)), place, RUN, `Working ${RUN}`);
    await comment.finish(`Done ${RUN}`);
    const thread = sim.issues.get(7)!.pull!.reviewComments!;
    expect(thread.find((c) => c.id === 51)!.body).toBe(`mine ${RUN}`);
    expect(thread.find((c) => c.id === comment.id)).toMatchObject({
      user: { login: ACTIONS_BOT },
      body: `Done ${RUN}`,
      in_reply_to_id: 50,
    });

    // A re-run finds the action's reply, not hers.
    const again = await TrackingComment.start(deps(sim, WriterIdentity.known(ACTIONS_BOT)), place, RUN, `Again ${RUN}`);
    expect(again.id).toBe(comment.id);
  });
});
