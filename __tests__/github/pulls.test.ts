import { createGitHub } from '../../src/github/client.js';
import { openPullRequest } from '../../src/github/pulls.js';
import { startGitHubSim, type GitHubSim } from '../../test-support/github-sim.js';

const TOKEN = 'ghs_simtoken';
let sim: GitHubSim;

beforeEach(async () => {
  sim = await startGitHubSim({ owner: 'o', repo: 'r', token: TOKEN, permissions: {} });
});
afterEach(() => sim.close());

const spec = { owner: 'o', repo: 'r', head: 'agent/issue-1-fix', base: 'main', title: 'Fix', body: 'Fixes it.', draft: false };
const gh = () => createGitHub({ token: TOKEN, baseUrl: sim.url, retryBaseMs: 1 });
const lists = () => sim.requests.filter((q) => q.method === 'GET' && q.path.endsWith('/pulls')).length;

describe('openPullRequest', () => {
  it('creates the pull request of a branch the run just made without looking for one first: one request', async () => {
    const opened = await openPullRequest(gh(), { ...spec, fresh: true });
    expect(opened.created).toBe(true);
    expect(sim.pullsCreated).toHaveLength(1);
    expect(lists()).toBe(0);
    expect(sim.requests).toHaveLength(1);
  });

  it('finds the open pull request of an older branch instead of opening a second one', async () => {
    await openPullRequest(gh(), { ...spec, fresh: true });
    const again = await openPullRequest(gh(), spec);
    expect(again).toMatchObject({ created: false, number: sim.pullsCreated[0]!.number });
    expect(sim.pullsCreated).toHaveLength(1);
    expect(lists()).toBe(1);
  });

  it('still looks for its own pull request after a 5xx on creating it, fresh or not', async () => {
    sim.fail({ method: 'POST', path: /\/pulls$/, status: 502, times: 1, afterEffect: true });
    const opened = await openPullRequest(gh(), { ...spec, fresh: true });
    expect(sim.pullsCreated).toHaveLength(1);
    expect(opened.number).toBe(sim.pullsCreated[0]!.number);
    expect(lists()).toBe(1);
  });
});
