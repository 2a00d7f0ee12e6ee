import { createGitHub, type GitHub } from '../../src/github/client.js';
import { REVIEW_ERRORS } from '../../test-support/github-sim/routes/reviews.js';
import { startGitHubSim, type GitHubSim, type SimIssue, type SimPull } from '../../test-support/github-sim.js';

const TOKEN = 'ghs_simtoken';
const HEAD = 'c'.repeat(40);
const DOCS = 'https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request';
const sims: GitHubSim[] = [];

afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

// Hunk 1 holds old lines 1-4 and new lines 1-5; hunk 2 old 20-22 and new 21-23.
const APP_PATCH = [
  '@@ -1,4 +1,5 @@',
  ' line1',
  '-old2',
  '+new2',
  '+new3',
  ' line4',
  ' line5',
  '@@ -20,3 +21,3 @@ function tail() {',
  ' ctx20',
  '-old21',
  '+new22',
  ' ctx22',
].join('\n');

function pull(): SimPull {
  return {
    headRef: 'feature',
    headSha: HEAD,
    headRepoFullName: 'o/r',
    baseRef: 'main',
    files: [
      { filename: 'src/app.ts', status: 'modified', additions: 3, deletions: 2, patch: APP_PATCH },
      { filename: 'src/new.ts', status: 'added', additions: 2, deletions: 0, patch: '@@ -0,0 +1,2 @@\n+a\n+b' },
      { filename: 'src/gone.ts', status: 'removed', additions: 0, deletions: 2, patch: '@@ -1,2 +0,0 @@\n-a\n-b' },
      { filename: 'assets/logo.png', status: 'modified', additions: 0, deletions: 0 },
    ],
    reviewComments: [],
  };
}

function issues(): SimIssue[] {
  const alice = { login: 'alice', type: 'User' as const };
  const bot = { login: 'github-actions[bot]', type: 'Bot' as const };
  return [
    { number: 7, title: 'Feature', body: 'Adds it', user: alice, comments: [], pull: pull() },
    { number: 8, title: 'Bot change', body: null, user: bot, comments: [], pull: pull() },
  ];
}

/** The simulator and the action's own client, its retries' backoff shortened. */
async function start(): Promise<{ sim: GitHubSim; gh: GitHub }> {
  const sim = await startGitHubSim({ owner: 'o', repo: 'r', token: TOKEN, permissions: { alice: 'write' }, issues: issues() });
  sims.push(sim);
  const gh = createGitHub({ token: TOKEN, baseUrl: sim.url, retryBaseMs: 1 });
  return { sim, gh };
}

interface HttpFailure {
  status: number;
  response?: { data: unknown };
}

async function rejection(promise: Promise<unknown>): Promise<HttpFailure> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof Error && 'status' in err && typeof err.status === 'number') return err as HttpFailure;
    throw err;
  }
  throw new Error('expected the request to fail');
}

type Comment = Record<string, unknown>;

/** A raw POST, so that a test can send what Octokit's types would not let through. */
function post(gh: GitHub, fields: Record<string, unknown>, number = 7) {
  return gh.request('POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews', {
    owner: 'o',
    repo: 'r',
    pull_number: number,
    ...fields,
    request: { retries: 0 },
  });
}

const stored = (sim: GitHubSim, number = 7) => ({
  reviews: sim.issues.get(number)?.pull?.reviews ?? [],
  comments: sim.issues.get(number)?.pull?.reviewComments ?? [],
});

describe('creating a review', () => {
  it('stores a valid review with its comments, lists and reads it back', async () => {
    const { sim, gh } = await start();
    const comments: Comment[] = [
      { path: 'src/app.ts', line: 3, side: 'RIGHT', body: 'an added line' },
      { path: 'src/app.ts', start_line: 2, line: 4, body: 'a range in one hunk' },
      { path: 'src/app.ts', line: 2, side: 'LEFT', body: 'a deleted line' },
      { path: 'src/app.ts', line: 21, side: 'LEFT', body: 'old side of the second hunk' },
      { path: 'src/new.ts', line: 2, body: 'added file' },
      { path: 'src/gone.ts', line: 1, side: 'LEFT', body: 'removed file' },
    ];
    const { data, status } = await post(gh, { commit_id: HEAD, body: 'Looks mostly fine.', event: 'COMMENT', comments });
    expect(status).toBe(200);
    expect(data).toMatchObject({
      body: 'Looks mostly fine.',
      state: 'COMMENTED',
      commit_id: HEAD,
      user: { login: 'github-actions[bot]', type: 'Bot' },
      html_url: `https://github.com/o/r/pull/7#pullrequestreview-${data.id}`,
      submitted_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });

    const listed = await gh.paginate(gh.rest.pulls.listReviews, { owner: 'o', repo: 'r', pull_number: 7 });
    expect(listed.map((r) => r.id)).toEqual([data.id]);
    const one = await gh.rest.pulls.getReview({ owner: 'o', repo: 'r', pull_number: 7, review_id: Number(data.id) });
    expect(one.data).toEqual(data);

    const listedComments = await gh.paginate(gh.rest.pulls.listReviewComments, { owner: 'o', repo: 'r', pull_number: 7 });
    expect(listedComments).toHaveLength(6);
    expect(listedComments[1]).toMatchObject({
      path: 'src/app.ts',
      line: 4,
      side: 'RIGHT',
      start_line: 2,
      start_side: 'RIGHT',
      original_line: 4,
      commit_id: HEAD,
      pull_request_review_id: data.id,
      body: 'a range in one hunk',
      user: { login: 'github-actions[bot]' },
      diff_hunk: '@@ -1,4 +1,5 @@\n line1\n-old2\n+new2\n+new3\n line4',
    });
    expect(listedComments[1]?.html_url).toMatch(/^https:\/\/github\.com\/o\/r\/pull\/7#discussion_r\d+$/);
    expect(listedComments[3]).toMatchObject({ line: 21, side: 'LEFT', start_line: null, diff_hunk: expect.stringMatching(/-old21$/) });
    expect(sim.schemaErrors).toEqual([]);
  });
});

describe('positions, pending reviews and pages', () => {
  it('takes the legacy position form, counting later hunk headers', async () => {
    const { sim, gh } = await start();
    const comments = [
      { path: 'src/app.ts', position: 2, body: 'the deleted line' },
      { path: 'src/app.ts', position: 10, body: 'the added line in hunk 2' },
    ];
    await post(gh, { body: 'positions', event: 'COMMENT', comments });
    expect(stored(sim).comments.map((c) => [c.side, c.line])).toEqual([
      ['LEFT', 2],
      ['RIGHT', 22],
    ]);
    const header = [{ path: 'src/app.ts', position: 7, body: 'on the second hunk header' }];
    const err = await rejection(post(gh, { body: 'x', event: 'COMMENT', comments: header }));
    expect(err.status).toBe(422);
    expect(sim.schemaErrors).toEqual([]);
  });

  it('makes a pending review when the event is left out: its comments stay out of the pull request', async () => {
    const { sim, gh } = await start();
    const { data } = await post(gh, { body: 'draft', comments: [{ path: 'src/app.ts', line: 3, body: 'later' }] });
    expect(data.state).toBe('PENDING');
    expect(stored(sim).reviews.map((r) => r.state)).toEqual(['PENDING']);
    expect(data).not.toHaveProperty('submitted_at');
    expect(await gh.paginate(gh.rest.pulls.listReviewComments, { owner: 'o', repo: 'r', pull_number: 7 })).toEqual([]);
    const own = await gh.rest.pulls.listCommentsForReview({ owner: 'o', repo: 'r', pull_number: 7, review_id: Number(data.id) });
    expect(own.data.map((c) => c.body)).toEqual(['later']);
    const again = await rejection(post(gh, { body: 'another draft' }));
    expect(again.response?.data).toMatchObject({ errors: [REVIEW_ERRORS.pending] });
  });

  it('pages the list of reviews', async () => {
    const { gh } = await start();
    for (const n of [1, 2, 3]) await post(gh, { body: `review ${n}`, event: 'COMMENT' });
    const page = await gh.rest.pulls.listReviews({ owner: 'o', repo: 'r', pull_number: 7, per_page: 2 });
    expect(page.data).toHaveLength(2);
    expect(page.headers.link).toContain('rel="next"');
    const all = await gh.paginate(gh.rest.pulls.listReviews, { owner: 'o', repo: 'r', pull_number: 7, per_page: 2 });
    expect(all.map((r) => r.body)).toEqual(['review 1', 'review 2', 'review 3']);
  });
});

describe("GitHub's 422 rules: the whole review is refused and nothing is stored", () => {
  const good: Comment = { path: 'src/app.ts', line: 3, body: 'fine on its own' };
  const cases: [string, Record<string, unknown>, string][] = [
    ['a RIGHT line outside every hunk', { comments: [good, { path: 'src/app.ts', line: 10, body: 'x' }] }, REVIEW_ERRORS.line],
    ['a LEFT line outside every hunk', { comments: [{ path: 'src/app.ts', line: 23, side: 'LEFT', body: 'x' }] }, REVIEW_ERRORS.line],
    ['LEFT on an added file', { comments: [{ path: 'src/new.ts', line: 1, side: 'LEFT', body: 'x' }] }, REVIEW_ERRORS.line],
    ['RIGHT on a removed file', { comments: [{ path: 'src/gone.ts', line: 1, side: 'RIGHT', body: 'x' }] }, REVIEW_ERRORS.line],
    ['a file without a patch', { comments: [{ path: 'assets/logo.png', line: 1, body: 'x' }] }, REVIEW_ERRORS.line],
    ['a path the pull request does not touch', { comments: [{ path: 'README.md', line: 1, body: 'x' }] }, REVIEW_ERRORS.path],
    ['start_line in another hunk', { comments: [{ path: 'src/app.ts', start_line: 2, line: 22, body: 'x' }] }, REVIEW_ERRORS.sameHunk],
    ['start_line outside the diff', { comments: [{ path: 'src/app.ts', start_line: 15, line: 22, body: 'x' }] }, REVIEW_ERRORS.sameHunk],
    ['start_line after line', { comments: [{ path: 'src/app.ts', start_line: 4, line: 3, body: 'x' }] }, REVIEW_ERRORS.precede],
    ['start_line equal to line', { comments: [{ path: 'src/app.ts', start_line: 3, line: 3, body: 'x' }] }, REVIEW_ERRORS.precede],
    ['REQUEST_CHANGES with no body and no comments', { event: 'REQUEST_CHANGES', body: '' }, REVIEW_ERRORS.requestChangesBody],
    ['COMMENT with no body and no comments', { event: 'COMMENT', body: '  ' }, REVIEW_ERRORS.commentBody],
    ['a commit that is not the head', { commit_id: 'd'.repeat(40), comments: [good] }, REVIEW_ERRORS.commit],
  ];

  it.each(cases)('%s', async (_name, fields, reason) => {
    const { sim, gh } = await start();
    const err = await rejection(post(gh, { body: 'review', event: 'COMMENT', ...fields }));
    expect(err.status).toBe(422);
    expect(err.response?.data).toEqual({ message: 'Unprocessable Entity', errors: [reason], documentation_url: DOCS, status: '422' });
    expect(stored(sim)).toEqual({ reviews: [], comments: [] });
    expect(sim.schemaErrors).toEqual([]);
  });

  it('joins several reasons into one sentence that names no comment', async () => {
    const { sim, gh } = await start();
    const comments = [
      { path: 'README.md', line: 1, body: 'x' },
      { path: 'src/app.ts', line: 99, body: 'y' },
      { path: 'src/app.ts', line: 98, body: 'z' },
      { path: 'src/app.ts', start_line: 4, line: 3, body: 'w' },
    ];
    const err = await rejection(post(gh, { body: 'review', event: 'COMMENT', comments }));
    const sentence = `${REVIEW_ERRORS.path}, ${REVIEW_ERRORS.line}, and ${REVIEW_ERRORS.precede}`;
    expect(err.response?.data).toMatchObject({ errors: [sentence] });
    expect(stored(sim).reviews).toEqual([]);
  });

  it('refuses approving or requesting changes on your own pull request', async () => {
    const { sim, gh } = await start();
    const approve = await rejection(post(gh, { event: 'APPROVE' }, 8));
    expect(approve.response?.data).toMatchObject({ errors: [REVIEW_ERRORS.ownApprove] });
    const changes = await rejection(post(gh, { event: 'REQUEST_CHANGES', body: 'no' }, 8));
    expect(changes.response?.data).toMatchObject({ errors: [REVIEW_ERRORS.ownRequestChanges] });
    expect(stored(sim, 8).reviews).toEqual([]);
    // Someone else's pull request can be approved without a body.
    expect((await post(gh, { event: 'APPROVE' })).data.state).toBe('APPROVED');
  });
});

describe('faults and schema checks', () => {
  it('answers 502 after the review was made: it exists once', async () => {
    const { sim, gh } = await start();
    sim.fail({ method: 'POST', path: /\/pulls\/7\/reviews$/, status: 502, afterEffect: true });
    const err = await rejection(
      post(gh, { body: 'made anyway', event: 'COMMENT', comments: [{ path: 'src/app.ts', line: 3, body: 'c' }] }),
    );
    expect(err.status).toBe(502);
    expect(stored(sim).reviews.map((r) => r.body)).toEqual(['made anyway']);
    expect(stored(sim).comments).toHaveLength(1);
  });

  it('records a body that breaks GitHub OpenAPI description', async () => {
    const { sim, gh } = await start();
    await rejection(post(gh, { body: 'typed wrong', event: 'LGTM', comments: [{ path: 'src/app.ts', line: '3', body: 'c' }] }));
    const label = 'POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews';
    expect(sim.schemaErrors).toEqual(
      expect.arrayContaining([
        `${label}: /comments/0/line must be integer`,
        expect.stringMatching(/^POST .*: \/event must be equal to one/),
      ]),
    );
    expect(sim.schemaErrors).toHaveLength(2);
  });

  it('checks other routes too, and finds nothing wrong with what Octokit sends', async () => {
    const { sim, gh } = await start();
    await gh.rest.issues.createComment({ owner: 'o', repo: 'r', issue_number: 7, body: 'hello' });
    expect(sim.schemaErrors).toEqual([]);
    // A literal path, not the template: Octokit's types would not let a number through as the body.
    await rejection(gh.request('POST /repos/o/r/issues/7/comments', { body: 42, request: { retries: 0 } }));
    expect(sim.schemaErrors).toEqual(['POST /repos/{owner}/{repo}/issues/{issue_number}/comments: /body must be string']);
  });
});
