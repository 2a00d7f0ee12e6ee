import { createGitHub, type GitHub } from '../../src/github/client.js';
import { rateLimitWait } from '../../src/github/pacing.js';
import { startGitHubSim, type GitHubSim } from '../../test-support/github-sim.js';

const TOKEN = 'ghs_simtoken';
const SECONDARY = 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.';
const sims: GitHubSim[] = [];

afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

async function start(): Promise<GitHubSim> {
  const user = { login: 'alice', type: 'User' as const };
  const sim = await startGitHubSim({
    owner: 'o',
    repo: 'r',
    token: TOKEN,
    permissions: { alice: 'write' },
    issues: [{ number: 1, title: 'Bug', body: '', user, comments: [] }],
  });
  sims.push(sim);
  return sim;
}

/** A clock whose sleeps return at once and move time on, each one recorded. */
function fakeClock(startMs = 1_700_000_000_000) {
  let t = startMs;
  const sleeps: number[] = [];
  return {
    sleeps,
    clock: {
      now: () => t,
      sleep: (ms: number) => {
        sleeps.push(ms);
        t += ms;
        return Promise.resolve();
      },
    },
  };
}

function client(sim: GitHubSim, clock: ReturnType<typeof fakeClock>['clock'], logs: string[] = []): GitHub {
  return createGitHub({ token: TOKEN, baseUrl: sim.url, retryBaseMs: 10, log: (m) => logs.push(m), pacing: { clock } });
}

/** A transport that holds every request until released, counting those in flight. */
function heldFetch() {
  const held: (() => void)[] = [];
  const started: string[] = [];
  const fetch = async (input: string): Promise<Response> => {
    started.push(input);
    await new Promise<void>((resolve) => held.push(resolve));
    return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { fetch, started, releaseOne: () => held.shift()?.() };
}

const ticks = async (n = 20) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('pacing of GitHub requests', () => {
  it('sends reads together, ten at a time, the next as soon as one is answered', async () => {
    const sim = await start();
    const gh = client(sim, fakeClock().clock);
    const t = heldFetch();
    const reads = Array.from({ length: 12 }, (_, i) =>
      gh.request('GET /repos/{owner}/{repo}/issues/{n}', { owner: 'o', repo: 'r', n: i, request: { fetch: t.fetch } }),
    );
    await ticks();
    expect(t.started).toHaveLength(10);
    t.releaseOne();
    // A read asked for now queues behind the two already waiting rather than taking the freed slot.
    const late = gh.request('GET /repos/{owner}/{repo}/issues/{n}', { owner: 'o', repo: 'r', n: 99, request: { fetch: t.fetch } });
    await ticks();
    expect(t.started).toHaveLength(11);
    expect(t.started.at(-1)).toMatch(/issues\/10$/);
    reads.push(late);
    for (let i = 0; i < 13; i++) {
      t.releaseOne();
      await ticks(5);
    }
    await Promise.all(reads);
    expect(t.started).toHaveLength(13);
  });

  it('starts writes in the order asked without waiting for their answers, so one that hangs holds no other', async () => {
    const sim = await start();
    const gh = client(sim, fakeClock().clock);
    const t = heldFetch();
    const post = (body: string) =>
      gh.request('POST /repos/{owner}/{repo}/issues/1/comments', { owner: 'o', repo: 'r', body, request: { fetch: t.fetch } });
    const writes = [post('one'), post('two'), post('three')];
    await ticks();
    expect(t.started).toHaveLength(3);
    for (let i = 0; i < 3; i++) t.releaseOne();
    await Promise.all(writes);
  });

  it('lets the first five writes go without a pause, then one a second', async () => {
    const sim = await start();
    const { clock, sleeps } = fakeClock();
    const gh = client(sim, clock);
    const bodies = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    await Promise.all(bodies.map((body) => gh.rest.issues.createComment({ owner: 'o', repo: 'r', issue_number: 1, body })));
    expect(sleeps).toEqual([1000, 1000]);
    expect(
      sim.issues
        .get(1)
        ?.comments.map((c) => c.body)
        .sort(),
    ).toEqual(bodies);
  });

  it('waits out a secondary rate limit as retry-after says, even for a write that is otherwise never repeated', async () => {
    const sim = await start();
    sim.fail({ path: /comments$/, status: 403, message: SECONDARY, headers: { 'retry-after': '7' } });
    const { clock, sleeps } = fakeClock();
    const logs: string[] = [];
    const gh = client(sim, clock, logs);
    const { status } = await gh.rest.issues.createComment({
      owner: 'o',
      repo: 'r',
      issue_number: 1,
      body: 'after',
      request: { retries: 0 },
    });
    expect(status).toBe(201);
    expect(sleeps).toEqual([7000]);
    expect(sim.requests.map((r) => r.status)).toEqual([403, 201]);
    expect(sim.issues.get(1)?.comments.map((c) => c.body)).toEqual(['after']);
    expect(logs.filter((m) => m.startsWith('GitHub'))).toEqual([
      'GitHub secondary rate limit on POST /repos/{owner}/{repo}/issues/{issue_number}/comments; waiting 7s',
    ]);
  });

  it('waits out a secondary limit for as long as the budget lasts, then gives up with the error', async () => {
    const sim = await start();
    sim.fail({ path: /issues\/1$/, status: 429, message: SECONDARY, times: 10 });
    const { clock, sleeps } = fakeClock();
    const logs: string[] = [];
    const budget = { deadline: clock.now() + 150_000 };
    const gh = createGitHub({ token: TOKEN, baseUrl: sim.url, log: (m) => logs.push(m), pacing: { clock }, budget });
    await expect(gh.rest.issues.get({ owner: 'o', repo: 'r', issue_number: 1 })).rejects.toMatchObject({ status: 429 });
    // GitHub's advice without retry-after is a minute: two fit in the budget, a third would not.
    expect(sleeps).toEqual([60_000, 60_000]);
    expect(sim.requests).toHaveLength(3);
    expect(logs.at(-1)).toMatch(/would pass the run's deadline/);
  });

  it('waits out many secondary limits in a row when the budget allows, rather than a count of tries', async () => {
    const sim = await start();
    sim.fail({ path: /comments$/, status: 403, message: SECONDARY, headers: { 'retry-after': '2' }, times: 6 });
    const { clock, sleeps } = fakeClock();
    const gh = createGitHub({ token: TOKEN, baseUrl: sim.url, pacing: { clock }, budget: { deadline: clock.now() + 60_000 } });
    const { status } = await gh.rest.issues.createComment({ owner: 'o', repo: 'r', issue_number: 1, body: 'x', request: { retries: 0 } });
    expect(status).toBe(201);
    expect(sleeps).toEqual([2000, 2000, 2000, 2000, 2000, 2000]);
    expect(sim.issues.get(1)?.comments.map((c) => c.body)).toEqual(['x']);
  });

  it('waits for the primary limit to reset, one second past it', async () => {
    const sim = await start();
    const { clock, sleeps } = fakeClock();
    const reset = String(Math.floor(clock.now() / 1000) + 30);
    sim.fail({
      path: /issues\/1$/,
      status: 403,
      message: 'API rate limit exceeded',
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
    });
    const logs: string[] = [];
    const gh = client(sim, clock, logs);
    expect((await gh.rest.issues.get({ owner: 'o', repo: 'r', issue_number: 1 })).status).toBe(200);
    expect(sleeps).toEqual([31_000]);
    expect(logs.filter((m) => m.startsWith('GitHub'))).toEqual([
      'GitHub rate limit on GET /repos/{owner}/{repo}/issues/{issue_number}; waiting 31s',
    ]);
  });

  it('retries a 5xx three times with a growing pause, and not a 404, a 422 or a request that asks for none', async () => {
    const sim = await start();
    const { clock, sleeps } = fakeClock();
    const gh = client(sim, clock);
    sim.fail({ path: /issues\/1$/, status: 502, times: 2 });
    expect((await gh.rest.issues.get({ owner: 'o', repo: 'r', issue_number: 1 })).status).toBe(200);
    expect(sleeps).toEqual([10, 40]);
    sim.fail({ path: /issues\/1$/, status: 503, times: 4 });
    await expect(gh.rest.issues.get({ owner: 'o', repo: 'r', issue_number: 1 })).rejects.toMatchObject({ status: 503 });
    expect(sleeps).toEqual([10, 40, 10, 40, 90]);
    const before = sim.requests.length;
    await expect(gh.rest.issues.get({ owner: 'o', repo: 'r', issue_number: 99 })).rejects.toMatchObject({ status: 404 });
    sim.fail({ path: /issues\/1$/, status: 422, times: 1 });
    await expect(gh.rest.issues.get({ owner: 'o', repo: 'r', issue_number: 1 })).rejects.toMatchObject({ status: 422 });
    sim.fail({ method: 'POST', path: /comments$/, status: 502, times: 1 });
    const once = gh.rest.issues.createComment({ owner: 'o', repo: 'r', issue_number: 1, body: 'x', request: { retries: 0 } });
    await expect(once).rejects.toMatchObject({ status: 502 });
    expect(sim.requests.length - before).toBe(3);
    expect(sleeps).toHaveLength(5);
  });

  it('asks once on every 4xx but a timeout (408) and a bare 429: 406, 409 and 413 are as final as 404', async () => {
    const sim = await start();
    const { clock, sleeps } = fakeClock();
    const gh = client(sim, clock);
    for (const status of [406, 409, 413, 415]) {
      const before = sim.requests.length;
      sim.fail({ path: /issues\/1$/, status, times: 1 });
      await expect(gh.rest.issues.get({ owner: 'o', repo: 'r', issue_number: 1 })).rejects.toMatchObject({ status });
      expect(sim.requests.length - before).toBe(1);
    }
    expect(sleeps).toEqual([]);
    for (const status of [408, 429]) {
      const before = sim.requests.length;
      sim.fail({ path: /issues\/1$/, status, times: 1 });
      expect((await gh.rest.issues.get({ owner: 'o', repo: 'r', issue_number: 1 })).status).toBe(200);
      expect(sim.requests.length - before).toBe(2);
    }
    expect(sleeps).toEqual([10, 10]);
  });
});

describe('rateLimitWait', () => {
  const error = (status: number, message: string, headers: Record<string, string>) =>
    Object.assign(new Error(message), { status, response: { headers } });

  it('tells the two limits apart and ignores other refusals', () => {
    expect(rateLimitWait(error(403, SECONDARY, {}), 0)).toEqual({ kind: 'secondary', seconds: 60 });
    expect(rateLimitWait(error(429, 'slow down', { 'retry-after': '3' }), 0)).toEqual({ kind: 'secondary', seconds: 3 });
    expect(
      rateLimitWait(error(403, 'API rate limit exceeded', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '100' }), 90_000),
    ).toEqual({
      kind: 'primary',
      seconds: 11,
    });
    expect(rateLimitWait(error(403, 'Resource not accessible by integration', { 'x-ratelimit-remaining': '4000' }), 0)).toBeNull();
    expect(rateLimitWait(error(500, SECONDARY, {}), 0)).toBeNull();
  });
});
