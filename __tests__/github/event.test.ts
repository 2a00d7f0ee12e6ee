import { parseEvent, type GitHubEvent } from '../../src/github/event.js';
import { issueCommentOnPull, loadExample } from '../../test-support/webhooks.js';

const helloWorld = {
  owner: 'Codertocat',
  name: 'Hello-World',
  fullName: 'Codertocat/Hello-World',
  defaultBranch: 'master',
  private: false,
};
const codertocat = { login: 'Codertocat', type: 'User', id: 21031067 };

type EventOf<K extends GitHubEvent['kind']> = Extract<GitHubEvent, { kind: K }>;

function isKind<K extends GitHubEvent['kind']>(event: GitHubEvent, kind: K): event is EventOf<K> {
  return event.kind === kind;
}

/** The event narrowed to one kind, failing the test when it is another. */
function expectKind<K extends GitHubEvent['kind']>(event: GitHubEvent, kind: K): EventOf<K> {
  expect(event.kind).toBe(kind);
  if (!isKind(event, kind)) throw new Error(`expected ${kind}, got ${event.kind}`);
  return event;
}

describe('parseEvent on real webhook payloads', () => {
  test('an issue comment on an issue keeps the repository, sender, issue and comment', () => {
    const event = expectKind(
      parseEvent(
        'issue_comment',
        loadExample('issue_comment', (p) => p.action === 'created'),
      ),
      'issue_comment',
    );
    expect(event.action).toBe('created');
    expect(event.repo).toEqual(helloWorld);
    expect(event.sender).toEqual(codertocat);
    expect(event.issue).toEqual({
      number: 1,
      title: 'Spelling error in the README file',
      body: "It looks like you accidently spelled 'commit' with two 't's.",
      user: codertocat,
      labels: ['bug'],
      isPullRequest: false,
      htmlUrl: 'https://github.com/Codertocat/Hello-World/issues/1',
      updatedAt: '2019-05-15T15:20:21Z',
    });
    expect(event.comment).toEqual({
      id: 492700400,
      body: "You are totally right! I'll get this fixed right away.",
      user: codertocat,
      createdAt: '2019-05-15T15:20:21Z',
      updatedAt: '2019-05-15T15:20:21Z',
      htmlUrl: 'https://github.com/Codertocat/Hello-World/issues/1#issuecomment-492700400',
    });
  });

  test('an issue comment on a pull request is marked as on a pull request', () => {
    const event = expectKind(parseEvent('issue_comment', issueCommentOnPull()), 'issue_comment');
    expect(event.issue.isPullRequest).toBe(true);
    expect(event.issue.number).toBe(1);
  });

  test('an opened issue with a null body reads as an empty body', () => {
    const event = expectKind(
      parseEvent(
        'issues',
        loadExample('issues', (p) => p.action === 'opened' && p.issue.body === null),
      ),
      'issues',
    );
    expect(event.action).toBe('opened');
    expect(event.issue.body).toBe('');
    expect(event.issue.title).toBe('Spelling error in the README file');
    expect(event.label).toBeUndefined();
    expect(event.assignee).toBeUndefined();
  });

  test('a labeled issue names the label that was added', () => {
    const event = expectKind(
      parseEvent(
        'issues',
        loadExample('issues', (p) => p.action === 'labeled'),
      ),
      'issues',
    );
    expect(event.action).toBe('labeled');
    expect(event.label).toBe('bug');
  });

  test('an assigned issue names the login that was assigned', () => {
    const event = expectKind(
      parseEvent(
        'issues',
        loadExample('issues', (p) => p.action === 'assigned'),
      ),
      'issues',
    );
    expect(event.action).toBe('assigned');
    expect(event.assignee).toBe('Codertocat');
  });

  test('a review comment keeps its file, line, diff hunk and the pull request branches', () => {
    const payload = loadExample('pull_request_review_comment', (p) => p.action === 'created' && p.comment.line === 265);
    const event = expectKind(parseEvent('pull_request_review_comment', payload), 'pull_request_review_comment');
    expect(event.comment).toMatchObject({
      id: 284312630,
      body: 'Maybe you should use more emoji on this line.',
      path: 'README.md',
      line: 265,
      startLine: null,
      diffHunk: '@@ -1 +1 @@\n-# Hello-World',
      inReplyToId: null,
      htmlUrl: 'https://github.com/Codertocat/Hello-World/pull/2#discussion_r284312630',
    });
    expect(event.pull).toMatchObject({
      number: 2,
      headRef: 'changes',
      headSha: 'ec26c3e57ca3a959ca5aad62de7213c562f8c821',
      headRepoFullName: 'Codertocat/Hello-World',
      baseRef: 'master',
      baseSha: 'f95f852bd8fca8fcc58a9a2d6c842781e32a215e',
      isFork: false,
      draft: false,
      user: codertocat,
    });
  });

  test('a review comment from an old payload without line numbers reads them as null', () => {
    const payload = loadExample('pull_request_review_comment', (p) => p.comment.line === undefined);
    const event = expectKind(parseEvent('pull_request_review_comment', payload), 'pull_request_review_comment');
    expect(event.comment.line).toBeNull();
    expect(event.comment.startLine).toBeNull();
  });

  test('a submitted review with a null body reads as an empty body', () => {
    const event = expectKind(
      parseEvent(
        'pull_request_review',
        loadExample('pull_request_review', (p) => p.action === 'submitted'),
      ),
      'pull_request_review',
    );
    expect(event.action).toBe('submitted');
    expect(event.review).toEqual({
      id: 237895671,
      body: '',
      user: codertocat,
      state: 'commented',
      submittedAt: '2019-05-15T15:20:38Z',
      htmlUrl: 'https://github.com/Codertocat/Hello-World/pull/2#pullrequestreview-237895671',
    });
    expect(event.pull.number).toBe(2);
  });

  test('an opened pull request keeps title, body and branches', () => {
    const event = expectKind(
      parseEvent(
        'pull_request',
        loadExample('pull_request', (p) => p.action === 'opened'),
      ),
      'pull_request',
    );
    expect(event.repo).toEqual(helloWorld);
    expect(event.pull).toMatchObject({
      number: 2,
      title: 'Update the README with new information.',
      body: 'This is a pretty simple change that we need to pull into master.',
      headRef: 'changes',
      baseRef: 'master',
      isFork: false,
      htmlUrl: 'https://github.com/Codertocat/Hello-World/pull/2',
      updatedAt: '2019-05-15T15:20:33Z',
    });
  });

  test('a pull request from another repository is a fork, and so is one whose head repository is gone', () => {
    const fromFork = loadExample('pull_request', (p) => p.action === 'opened');
    const head = fromFork.pull_request.head;
    fromFork.pull_request.head = { ...head, repo: head.repo && { ...head.repo, full_name: 'stranger/Hello-World' } };
    expect(expectKind(parseEvent('pull_request', fromFork), 'pull_request').pull).toMatchObject({
      isFork: true,
      headRepoFullName: 'stranger/Hello-World',
    });

    const deleted = loadExample('pull_request', (p) => p.action === 'opened');
    deleted.pull_request.head = { ...deleted.pull_request.head, repo: null };
    expect(expectKind(parseEvent('pull_request', deleted), 'pull_request').pull).toMatchObject({ isFork: true, headRepoFullName: '' });
  });

  test.each(['push', 'workflow_dispatch', 'repository_dispatch'] as const)(
    '%s is an automation event with repository and sender',
    (name) => {
      const event = expectKind(parseEvent(name, loadExample(name)), 'automation');
      expect(event.name).toBe(name);
      expect(event.repo?.fullName).toMatch(/^[\w-]+\/[\w-]+$/);
      expect(event.repo?.owner).toBe(event.repo?.fullName.split('/')[0]);
      expect(event.sender?.type).toBe('User');
    },
  );

  test('workflow_dispatch reads the repository of the dispatch', () => {
    const event = expectKind(parseEvent('workflow_dispatch', loadExample('workflow_dispatch')), 'automation');
    expect(event.repo).toEqual({
      owner: 'octo-org',
      name: 'octo-repo',
      fullName: 'octo-org/octo-repo',
      defaultBranch: 'main',
      private: false,
    });
    expect(event.sender).toEqual({ login: 'octocat', type: 'User', id: 25328754 });
  });

  test('a schedule payload has neither repository nor sender', () => {
    expect(parseEvent('schedule', { schedule: '0 0 * * *' })).toEqual({ kind: 'automation', name: 'schedule', repo: null, sender: null });
  });

  test('an event the action does not handle is "other", with repository and sender when present', () => {
    const event = expectKind(parseEvent('workflow_run', loadExample('workflow_run')), 'other');
    expect(event.name).toBe('workflow_run');
    expect(event.repo).toEqual({ ...helloWorld, defaultBranch: 'main', private: true });
    expect(event.sender?.login).toBe('Codertocat');
  });
});

describe('parseEvent on payloads of an unexpected shape', () => {
  test('a known event whose payload does not fit falls back to "other" and keeps what it can', () => {
    const payload = { ...loadExample('issue_comment'), comment: 'not an object' };
    const event = expectKind(parseEvent('issue_comment', payload), 'other');
    expect(event.name).toBe('issue_comment');
    expect(event.repo).toEqual(helloWorld);
    expect(event.sender).toEqual(codertocat);
  });

  test.each([null, undefined, 'text', 42, [], {}])('payload %p gives "other" without repository or sender', (payload) => {
    expect(parseEvent('issues', payload)).toEqual({ kind: 'other', name: 'issues', repo: null, sender: null });
  });

  test('a sender without a type is a bot when its login says so', () => {
    const payload = loadExample('issue_comment');
    const sender: Record<string, unknown> = { ...payload.sender, login: 'renovate[bot]' };
    delete sender['type'];
    expect(parseEvent('issue_comment', { ...payload, sender }).sender?.type).toBe('Bot');
  });
});
