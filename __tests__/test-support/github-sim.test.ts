import { Octokit } from '@octokit/rest';
import { createGitHub } from '../../src/github/client.js';
import { startGitHubSim, type GitHubSim, type GitHubSimOptions, type SimComment, type SimIssue } from '../../test-support/github-sim.js';

const TOKEN = 'ghs_simtoken';
const sims: GitHubSim[] = [];

afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

const human = (login: string): { login: string; type: 'User' } => ({ login, type: 'User' });

function seededComment(id: number, body: string, at: string, login = 'alice'): SimComment {
  return { id, body, user: human(login), created_at: at, updated_at: at };
}

const PR_DIFF = 'diff --git a/src/a.ts b/src/a.ts\n--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-old\n+new\n';

function baseIssues(): SimIssue[] {
  return [
    {
      number: 1,
      title: 'Bug: crash on start',
      body: 'It crashes.',
      user: human('alice'),
      labels: ['bug'],
      comments: [seededComment(10, '/agent fix it', '2024-03-01T10:00:00Z'), seededComment(11, 'me too', '2024-03-02T10:00:00Z', 'carol')],
    },
    {
      number: 5,
      title: 'Fix the crash',
      body: 'Fixes #1',
      user: human('mallory'),
      comments: [],
      pull: {
        headRef: 'fix-crash',
        headSha: 'a'.repeat(40),
        headRepoFullName: 'mallory/r',
        baseRef: 'main',
        baseSha: 'b'.repeat(40),
        diff: PR_DIFF,
        files: Array.from({ length: 45 }, (_, i) => ({
          filename: `src/f${i}.ts`,
          status: i === 0 ? 'added' : 'modified',
          additions: i + 1,
          deletions: 1,
          patch: `@@ -1 +1 @@\n-x${i}\n+y${i}`,
        })),
        reviewComments: [
          {
            id: 20,
            body: 'Why this change?',
            user: human('alice'),
            path: 'src/f1.ts',
            line: 1,
            diff_hunk: '@@ -1 +1 @@\n-x1\n+y1',
            created_at: '2024-03-03T10:00:00Z',
            updated_at: '2024-03-03T10:00:00Z',
          },
        ],
      },
    },
  ];
}

async function start(overrides: Partial<GitHubSimOptions> = {}): Promise<GitHubSim> {
  const sim = await startGitHubSim({
    owner: 'o',
    repo: 'r',
    token: TOKEN,
    permissions: { alice: 'write', carol: 'read', max: 'maintain', tia: 'triage', olga: 'admin' },
    issues: baseIssues(),
    ...overrides,
  });
  sims.push(sim);
  return sim;
}

interface LogSink {
  warn: string[];
  error: string[];
}

// Octokit reports failed requests through its logger; collecting them keeps the test output clean
// and lets a test assert that no deprecation or other warning was raised.
function quietLog(sink: LogSink = { warn: [], error: [] }): {
  debug: () => void;
  info: () => void;
  warn: (m: string) => void;
  error: (m: string) => void;
} {
  return { debug: () => {}, info: () => {}, warn: (m) => sink.warn.push(String(m)), error: (m) => sink.error.push(String(m)) };
}

function client(sim: GitHubSim, auth = TOKEN, sink?: LogSink): Octokit {
  return new Octokit({ auth, baseUrl: sim.url, log: quietLog(sink) });
}

// The shape of Octokit's RequestError, checked structurally: @octokit/request-error is only a
// transitive dependency, so the test does not import it.
interface HttpFailure extends Error {
  status: number;
  response?: { data: unknown; headers: Record<string, string | number | undefined> };
}

function isHttpFailure(err: unknown): err is HttpFailure {
  return err instanceof Error && typeof (err as Partial<HttpFailure>).status === 'number';
}

async function rejection(promise: Promise<unknown>): Promise<HttpFailure> {
  try {
    await promise;
  } catch (err) {
    if (isHttpFailure(err)) return err;
    throw err;
  }
  throw new Error('expected the request to fail');
}

describe('repository and permissions', () => {
  it('serves the repository', async () => {
    const sim = await start({ defaultBranch: 'trunk', private: true });
    const { data } = await client(sim).rest.repos.get({ owner: 'o', repo: 'r' });
    expect(data).toMatchObject({
      name: 'r',
      full_name: 'o/r',
      private: true,
      default_branch: 'trunk',
      html_url: 'https://github.com/o/r',
      owner: { login: 'o' },
    });
    expect(typeof data.id).toBe('number');
  });

  it('maps roles to legacy permissions and answers non-collaborators as GitHub does', async () => {
    const sim = await start();
    const gh = client(sim);
    const level = async (username: string): Promise<[string, string]> => {
      const { data } = await gh.rest.repos.getCollaboratorPermissionLevel({ owner: 'o', repo: 'r', username });
      expect(data.user?.login).toBe(username);
      return [data.permission, data.role_name];
    };
    expect(await level('alice')).toEqual(['write', 'write']);
    expect(await level('carol')).toEqual(['read', 'read']);
    expect(await level('max')).toEqual(['write', 'maintain']);
    expect(await level('tia')).toEqual(['read', 'triage']);
    expect(await level('olga')).toEqual(['admin', 'admin']);
    // Anyone can read a public repository, so a stranger is reported with read access.
    expect(await level('stranger')).toEqual(['read', 'read']);

    const priv = await start({ private: true });
    const { data } = await client(priv).rest.repos.getCollaboratorPermissionLevel({ owner: 'o', repo: 'r', username: 'stranger' });
    expect([data.permission, data.role_name]).toEqual(['none', 'none']);
  });

  it('answers 401 Bad credentials for a wrong or missing token, and 404 for other repositories and routes', async () => {
    const sim = await start();
    const err = await rejection(client(sim, 'ghs_wrong').rest.issues.get({ owner: 'o', repo: 'r', issue_number: 1 }));
    expect(err.status).toBe(401);
    expect(err.response?.data).toEqual({ message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' });

    const anonymous = await fetch(`${sim.url}/repos/o/r/issues/1`);
    expect(anonymous.status).toBe(401);

    const other = await rejection(client(sim).rest.issues.get({ owner: 'o', repo: 'other', issue_number: 1 }));
    expect(other.status).toBe(404);
    expect(other.response?.data).toMatchObject({ message: 'Not Found', status: '404' });
    const route = await rejection(client(sim).request('GET /repos/{owner}/{repo}/nothing-here', { owner: 'o', repo: 'r' }));
    expect(route.status).toBe(404);

    expect(sim.requests.map((r) => [r.method, r.path, r.status])).toEqual([
      ['GET', '/repos/o/r/issues/1', 401],
      ['GET', '/repos/o/r/issues/1', 401],
      ['GET', '/repos/o/other/issues/1', 404],
      ['GET', '/repos/o/r/nothing-here', 404],
    ]);
  });
});

describe('issues and comments', () => {
  it('gets an issue and a pull request through the issues API', async () => {
    const sim = await start();
    const gh = client(sim);
    const { data: issue } = await gh.rest.issues.get({ owner: 'o', repo: 'r', issue_number: 1 });
    expect(issue).toMatchObject({
      number: 1,
      title: 'Bug: crash on start',
      state: 'open',
      comments: 2,
      html_url: 'https://github.com/o/r/issues/1',
      user: { login: 'alice', type: 'User' },
    });
    expect(issue.labels).toEqual([expect.objectContaining({ name: 'bug' })]);
    expect(issue.pull_request).toBeUndefined();

    const { data: pr } = await gh.rest.issues.get({ owner: 'o', repo: 'r', issue_number: 5 });
    expect(pr.html_url).toBe('https://github.com/o/r/pull/5');
    expect(pr.pull_request).toMatchObject({ url: `${sim.url}/repos/o/r/pulls/5`, html_url: 'https://github.com/o/r/pull/5' });
    expect((await rejection(gh.rest.issues.get({ owner: 'o', repo: 'r', issue_number: 99 }))).status).toBe(404);
  });

  it('creates, updates and reads comments as the app, with increasing ids and GitHub html_urls', async () => {
    const sim = await start({ serverUrl: 'https://ghe.example.com/' });
    const gh = client(sim);
    const { data: created, status } = await gh.rest.issues.createComment({ owner: 'o', repo: 'r', issue_number: 1, body: 'Working on it' });
    expect(status).toBe(201);
    expect(created.id).toBeGreaterThan(11);
    expect(created.html_url).toBe(`https://ghe.example.com/o/r/issues/1#issuecomment-${created.id}`);
    expect(created.user).toMatchObject({ login: 'github-actions[bot]', type: 'Bot', id: 41898282 });
    expect(created.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    const { data: onPr } = await gh.rest.issues.createComment({ owner: 'o', repo: 'r', issue_number: 5, body: 'On the PR' });
    expect(onPr.id).toBeGreaterThan(created.id);
    expect(onPr.html_url).toBe(`https://ghe.example.com/o/r/pull/5#issuecomment-${onPr.id}`);

    const { data: updated } = await gh.rest.issues.updateComment({ owner: 'o', repo: 'r', comment_id: created.id, body: 'Done' });
    expect(updated).toMatchObject({ id: created.id, body: 'Done', created_at: created.created_at });
    expect(Date.parse(updated.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));
    const { data: fetched } = await gh.rest.issues.getComment({ owner: 'o', repo: 'r', comment_id: created.id });
    expect(fetched.body).toBe('Done');

    expect(sim.issues.get(1)?.comments.map((c) => c.body)).toEqual(['/agent fix it', 'me too', 'Done']);
    const post = sim.requests.find((r) => r.method === 'POST');
    expect(post).toMatchObject({ path: '/repos/o/r/issues/1/comments', body: { body: 'Working on it' }, status: 201 });

    const tooLong = await rejection(gh.rest.issues.createComment({ owner: 'o', repo: 'r', issue_number: 1, body: 'x'.repeat(65537) }));
    expect(tooLong.status).toBe(422);
    expect((await rejection(gh.rest.issues.getComment({ owner: 'o', repo: 'r', comment_id: 424242 }))).status).toBe(404);
  });

  it('paginates 150 comments with Link headers and filters by since', async () => {
    const many = Array.from({ length: 150 }, (_, i) =>
      seededComment(100 + i, `c${i}`, new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString().replace('.000Z', 'Z')),
    );
    const sim = await start({ issues: [{ number: 3, title: 't', body: null, user: human('alice'), comments: many }] });
    const gh = client(sim);

    const first = await gh.rest.issues.listComments({ owner: 'o', repo: 'r', issue_number: 3 });
    expect(first.data).toHaveLength(30);
    expect(first.headers.link).toBe(
      `<${sim.url}/repos/o/r/issues/3/comments?page=2>; rel="next", <${sim.url}/repos/o/r/issues/3/comments?page=5>; rel="last"`,
    );

    const all = await gh.paginate(gh.rest.issues.listComments, { owner: 'o', repo: 'r', issue_number: 3, per_page: 100 });
    expect(all.map((c) => c.id)).toEqual(many.map((c) => c.id));
    const pages = sim.requests.filter((r) => r.path === '/repos/o/r/issues/3/comments').slice(1);
    expect(pages.map((r) => r.query)).toEqual([{ per_page: '100' }, { per_page: '100', page: '2' }]);

    const recent = await gh.paginate(gh.rest.issues.listComments, {
      owner: 'o',
      repo: 'r',
      issue_number: 3,
      since: '2024-01-01T02:00:00Z',
    });
    expect(recent.map((c) => c.body)).toEqual(many.slice(120).map((c) => c.body));
  });

  it('adds reactions, answering 200 for a reaction that already exists', async () => {
    const sim = await start();
    const gh = client(sim);
    const first = await gh.rest.reactions.createForIssueComment({ owner: 'o', repo: 'r', comment_id: 10, content: 'eyes' });
    expect(first.status).toBe(201);
    expect(first.data).toMatchObject({ content: 'eyes', user: { login: 'github-actions[bot]' } });
    const again = await gh.rest.reactions.createForIssueComment({ owner: 'o', repo: 'r', comment_id: 10, content: 'eyes' });
    expect(again.status).toBe(200);
    expect(again.data.id).toBe(first.data.id);

    expect((await gh.rest.reactions.createForIssue({ owner: 'o', repo: 'r', issue_number: 1, content: 'rocket' })).status).toBe(201);
    expect(
      (await gh.rest.reactions.createForPullRequestReviewComment({ owner: 'o', repo: 'r', comment_id: 20, content: '+1' })).status,
    ).toBe(201);
    expect(sim.reactions).toEqual([
      { target: 'comment:10', content: 'eyes', user: 'github-actions[bot]' },
      { target: 'issue:1', content: 'rocket', user: 'github-actions[bot]' },
      { target: 'review-comment:20', content: '+1', user: 'github-actions[bot]' },
    ]);

    expect(
      (await rejection(gh.rest.reactions.createForIssueComment({ owner: 'o', repo: 'r', comment_id: 999, content: 'eyes' }))).status,
    ).toBe(404);
    // Octokit's types only admit valid contents, so the invalid one goes over plain fetch.
    const bad = await fetch(`${sim.url}/repos/o/r/issues/comments/10/reactions`, {
      method: 'POST',
      headers: { authorization: `token ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'party' }),
    });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({
      message: 'Validation Failed',
      errors: [{ resource: 'Reaction', field: 'content', code: 'invalid' }],
    });
  });
});

describe('pull requests', () => {
  it('serves a fork pull request as JSON and as a diff', async () => {
    const sim = await start();
    const gh = client(sim);
    const { data: pr } = await gh.rest.pulls.get({ owner: 'o', repo: 'r', pull_number: 5 });
    expect(pr).toMatchObject({
      number: 5,
      title: 'Fix the crash',
      state: 'open',
      draft: false,
      html_url: 'https://github.com/o/r/pull/5',
      user: { login: 'mallory', type: 'User' },
      head: {
        ref: 'fix-crash',
        sha: 'a'.repeat(40),
        label: 'mallory:fix-crash',
        repo: { full_name: 'mallory/r', fork: true, clone_url: 'https://github.com/mallory/r.git' },
      },
      base: { ref: 'main', sha: 'b'.repeat(40), repo: { full_name: 'o/r', fork: false } },
      changed_files: 45,
    });

    const diff = await gh.rest.pulls.get({ owner: 'o', repo: 'r', pull_number: 5, mediaType: { format: 'diff' } });
    expect(diff.headers['content-type']).toBe('application/vnd.github.diff; charset=utf-8');
    expect(diff.data).toBe(PR_DIFF);
    expect((await rejection(gh.rest.pulls.get({ owner: 'o', repo: 'r', pull_number: 1 }))).status).toBe(404);
  });

  it('refuses the diff media type past 300 files with 406, as GitHub does, and lists 3,000 files at most', async () => {
    const sim = await start();
    const gh = client(sim);
    const files = Array.from({ length: 3100 }, (_, i) => ({
      filename: `d${i % 7}/f${i}.ts`,
      status: 'modified',
      additions: 1,
      deletions: 1,
    }));
    sim.issues.get(5)!.pull!.files = files;
    const refused = await rejection(gh.rest.pulls.get({ owner: 'o', repo: 'r', pull_number: 5, mediaType: { format: 'diff' } }));
    expect(refused.status).toBe(406);
    expect(JSON.stringify(refused.response?.data)).toContain('the diff exceeded the maximum number of files (300)');
    const listed = await gh.paginate(gh.rest.pulls.listFiles, { owner: 'o', repo: 'r', pull_number: 5, per_page: 100 });
    expect(listed).toHaveLength(3000);
    expect(listed.at(-1)!.filename).toBe('d3/f2999.ts');
    const { data: pr } = await gh.rest.pulls.get({ owner: 'o', repo: 'r', pull_number: 5 });
    expect(pr.changed_files).toBe(3100);
  });

  it('lists the files of a pull request across pages', async () => {
    const sim = await start();
    const gh = client(sim);
    const files = await gh.paginate(gh.rest.pulls.listFiles, { owner: 'o', repo: 'r', pull_number: 5 });
    expect(files).toHaveLength(45);
    expect(files[0]).toMatchObject({
      filename: 'src/f0.ts',
      status: 'added',
      additions: 1,
      deletions: 1,
      changes: 2,
      patch: '@@ -1 +1 @@\n-x0\n+y0',
    });
    expect(sim.requests.filter((r) => r.path.endsWith('/files'))).toHaveLength(2);
  });

  it('creates a pull request, rejects a duplicate with 422, and finds it by head', async () => {
    const sim = await start();
    const gh = client(sim);
    const { data, status } = await gh.rest.pulls.create({
      owner: 'o',
      repo: 'r',
      title: 'Agent fix',
      body: 'Closes #1',
      head: 'agent/fix-1',
      base: 'main',
      draft: true,
    });
    expect(status).toBe(201);
    expect(data).toMatchObject({
      number: 6,
      draft: true,
      html_url: 'https://github.com/o/r/pull/6',
      head: { ref: 'agent/fix-1', repo: { full_name: 'o/r' } },
      base: { ref: 'main' },
    });
    expect(sim.pullsCreated).toEqual([
      {
        number: 6,
        title: 'Agent fix',
        body: 'Closes #1',
        head: 'agent/fix-1',
        base: 'main',
        draft: true,
        html_url: 'https://github.com/o/r/pull/6',
      },
    ]);
    expect(sim.issues.get(6)?.pull?.headRef).toBe('agent/fix-1');

    const dup = await rejection(gh.rest.pulls.create({ owner: 'o', repo: 'r', title: 'Again', head: 'o:agent/fix-1', base: 'main' }));
    expect(dup.status).toBe(422);
    expect(dup.response?.data).toMatchObject({
      message: 'Validation Failed',
      errors: [{ resource: 'PullRequest', code: 'custom', message: 'A pull request already exists for o:agent/fix-1.' }],
      status: '422',
    });
    expect(dup.message).toContain('A pull request already exists for o:agent/fix-1.');

    const found = await gh.rest.pulls.list({ owner: 'o', repo: 'r', head: 'o:agent/fix-1', state: 'open' });
    expect(found.data.map((p) => p.number)).toEqual([6]);
    expect((await gh.rest.pulls.list({ owner: 'o', repo: 'r', head: 'mallory:fix-crash' })).data.map((p) => p.number)).toEqual([5]);
    expect((await gh.rest.pulls.list({ owner: 'o', repo: 'r', base: 'release' })).data).toEqual([]);
    expect((await gh.rest.pulls.list({ owner: 'o', repo: 'r', state: 'closed' })).data).toEqual([]);
  });

  it('lists review comments and replies in their thread', async () => {
    const sim = await start();
    const gh = client(sim);
    const { data: reply, status } = await gh.rest.pulls.createReplyForReviewComment({
      owner: 'o',
      repo: 'r',
      pull_number: 5,
      comment_id: 20,
      body: 'Because of the crash.',
    });
    expect(status).toBe(201);
    expect(reply).toMatchObject({ in_reply_to_id: 20, path: 'src/f1.ts', line: 1, user: { login: 'github-actions[bot]' } });
    expect(reply.html_url).toBe(`https://github.com/o/r/pull/5#discussion_r${reply.id}`);
    const { data: nested } = await gh.rest.pulls.createReplyForReviewComment({
      owner: 'o',
      repo: 'r',
      pull_number: 5,
      comment_id: reply.id,
      body: 'Also this.',
    });
    expect(nested.in_reply_to_id).toBe(20);

    const listed = await gh.paginate(gh.rest.pulls.listReviewComments, { owner: 'o', repo: 'r', pull_number: 5 });
    expect(listed.map((c) => [c.id, c.in_reply_to_id])).toEqual([
      [20, undefined],
      [reply.id, 20],
      [nested.id, 20],
    ]);
    expect(sim.issues.get(5)?.pull?.reviewComments).toHaveLength(3);
    expect(
      (await rejection(gh.rest.pulls.createReplyForReviewComment({ owner: 'o', repo: 'r', pull_number: 5, comment_id: 777, body: 'x' })))
        .status,
    ).toBe(404);
  });
});

describe('contents, check runs and job logs', () => {
  it('round-trips file contents through base64, per ref', async () => {
    const text = 'héllo wörld ✓\n'.repeat(20);
    const sim = await start({
      files: { main: { 'docs/README.md': text, 'docs/guide/a.md': 'a' }, feature: { 'docs/README.md': 'feature' } },
    });
    const gh = client(sim);
    const { data } = await gh.rest.repos.getContent({ owner: 'o', repo: 'r', path: 'docs/README.md' });
    if (Array.isArray(data) || data.type !== 'file') throw new Error('expected a file');
    expect(data).toMatchObject({
      type: 'file',
      encoding: 'base64',
      path: 'docs/README.md',
      name: 'README.md',
      size: Buffer.byteLength(text),
    });
    expect(data.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(Buffer.from(data.content, 'base64').toString('utf8')).toBe(text);

    const onBranch = await gh.rest.repos.getContent({ owner: 'o', repo: 'r', path: 'docs/README.md', ref: 'feature' });
    if (Array.isArray(onBranch.data) || onBranch.data.type !== 'file') throw new Error('expected a file');
    expect(Buffer.from(onBranch.data.content, 'base64').toString('utf8')).toBe('feature');

    const dir = await gh.rest.repos.getContent({ owner: 'o', repo: 'r', path: 'docs' });
    expect(Array.isArray(dir.data) ? dir.data.map((e) => [e.name, e.type]) : []).toEqual([
      ['guide', 'dir'],
      ['README.md', 'file'],
    ]);

    expect((await rejection(gh.rest.repos.getContent({ owner: 'o', repo: 'r', path: 'missing.md' }))).status).toBe(404);
    expect((await rejection(gh.rest.repos.getContent({ owner: 'o', repo: 'r', path: 'docs/README.md', ref: 'nope' }))).status).toBe(404);
  });

  it('lists check runs for a sha and serves job logs through a redirect', async () => {
    const sha = 'c'.repeat(40);
    const sim = await start({
      checkRuns: [
        {
          id: 301,
          name: 'test',
          head_sha: sha,
          status: 'completed',
          conclusion: 'failure',
          log: '2024-01-01T00:00:00Z FAIL src/a.test.ts\n',
        },
        { id: 302, name: 'lint', head_sha: sha, status: 'in_progress', conclusion: null },
        { id: 303, name: 'test', head_sha: 'd'.repeat(40), status: 'completed', conclusion: 'success' },
      ],
    });
    const gh = client(sim);
    const { data } = await gh.rest.checks.listForRef({ owner: 'o', repo: 'r', ref: sha });
    expect(data.total_count).toBe(2);
    expect(data.check_runs.map((r) => [r.id, r.name, r.status, r.conclusion])).toEqual([
      [301, 'test', 'completed', 'failure'],
      [302, 'lint', 'in_progress', null],
    ]);
    expect(data.check_runs[0]).toMatchObject({
      head_sha: sha,
      html_url: 'https://github.com/o/r/runs/301',
      details_url: 'https://github.com/o/r/runs/301',
    });

    const logs = await gh.rest.actions.downloadJobLogsForWorkflowRun({ owner: 'o', repo: 'r', job_id: 301 });
    expect(logs.status).toBe(200);
    expect(logs.data).toBe('2024-01-01T00:00:00Z FAIL src/a.test.ts\n');
    expect(sim.requests.slice(-2).map((r) => [r.path, r.status])).toEqual([
      ['/repos/o/r/actions/jobs/301/logs', 302],
      ['/_logs/301', 200],
    ]);
    expect((await rejection(gh.rest.actions.downloadJobLogsForWorkflowRun({ owner: 'o', repo: 'r', job_id: 302 }))).status).toBe(404);
  });
});

describe('faults', () => {
  it('applies an afterEffect 502: the comment exists once, the client sees 502', async () => {
    const sim = await start();
    sim.fail({ method: 'POST', path: /\/issues\/\d+\/comments$/, status: 502, afterEffect: true });
    const sink: LogSink = { warn: [], error: [] };
    const err = await rejection(
      client(sim, TOKEN, sink).rest.issues.createComment({ owner: 'o', repo: 'r', issue_number: 1, body: 'partial success' }),
    );
    expect(err.status).toBe(502);
    expect(err.response?.data).toMatchObject({ message: 'Server Error', status: '502' });
    expect(sim.issues.get(1)?.comments.filter((c) => c.body === 'partial success')).toHaveLength(1);
    expect(sim.requests.map((r) => [r.method, r.status])).toEqual([['POST', 502]]);
    expect(sink.error).toHaveLength(1);

    // A fault is used up after `times` matches.
    const ok = await client(sim).rest.issues.createComment({ owner: 'o', repo: 'r', issue_number: 1, body: 'second' });
    expect(ok.status).toBe(201);
  });

  it('answers a 5xx before the effect when afterEffect is not set, as many times as asked', async () => {
    const sim = await start();
    sim.fail({ path: /\/issues\/1$/, status: 503, times: 2 });
    const gh = client(sim);
    expect((await rejection(gh.rest.issues.get({ owner: 'o', repo: 'r', issue_number: 1 }))).status).toBe(503);
    expect((await rejection(gh.rest.issues.get({ owner: 'o', repo: 'r', issue_number: 1 }))).status).toBe(503);
    expect((await gh.rest.issues.get({ owner: 'o', repo: 'r', issue_number: 1 })).status).toBe(200);
  });

  it("has a secondary rate limit the action's client waits out as retry-after says", async () => {
    const sim = await start();
    sim.fail({
      path: /comments/,
      status: 403,
      message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
      headers: { 'retry-after': '1' },
    });
    const secondary: string[] = [];
    const gh = createGitHub({ token: TOKEN, baseUrl: sim.url, log: (m) => secondary.push(m) });
    const t0 = performance.now();
    const { data, status } = await gh.rest.issues.createComment({ owner: 'o', repo: 'r', issue_number: 1, body: 'after the limit' });
    const elapsed = performance.now() - t0;
    expect(status).toBe(201);
    expect(data.body).toBe('after the limit');
    expect(secondary.filter((m) => m.startsWith('GitHub'))).toEqual([expect.stringMatching(/secondary rate limit .*waiting 1s$/)]);
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(sim.requests.map((r) => r.status)).toEqual([403, 201]);
    const [limited, retried] = sim.requests;
    expect((retried?.at ?? 0) - (limited?.at ?? 0)).toBeGreaterThanOrEqual(950);
    expect(sim.issues.get(1)?.comments.filter((c) => c.body === 'after the limit')).toHaveLength(1);
  });
});

describe('who a token is', () => {
  const PAT = 'ghp_maintainer0123456789abcdefghijklmno';
  const MALLORY = 'ghp_mallory0123456789abcdefghijklmnopq';
  const as = (sim: GitHubSim, token: string) => new Octokit({ auth: token, baseUrl: sim.url, retry: { enabled: false } });

  it('answers GET /user with 403 for an installation token and with the user for a personal token', async () => {
    const sim = await start({ tokens: { [PAT]: human('octo-maintainer') } });
    await expect(as(sim, TOKEN).rest.users.getAuthenticated()).rejects.toMatchObject({
      status: 403,
      message: expect.stringContaining('Resource not accessible by integration'),
    });
    const { data } = await as(sim, PAT).rest.users.getAuthenticated();
    expect(data).toMatchObject({ login: 'octo-maintainer', type: 'User' });
    await expect(as(sim, 'ghp_unknown').rest.users.getAuthenticated()).rejects.toMatchObject({ status: 401 });
  });

  it('credits each comment, review and reaction to the user of the token that wrote it', async () => {
    const sim = await start({ tokens: { [MALLORY]: human('mallory') } });
    const where = { owner: 'o', repo: 'r' };
    await as(sim, MALLORY).rest.issues.createComment({ ...where, issue_number: 5, body: '<!-- agent-action --> mine' });
    await as(sim, TOKEN).rest.issues.createComment({ ...where, issue_number: 5, body: 'the action' });
    await as(sim, MALLORY).rest.pulls.createReview({ ...where, pull_number: 5, event: 'COMMENT', body: 'forged' });
    await as(sim, MALLORY).rest.reactions.createForIssue({ ...where, issue_number: 5, content: 'eyes' });
    const issue = sim.issues.get(5)!;
    expect(issue.comments.map((c) => c.user.login)).toEqual(['mallory', 'github-actions[bot]']);
    expect(issue.pull!.reviews!.at(-1)!.user.login).toBe('mallory');
    expect(sim.reactions.at(-1)).toMatchObject({ target: 'issue:5', user: 'mallory' });
    const listed = await as(sim, TOKEN).rest.issues.listComments({ ...where, issue_number: 5 });
    expect(listed.data.map((c) => c.user?.login)).toEqual(['mallory', 'github-actions[bot]']);
  });
});
