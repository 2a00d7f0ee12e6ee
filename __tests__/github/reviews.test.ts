import { createGitHub, type GitHub } from '../../src/github/client.js';
import {
  earlierReviews,
  parseReviewMarker,
  postReview,
  reviewMarker,
  type ReviewFinding,
  type ReviewSpec,
} from '../../src/github/reviews.js';
import { WriterIdentity } from '../../src/github/identity.js';
import { Redactor } from '../../src/secrets/redactor.js';
import { startGitHubSim, type GitHubSim } from '../../test-support/github-sim.js';

const TOKEN = 'ghs_simtoken';
const HEAD = 'c'.repeat(40);
const where = { owner: 'o', repo: 'r', pullNumber: 7 };
const sims: GitHubSim[] = [];

afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

// New lines 1-5 are in the diff; 10 is not.
const PATCH = '@@ -1,4 +1,5 @@\n line1\n-old2\n+new2\n+new3\n line4\n line5';
const alice = { login: 'alice', type: 'User' as const };
const ALICE_TOKEN = 'ghp_alice0123456789abcdefghijklmnopqrstu';
const ME = WriterIdentity.known('github-actions[bot]');

async function startSim(): Promise<GitHubSim> {
  const sim = await startGitHubSim({
    owner: 'o',
    repo: 'r',
    token: TOKEN,
    tokens: { [ALICE_TOKEN]: alice },
    permissions: { alice: 'write' },
    issues: [
      {
        number: 7,
        title: 'Feature',
        body: null,
        user: alice,
        comments: [],
        pull: {
          headRef: 'feature',
          headSha: HEAD,
          headRepoFullName: 'o/r',
          baseRef: 'main',
          files: [{ filename: 'src/app.ts', status: 'modified', additions: 2, deletions: 1, patch: PATCH }],
          reviewComments: [],
          // Someone else's review, which must never be taken for the action's.
          reviews: [{ id: 42, user: alice, body: 'Nice.', state: 'COMMENTED', commit_id: HEAD, submitted_at: '2024-03-01T10:00:00Z' }],
        },
      },
    ],
  });
  sims.push(sim);
  return sim;
}

/** The action's own client, its retries' backoff shortened. */
function fastGitHub(sim: GitHubSim): GitHub {
  return createGitHub({ token: TOKEN, baseUrl: sim.url, retryBaseMs: 1 });
}

const good: ReviewFinding[] = [
  { path: 'src/app.ts', line: 3, side: 'RIGHT', body: 'An added line.' },
  { path: 'src/app.ts', startLine: 2, line: 4, side: 'RIGHT', body: 'A range.' },
  { path: 'src/app.ts', line: 2, side: 'LEFT', body: 'The removed line.' },
];
const outside: ReviewFinding = { path: 'src/app.ts', line: 10, side: 'RIGHT', body: 'Not in the diff.\nSecond line.' };

function spec(findings: ReviewFinding[], body = 'Summary of the review.'): ReviewSpec {
  return { commitId: HEAD, body, event: 'COMMENT', findings };
}

function options(logs: string[] = []) {
  return { redact: (t: string) => new Redactor([]).redact(t), log: (m: string) => logs.push(m), identity: ME };
}

const posts = (sim: GitHubSim) => sim.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/reviews'));
const mine = (sim: GitHubSim) => (sim.issues.get(7)?.pull?.reviews ?? []).filter((r) => r.id !== 42);

describe('markers', () => {
  it('round-trips the head sha, and finds none in other text', () => {
    expect(reviewMarker(HEAD)).toBe(`<!-- agent-action:review head=${HEAD} -->`);
    expect(parseReviewMarker(`Review text\n\n${reviewMarker(HEAD)}`)).toBe(HEAD);
    expect(parseReviewMarker('<!-- agent-action:run 12 -->')).toBeNull();
  });
});

describe('postReview: inline comments, and folding what GitHub refuses', () => {
  it('posts one review with every finding inline', async () => {
    const sim = await startSim();
    const posted = await postReview(createGitHub({ token: TOKEN, baseUrl: sim.url, retryBaseMs: 1 }), where, spec(good), options());
    expect(posted).toEqual({ id: expect.any(Number), url: expect.stringContaining('#pullrequestreview-'), posted: good, folded: [] });
    expect(mine(sim)).toEqual([expect.objectContaining({ id: posted.id, body: `Summary of the review.\n\n${reviewMarker(HEAD)}` })]);
    const comments = sim.issues.get(7)?.pull?.reviewComments ?? [];
    expect(comments.map((c) => [c.path, c.side, c.start_line, c.line, c.body])).toEqual([
      ['src/app.ts', 'RIGHT', null, 3, 'An added line.'],
      ['src/app.ts', 'RIGHT', 2, 4, 'A range.'],
      ['src/app.ts', 'LEFT', null, 2, 'The removed line.'],
    ]);
    expect(posts(sim)).toHaveLength(1);
    expect(sim.schemaErrors).toEqual([]);
  });

  it('folds every finding into the body when GitHub refuses one without saying which', async () => {
    const sim = await startSim();
    const logs: string[] = [];
    const posted = await postReview(fastGitHub(sim), where, spec([good[0]!, outside]), options(logs));
    expect(posted.posted).toEqual([]);
    expect(posted.folded).toEqual([good[0], outside]);
    expect(posts(sim).map((r) => r.status)).toEqual([422, 200]);
    expect(mine(sim)).toHaveLength(1);
    const body = mine(sim)[0]?.body ?? '';
    expect(body).toContain('**2 findings could not be placed on the diff**');
    expect(body).toContain('- `src/app.ts:3`: An added line.');
    expect(body).toContain('- `src/app.ts:10`: Not in the diff.\n  Second line.');
    expect(body.endsWith(reviewMarker(HEAD))).toBe(true);
    expect(sim.issues.get(7)?.pull?.reviewComments).toEqual([]);
    expect(logs.join('\n')).toContain('Line could not be resolved');
  });

  it('folds only the comments a 422 names, and keeps the others inline', async () => {
    const sim = await startSim();
    sim.fail({ method: 'POST', path: /\/reviews$/, status: 422, message: 'comments[1] is not acceptable' });
    const posted = await postReview(fastGitHub(sim), where, spec(good), options());
    expect(posted.posted).toEqual([good[0], good[2]]);
    expect(posted.folded).toEqual([good[1]]);
    expect(mine(sim)[0]?.body).toContain('- `src/app.ts:2-4`: A range.');
    expect(sim.issues.get(7)?.pull?.reviewComments?.map((c) => c.line)).toEqual([3, 2]);
  });

  it('throws when even the review without inline comments is refused, having stored nothing', async () => {
    const sim = await startSim();
    const stale = { ...spec([outside]), commitId: 'd'.repeat(40) };
    await expect(postReview(fastGitHub(sim), where, stale, options())).rejects.toMatchObject({ status: 422 });
    expect(posts(sim)).toHaveLength(2);
    expect(mine(sim)).toEqual([]);
  });
});

describe('postReview: 5xx answers', () => {
  it('finds its review by the marker after a 502 that came after the review was made', async () => {
    const sim = await startSim();
    sim.fail({ method: 'POST', path: /\/reviews$/, status: 502, afterEffect: true });
    const logs: string[] = [];
    const posted = await postReview(createGitHub({ token: TOKEN, baseUrl: sim.url, retryBaseMs: 1 }), where, spec(good), options(logs));
    expect(posts(sim).map((r) => r.status)).toEqual([502]);
    expect(mine(sim).map((r) => r.id)).toEqual([posted.id]);
    expect(posted.posted).toEqual(good);
    expect(logs.join('\n')).toContain('checking whether it was made');
  });

  it('posts again after a 5xx that came before the review was made', async () => {
    const sim = await startSim();
    sim.fail({ method: 'POST', path: /\/reviews$/, status: 503 });
    const posted = await postReview(fastGitHub(sim), where, spec(good), options());
    expect(posts(sim).map((r) => r.status)).toEqual([503, 200]);
    expect(mine(sim).map((r) => r.id)).toEqual([posted.id]);
  });
});

describe('postReview: what it sends', () => {
  it('redacts token-shaped text in the review body and in every comment', async () => {
    const sim = await startSim();
    const token = `ghp_${'A1b2C3d4E5'.repeat(3)}abcdef`;
    const findings: ReviewFinding[] = [{ ...good[0]!, body: `Leaked ${token} here.` }];
    await postReview(fastGitHub(sim), where, spec(findings, `Body with ${token}.`), options());
    const everything = JSON.stringify(sim.issues.get(7)?.pull);
    expect(everything).not.toContain(token);
    expect(sim.issues.get(7)?.pull?.reviewComments?.[0]?.body).toBe('Leaked *** here.');
    expect(mine(sim)[0]?.body.startsWith('Body with ***.')).toBe(true);
  });

  it('keeps a long folded list within GitHub’s body limit', async () => {
    const sim = await startSim();
    const many = Array.from({ length: 800 }, (_, i): ReviewFinding => ({ ...outside, line: 100 + i, body: 'x'.repeat(120) }));
    const posted = await postReview(fastGitHub(sim), where, spec(many), options());
    const body = mine(sim)[0]?.body ?? '';
    expect(body.length).toBeLessThanOrEqual(65536);
    expect(body).toMatch(/- … and \d+ more, cut to keep the review within GitHub's size limit/);
    expect(body.endsWith(reviewMarker(HEAD))).toBe(true);
    expect(posted.folded).toHaveLength(800);
  });

  it('never approves', async () => {
    const sim = await startSim();
    // @ts-expect-error: the type already forbids it; this checks the guard for callers that get around the type.
    const approve: ReviewSpec = { ...spec(good), event: 'APPROVE' };
    await expect(postReview(fastGitHub(sim), where, approve, options())).rejects.toThrow(/APPROVE/);
    expect(posts(sim)).toEqual([]);
  });
});

describe('earlierReviews', () => {
  it("finds the action's reviews by marker, with their inline comments", async () => {
    const sim = await startSim();
    const gh = fastGitHub(sim);
    const first = await postReview(gh, where, spec(good.slice(0, 2)), options());
    expect(await earlierReviews(gh, where, ME)).toEqual({
      reviews: [{ id: first.id, head: HEAD, url: first.url, submittedAt: expect.any(String) }],
      comments: [
        { path: 'src/app.ts', line: 3, body: 'An added line.' },
        { path: 'src/app.ts', line: 4, body: 'A range.' },
      ],
    });
    expect((await earlierReviews(gh, where, WriterIdentity.known('GitHub-Actions[bot]'))).reviews).toHaveLength(1);
    expect(await earlierReviews(gh, where, WriterIdentity.known('someone-else'))).toEqual({ reviews: [], comments: [] });
  });

  it('ignores a review another author posted with the marker, and its inline comments', async () => {
    const sim = await startSim();
    const forged = { body: `LGTM\n\n${reviewMarker(HEAD)}`, event: 'COMMENT', comments: [{ path: 'src/app.ts', line: 3, body: 'forged' }] };
    const answer = await fetch(`${sim.url}/repos/o/r/pulls/7/reviews`, {
      method: 'POST',
      headers: { authorization: `token ${ALICE_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(forged),
    });
    expect(answer.status).toBe(200);
    expect(sim.issues.get(7)?.pull?.reviews?.at(-1)?.user.login).toBe('alice');
    expect(await earlierReviews(fastGitHub(sim), where, ME)).toEqual({ reviews: [], comments: [] });
  });
});

describe('postReview: a forged review after a 5xx', () => {
  it("posts its own review when the only marked review is another author's", async () => {
    const sim = await startSim();
    sim.issues.get(7)!.pull!.reviews!.push({
      id: 43,
      user: alice,
      body: reviewMarker(HEAD),
      state: 'COMMENTED',
      commit_id: HEAD,
      submitted_at: '2024-03-01T11:00:00Z',
    });
    sim.fail({ method: 'POST', path: /\/reviews$/, status: 502 });
    const posted = await postReview(fastGitHub(sim), where, spec(good), options());
    expect(posts(sim).map((r) => r.status)).toEqual([502, 200]);
    expect(posted.id).not.toBe(43);
    expect(sim.issues.get(7)!.pull!.reviews!.at(-1)).toMatchObject({ id: posted.id, user: { login: 'github-actions[bot]' } });
  });
});
