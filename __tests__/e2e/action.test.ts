import { jest } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import { commentPayload, labeledPayload, reviewCommentPayload, schedulePayload } from '../../test-support/action-payloads.js';
import { API_KEY, GH_TOKEN, makeWorld, OWNER, REPO, type World } from '../../test-support/action-world.js';
import type { ScriptedReply } from '../../test-support/anthropic-server.js';
import type { SimIssue } from '../../test-support/github-sim.js';

jest.setTimeout(60_000);

const MAIN = {
  'package.json': '{ "name": "calc", "type": "module", "scripts": { "test": "node --test" } }\n',
  'math.js': 'export function add(a, b) {\n  return a - b;\n}\n',
  'math.test.js':
    "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add } from './math.js';\n\ntest('adds', () => {\n  assert.equal(add(2, 3), 5);\n});\n",
  'AGENTS.md': 'Run `node --test` before finishing.\n',
};

const tool = (name: string, input: unknown): ScriptedReply => ({ content: [{ type: 'tool_use', name, input }] });
const text = (t: string): ScriptedReply => ({ content: [{ type: 'text', text: t }] });
const FIX: ScriptedReply[] = [
  tool('Bash', { command: 'node --test 2>&1 | tail -3' }),
  tool('TodoWrite', { todos: [{ content: 'Fix add()', status: 'in_progress', activeForm: 'Fixing add()' }] }),
  tool('Edit', { file_path: 'math.js', old_string: 'return a - b;', new_string: 'return a + b;' }),
  tool('Bash', { command: 'node --test 2>&1 | tail -3' }),
  text('Fixed `add()`: it subtracted. `node --test` now passes.'),
];

const alice = { login: 'alice', id: 501 };
let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

function issue(number: number, extra: Partial<SimIssue> = {}): SimIssue {
  return { number, title: 'add() is broken', body: 'The test fails.', user: { login: 'bob' }, comments: [], ...extra };
}

function trackingComments(w: World, number: number) {
  return (w.sim.issues.get(number)?.comments ?? []).filter((c) => c.body.includes('<!-- agent-action -->'));
}

/** The trigger comment exists on GitHub as well as in the event. */
function seen<T extends { comment: { id: number; body: string | null; created_at: string; updated_at: string } }>(
  w: World,
  number: number,
  payload: T,
): T {
  const c = payload.comment;
  w.sim.issues
    .get(number)!
    .comments.push({ id: c.id, body: c.body ?? '', user: { login: 'alice' }, created_at: c.created_at, updated_at: c.updated_at });
  return payload;
}

function firstPrompt(w: World): string {
  return JSON.stringify(w.model.requests[0]?.body.messages[0]?.content ?? '');
}

async function prWorld(
  opts: { fork?: boolean; script?: ScriptedReply[]; permissions?: Record<string, 'write' | 'read' | 'admin'> } = {},
): Promise<World> {
  const w = await makeWorld({
    main: MAIN,
    branches: { 'fix-math': { 'notes.md': 'wip\n' } },
    script: opts.script ?? FIX,
    sim: (heads) => ({
      permissions: opts.permissions ?? { alice: 'write' },
      files: { main: { 'AGENTS.md': MAIN['AGENTS.md'] } },
      checkRuns: [
        {
          id: 31,
          name: 'test (node 24)',
          head_sha: heads['fix-math']!,
          status: 'completed',
          conclusion: 'failure',
          log: 'setup ok\nnot ok 1 - adds\n  expected: 5\n  actual: -1\n',
        },
        { id: 32, name: 'lint', head_sha: heads['fix-math']!, status: 'completed', conclusion: 'success' },
      ],
    }),
  });
  const headSha = w.remoteGit(['rev-parse', 'fix-math']).trim();
  w.sim.issues.set(
    7,
    issue(7, {
      title: 'Work on math',
      pull: {
        headRef: 'fix-math',
        headSha,
        headRepoFullName: opts.fork ? 'mallory/calc' : `${OWNER}/${REPO}`,
        baseRef: 'main',
        files: [{ filename: 'notes.md', status: 'added', additions: 1, deletions: 0 }],
        diff: 'diff --git a/notes.md b/notes.md\n+wip\n',
      },
    }),
  );
  return w;
}

describe('the action (dist/index.js) on GitHub events', () => {
  it('PR comment by a writer: fixes the test and pushes to the PR branch', async () => {
    world = await prWorld();
    const r = await world.run({
      event: 'issue_comment',
      payload: seen(world, 7, commentPayload({ number: 7, body: '/agent fix the failing test', by: alice, onPull: true })),
    });
    expect(r.code).toBe(0);
    expect(r.outputs['conclusion']).toBe('success');
    const head = world.remoteGit(['rev-parse', 'fix-math']).trim();
    expect(r.outputs['commit-sha']).toBe(head);
    expect(r.outputs['branch']).toBe('fix-math');
    const log = world.remoteGit(['log', '-1', '--format=%an <%ae>%n%B', 'fix-math']);
    expect(log).toMatch(/^github-actions\[bot\] <41898282\+github-actions\[bot\]@users\.noreply\.github\.com>/);
    expect(log).toMatch(/agent: fix the failing test/);
    expect(log).toMatch(/Co-authored-by: alice <501\+alice@users\.noreply\.github\.com>/);
    expect(world.remoteGit(['show', 'fix-math:math.js'])).toMatch(/return a \+ b;/);
    expect(world.remoteGit(['show', 'fix-math:notes.md'])).toBe('wip\n');

    const comments = trackingComments(world, 7);
    expect(comments).toHaveLength(1);
    const final = comments[0]!.body;
    expect(final).toMatch(/Fixed `add\(\)`/);
    expect(final).toMatch(/```diff[\s\S]*-  return a - b;[\s\S]*\+  return a \+ b;/);
    expect(final).toContain(head.slice(0, 7));
    expect(final).toMatch(/5 steps/);
    expect(final).toMatch(/actions\/runs\/4242/);
    expect(r.outputs['comment-url']).toMatch(/issuecomment-/);
    expect(world.sim.reactions).toContainEqual(expect.objectContaining({ target: 'comment:900001', content: 'eyes' }));
    expect(Number(r.outputs['steps'])).toBe(5);
    expect(Number(r.outputs['cost-usd'])).toBeGreaterThan(0);
    expect(await readFile(r.outputs['transcript']!, 'utf8')).toMatch(/"event":"conclusion"/);
    expect(r.summary).toMatch(/\| *Conclusion *\| *✅ `success`/);
    expect(firstPrompt(world)).toMatch(/fix the failing test/);
    expect(firstPrompt(world)).toMatch(/notes\.md \(added, \+1 -0\)/);
    expect(firstPrompt(world)).toMatch(/AGENTS\.md/);
    expect(firstPrompt(world)).toMatch(/Failing checks.*test \(node 24\): failure.*not ok 1 - adds/);
    expect(firstPrompt(world)).not.toMatch(/lint/);
    expect(world.model.validationErrors).toEqual([]);
  });

  it('issue comment: pushes a new branch and opens a pull request that closes the issue', async () => {
    world = await makeWorld({ main: MAIN, script: FIX, sim: { permissions: { alice: 'admin' } } });
    world.sim.issues.set(3, issue(3));
    const r = await world.run({
      event: 'issue_comment',
      payload: commentPayload({ number: 3, body: 'Could you take this? /agent fix it please', by: alice, onPull: false }),
    });
    expect(r.outputs['conclusion']).toBe('success');
    expect(r.outputs['branch']).toBe('agent/issue-3-add-is-broken');
    expect(world.remoteGit(['show', 'agent/issue-3-add-is-broken:math.js'])).toMatch(/a \+ b/);
    expect(world.sim.pullsCreated).toHaveLength(1);
    const pr = world.sim.pullsCreated[0]!;
    expect(pr).toMatchObject({ head: 'agent/issue-3-add-is-broken', base: 'main', draft: false });
    expect(pr.body).toMatch(/Closes #3/);
    expect(r.outputs['pr-url']).toBe(pr.html_url);
    expect(trackingComments(world, 3)[0]!.body).toContain(pr.html_url);
  });

  it('label trigger: runs on the labeled issue and opens a draft pull request when asked', async () => {
    world = await makeWorld({ main: MAIN, script: FIX, sim: { permissions: { alice: 'maintain' } } });
    world.sim.issues.set(4, issue(4));
    const r = await world.run({
      event: 'issues',
      payload: labeledPayload({ number: 4, label: 'agent', by: alice, title: 'add() is broken', body: 'Please fix' }),
      inputs: { 'label-trigger': 'agent', 'pull-request': 'draft' },
    });
    expect(r.outputs['conclusion']).toBe('success');
    expect(world.sim.pullsCreated[0]).toMatchObject({ draft: true });
    expect(firstPrompt(world)).toMatch(/add\(\) is broken/);
  });

  it('review comment: puts path, line and hunk in the task and answers in the thread', async () => {
    world = await prWorld({ script: [text('That line is fine: `notes.md` is a draft note.')] });
    const headSha = world.remoteGit(['rev-parse', 'fix-math']).trim();
    const pull = world.sim.issues.get(7)!.pull!;
    pull.reviewComments = [
      {
        id: 555,
        body: '/agent is this line right?',
        user: { login: 'alice' },
        path: 'notes.md',
        line: 1,
        diff_hunk: '@@ -0,0 +1 @@\n+wip',
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      },
    ];
    const r = await world.run({
      event: 'pull_request_review_comment',
      payload: reviewCommentPayload({
        number: 7,
        body: '/agent is this line right?',
        by: alice,
        path: 'notes.md',
        line: 1,
        diffHunk: '@@ -0,0 +1 @@\n+wip',
        headRef: 'fix-math',
        headSha,
        commentId: 555,
      }),
    });
    expect(r.outputs['conclusion']).toBe('success');
    expect(firstPrompt(world)).toMatch(/notes\.md line 1/);
    expect(firstPrompt(world)).toMatch(/@@ -0,0 \+1 @@/);
    const replies = pull.reviewComments.filter((c) => c.in_reply_to_id === 555);
    expect(replies).toHaveLength(1);
    expect(replies[0]!.body).toMatch(/That line is fine/);
    expect(trackingComments(world, 7)).toHaveLength(0);
    expect(world.sim.reactions).toContainEqual(expect.objectContaining({ target: 'review-comment:555', content: 'eyes' }));
  });

  it('schedule with a prompt: new branch agent/run-<id>, a pull request and a job summary', async () => {
    world = await makeWorld({ main: MAIN, script: FIX, sim: { permissions: {} } });
    const r = await world.run({ event: 'schedule', payload: schedulePayload(), inputs: { prompt: 'Fix any failing test.' }, runId: '777' });
    if (r.outputs['conclusion'] !== 'success') console.log(r.stdout, r.stderr);
    expect(r.outputs['conclusion']).toBe('success');
    expect(r.outputs['branch']).toBe('agent/run-777');
    expect(world.sim.pullsCreated[0]).toMatchObject({ head: 'agent/run-777' });
    expect(r.summary).toMatch(/Fixed `add\(\)`/);
    expect(r.summary).toMatch(/math\.js/);
  });

  it('refuses a user without write permission: no model call, no comment, no push', async () => {
    world = await prWorld({ permissions: { alice: 'read' } });
    const r = await world.run({
      event: 'issue_comment',
      payload: commentPayload({ number: 7, body: '/agent fix it', by: alice, onPull: true }),
    });
    expect(r.code).toBe(0);
    expect(r.outputs['conclusion']).toBe('unauthorized');
    expect(world.model.requests).toHaveLength(0);
    expect(trackingComments(world, 7)).toHaveLength(0);
    expect(world.sim.requests.filter((q) => q.method !== 'GET')).toHaveLength(0);
  });

  it('refuses a bot that is not listed in allowed-bots, and accepts one that is', async () => {
    world = await prWorld({ script: [text('Hello bot.')] });
    const bot = { login: 'helper[bot]', type: 'Bot' as const };
    const refused = await world.run({
      event: 'issue_comment',
      payload: commentPayload({ number: 7, body: '/agent hi', by: bot, onPull: true }),
    });
    expect(refused.outputs['conclusion']).toBe('unauthorized');
    expect(world.model.requests).toHaveLength(0);
    const allowed = await world.run({
      event: 'issue_comment',
      payload: commentPayload({ number: 7, body: '/agent hi', by: bot, onPull: true }),
      inputs: { 'allowed-bots': 'helper' },
    });
    expect(allowed.outputs['conclusion']).toBe('success');
  });

  it('skips a comment without the trigger phrase at once', async () => {
    world = await prWorld();
    const r = await world.run({
      event: 'issue_comment',
      payload: commentPayload({ number: 7, body: 'Our /agents page is down, see https://x.test/agent', by: alice, onPull: true }),
    });
    expect(r.code).toBe(0);
    expect(r.outputs['conclusion']).toBe('skipped');
    expect(world.sim.requests).toHaveLength(0);
    expect(world.model.requests).toHaveLength(0);
  });

  it('fork PR: works on the PR code, pushes nothing, posts the diff', async () => {
    world = await prWorld({ fork: true });
    const before = world.remoteGit(['for-each-ref', '--format=%(refname) %(objectname)']);
    world.remoteGit(['update-ref', 'refs/pull/7/head', 'fix-math']);
    const r = await world.run({
      event: 'issue_comment',
      payload: commentPayload({ number: 7, body: '/agent fix the failing test', by: alice, onPull: true }),
    });
    expect(r.outputs['conclusion']).toBe('success');
    expect(r.outputs['branch']).toBe('');
    expect(r.outputs['commit-sha']).toBe('');
    const after = world.remoteGit(['for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads']);
    expect(before).toContain(after.trim());
    const final = trackingComments(world, 7)[0]!.body;
    expect(final).toMatch(/fork/i);
    expect(final).toMatch(/\+  return a \+ b;/);
  });

  it('re-run of the same workflow run updates the same tracking comment', async () => {
    world = await prWorld({ script: [text('First answer.'), text('Second answer.')] });
    const payload = commentPayload({ number: 7, body: '/agent explain', by: alice, onPull: true });
    await world.run({ event: 'issue_comment', payload, runId: '9000', attempt: '1' });
    const r = await world.run({ event: 'issue_comment', payload, runId: '9000', attempt: '2' });
    expect(r.outputs['conclusion']).toBe('success');
    const comments = trackingComments(world, 7);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toMatch(/Second answer/);
    expect(comments[0]!.body).toMatch(/attempts\/2/);
  });

  it('never shows the API key or the token in what it posts or logs', async () => {
    world = await prWorld({
      script: [tool('Bash', { command: 'env; cat .git/config' }), text(`My key might be ${API_KEY} and ${GH_TOKEN}`)],
    });
    const r = await world.run({
      event: 'issue_comment',
      payload: commentPayload({ number: 7, body: '/agent leak', by: alice, onPull: true }),
    });
    // `::add-mask::` lines are how the runner learns what to mask; everything else must be clean.
    const log = (r.stdout + r.stderr)
      .split('\n')
      .filter((l) => !l.startsWith('::add-mask::'))
      .join('\n');
    expect(r.stdout).toContain(`::add-mask::${API_KEY}`);
    const posted = JSON.stringify([...world.sim.issues.values()]) + r.summary + JSON.stringify(r.outputs) + log;
    expect(posted).not.toContain(API_KEY);
    expect(posted).not.toContain(GH_TOKEN);
    expect(JSON.stringify(world.model.requests.map((q) => q.body.messages))).not.toContain(GH_TOKEN);
  });
});
