import { createGitHub } from '../../src/github/client.js';
import { startGitHubSim, type GitHubSim } from '../../test-support/github-sim.js';

const TOKEN = 'ghs_simtoken';
const sims: GitHubSim[] = [];

afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

async function start(o: Partial<Parameters<typeof startGitHubSim>[0]> = {}): Promise<GitHubSim> {
  const user = { login: 'alice', type: 'User' as const };
  const comments = [{ id: 77, body: 'start', user, created_at: '2024-01-01T00:00:00Z', updated_at: '2024-01-01T00:00:00Z' }];
  const sim = await startGitHubSim({
    owner: 'o',
    repo: 'r',
    token: TOKEN,
    permissions: { alice: 'write' },
    issues: [{ number: 1, title: 'Bug', body: '', user, comments }],
    ...o,
  });
  sims.push(sim);
  return sim;
}

const where = { owner: 'o', repo: 'r' };

describe('GitHub requests under load and faults (real Octokit against the simulator)', () => {
  it('waits out a secondary write limit of two a second: twelve comments, each made exactly once', async () => {
    const sim = await start({ secondaryWriteLimit: { perSecond: 2, retryAfterS: 1 } });
    const gh = createGitHub({ token: TOKEN, baseUrl: sim.url, budget: { deadline: Date.now() + 60_000 } });
    const bodies = Array.from({ length: 12 }, (_, i) => `comment ${i}`);
    await Promise.all(bodies.map((body) => gh.rest.issues.createComment({ ...where, issue_number: 1, body, request: { retries: 0 } })));
    const made = sim.issues
      .get(1)!
      .comments.map((c) => c.body)
      .filter((b) => b.startsWith('comment'));
    expect(made.sort()).toEqual([...bodies].sort());
    expect(sim.limits.secondary).toBeGreaterThan(0);
    expect(sim.requests.filter((r) => r.status === 403)).toHaveLength(sim.limits.secondary);
  }, 30_000);

  it('waits for the primary limit to reset, as x-ratelimit-reset says', async () => {
    const sim = await start({ primaryLimit: { requests: 2, windowS: 1 } });
    const gh = createGitHub({ token: TOKEN, baseUrl: sim.url, budget: { deadline: Date.now() + 30_000 } });
    const got = await Promise.all([1, 2, 3, 4].map(() => gh.rest.issues.get({ ...where, issue_number: 1 })));
    expect(got.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(sim.limits.primary).toBeGreaterThan(0);
  }, 30_000);

  it('times out a read that is never answered and asks again', async () => {
    const sim = await start();
    sim.hang({ method: 'GET', path: /issues\/1$/, times: 1 });
    const gh = createGitHub({
      token: TOKEN,
      baseUrl: sim.url,
      retryBaseMs: 1,
      budget: { deadline: Date.now() + 10_000, attemptTimeoutMs: 300 },
    });
    expect((await gh.rest.issues.get({ ...where, issue_number: 1 })).status).toBe(200);
    expect(sim.requests.map((r) => r.status)).toEqual([0, 200]);
  });

  it('does not repeat a comment that timed out: its caller checks first', async () => {
    const sim = await start();
    sim.hang({ method: 'POST', path: /comments$/, times: 1 });
    const gh = createGitHub({
      token: TOKEN,
      baseUrl: sim.url,
      retryBaseMs: 1,
      budget: { deadline: Date.now() + 10_000, attemptTimeoutMs: 300 },
    });
    await expect(gh.rest.issues.createComment({ ...where, issue_number: 1, body: 'once' })).rejects.toMatchObject({ status: 500 });
    expect(sim.requests.map((r) => `${r.method} ${r.status}`)).toEqual(['POST 0']);
  });

  it('keeps edits of one comment in order when the first waits out a limit', async () => {
    const sim = await start();
    sim.fail({
      method: 'PATCH',
      path: /comments\/77$/,
      status: 403,
      message: 'You have exceeded a secondary rate limit.',
      headers: { 'retry-after': '1' },
    });
    const gh = createGitHub({ token: TOKEN, baseUrl: sim.url, budget: { deadline: Date.now() + 10_000 } });
    const edit = (body: string) => gh.rest.issues.updateComment({ ...where, comment_id: 77, body });
    await Promise.all([edit('progress'), edit('final')]);
    expect(sim.issues.get(1)!.comments.find((c) => c.id === 77)?.body).toBe('final');
    expect(sim.requests.filter((r) => r.method === 'PATCH').map((r) => (r.body as { body: string }).body)).toEqual([
      'progress',
      'progress',
      'final',
    ]);
  });

  it('ends a hung request within the grace once the run is cancelled', async () => {
    const sim = await start();
    sim.hang({ path: /issues\/1$/ });
    const cancel = new AbortController();
    const budget = { deadline: Date.now() + 60_000, signal: cancel.signal, cancelGraceMs: 300 };
    const gh = createGitHub({ token: TOKEN, baseUrl: sim.url, retryBaseMs: 1, budget });
    const t0 = performance.now();
    const pending = gh.rest.issues.get({ ...where, issue_number: 1 });
    setTimeout(() => cancel.abort(new Error('SIGTERM')), 200);
    await expect(pending).rejects.toMatchObject({ status: 500 });
    expect(performance.now() - t0).toBeLessThan(2_000);
  });

  it('answers every request with 401 Bad credentials once the token expired, and the client does not retry it', async () => {
    const sim = await start();
    const gh = createGitHub({ token: TOKEN, baseUrl: sim.url, retryBaseMs: 1 });
    expect((await gh.rest.issues.get({ ...where, issue_number: 1 })).status).toBe(200);
    sim.expireToken();
    await expect(gh.rest.issues.get({ ...where, issue_number: 1 })).rejects.toMatchObject({
      status: 401,
      message: expect.stringMatching(/Bad credentials/),
    });
    expect(sim.requests.map((r) => r.status)).toEqual([200, 401]);
    expect(sim.limits.badCredentials).toBe(1);
  });
});
