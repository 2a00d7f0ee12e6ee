import { parseEvent, type GitHubEvent } from '../../src/github/event.js';
import { TRACKING_MARKER } from '../../src/core/markers.js';
import {
  containsTriggerPhrase,
  findTrigger,
  taskAfterPhrase,
  type Trigger,
  type TriggerDecision,
  type TriggerSettings,
} from '../../src/github/trigger.js';
import { issueCommentOnPull, loadExample } from '../../test-support/webhooks.js';

const settings: TriggerSettings = { triggerPhrase: '/agent', labelTrigger: '', assigneeTrigger: '', prompt: '' };
const codertocat = { login: 'Codertocat', type: 'User', id: 21031067 };

function triggered(decision: TriggerDecision): Trigger {
  if (!decision.run) throw new Error(`expected a run, got: ${decision.reason}`);
  return decision.trigger;
}

function refused(decision: TriggerDecision): string {
  if (decision.run) throw new Error(`expected no run, got a ${decision.trigger.source} trigger`);
  return decision.reason;
}

function issueComment(body: string, action = 'created'): GitHubEvent {
  const payload = loadExample('issue_comment', (p) => p.action === 'created');
  payload.comment.body = body;
  return parseEvent('issue_comment', { ...payload, action });
}

function reviewComment(body: string, action = 'created'): GitHubEvent {
  const payload = loadExample('pull_request_review_comment', (p) => p.action === 'created' && p.comment.line === 265);
  payload.comment.body = body;
  return parseEvent('pull_request_review_comment', { ...payload, action });
}

function review(body: string, action = 'submitted'): GitHubEvent {
  const payload = loadExample('pull_request_review', (p) => p.action === 'submitted');
  return parseEvent('pull_request_review', { ...payload, action, review: { ...payload.review, body } });
}

function openedIssue(title: string, body: string | null): GitHubEvent {
  const payload = loadExample('issues', (p) => p.action === 'opened');
  return parseEvent('issues', { ...payload, issue: { ...payload.issue, title, body } });
}

const ISSUE_TASK = "Spelling error in the README file\n\nIt looks like you accidently spelled 'commit' with two 't's.";

describe('the trigger phrase counts only as a word of the writer’s own prose', () => {
  test.each([
    ['/agent fix the test', true],
    ['please /agent', true],
    ['can you help? /agent', true],
    ['(/agent)', true],
    ['/AGENT fix it', true],
    ['**/agent** fix it', true],
    ['/agent, fix this', true],
    ['/agent: fix this', true],
    ['done yet /agent.', true],
    ['thanks!\n\n/agent fix the build', true],
    ['- [ ] /agent update the docs', true],
    ['"/agent" is how you ask', true],
    ['> a quote\n\n/agent answer it', true],
    ['`inline` then /agent', true],
    ['/agents', false],
    ['/agent_v2 fix', false],
    ['x/agent fix', false],
    ['foo.com/agent', false],
    ['~/agent', false],
    ['/agent/sub', false],
    ['/agent.js is the file', false],
    ['/agent-bot fix', false],
    ['see https://x.com/agent', false],
    ['see https://example.com/?q=/agent', false],
    ['use `/agent fix` to ask', false],
    ['use `` a ` /agent ` b `` to ask', false],
    ['```\n/agent fix\n```', false],
    ['~~~md\n/agent fix\n~~~', false],
    ['```\nan unterminated fence\n/agent fix', false],
    ['- item\n  ```\n  /agent fix\n  ```', false],
    ['> /agent fix this', false],
    ['  > > nested /agent quote', false],
    ['<!-- /agent fix -->', false],
    ['', false],
  ])('%p -> %p', (text, expected) => {
    expect(containsTriggerPhrase(text, '/agent')).toBe(expected);
  });

  test('regex characters in the phrase are taken literally', () => {
    expect(containsTriggerPhrase('a.b do it', 'a.b')).toBe(true);
    expect(containsTriggerPhrase('axb do it', 'a.b')).toBe(false);
    expect(containsTriggerPhrase('@bot+ (go)', '@bot+')).toBe(true);
    expect(containsTriggerPhrase('@bottt', '@bot+')).toBe(false);
  });

  test('a phrase of several words matches across any whitespace, and an empty phrase never matches', () => {
    expect(containsTriggerPhrase('Hey\n  Agent, fix it', 'hey agent')).toBe(true);
    expect(containsTriggerPhrase('hey agents', 'hey agent')).toBe(false);
    expect(containsTriggerPhrase('anything', '  ')).toBe(false);
  });

  test('many unmatched backticks are read quickly', () => {
    const text = `${'`a '.repeat(30000)} /agent go`;
    const started = Date.now();
    expect(containsTriggerPhrase(text, '/agent')).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('the task is what follows the phrase', () => {
  test.each([
    ['/agent fix the failing test', 'fix the failing test'],
    ['  /agent   fix it  ', 'fix it'],
    ['/agent: rename foo', 'rename foo'],
    ['/agent\n\nplease rename foo\nand bar', 'please rename foo\nand bar'],
    ['/agent', ''],
    ['please /agent fix the test', 'please /agent fix the test'],
    ['`/agent` quoted first\n/agent fix', '`/agent` quoted first\n/agent fix'],
    ['no phrase at all', 'no phrase at all'],
  ])('%p -> %p', (text, task) => {
    expect(taskAfterPhrase(text, '/agent')).toBe(task);
  });
});

describe('findTrigger: comments', () => {
  test('a new issue comment with the phrase asks for the text after it, on the issue', () => {
    const trigger = triggered(findTrigger(issueComment('/agent fix the typo'), settings));
    expect(trigger).toEqual({
      source: 'comment',
      task: 'fix the typo',
      requester: codertocat,
      target: { type: 'issue', number: 1 },
      commentId: 492700400,
      triggerTime: '2019-05-15T15:20:21Z',
    });
  });

  test('a comment on a pull request targets the pull request', () => {
    const payload = issueCommentOnPull();
    payload.comment.body = 'please /agent rebase this';
    const trigger = triggered(findTrigger(parseEvent('issue_comment', payload), settings));
    expect(trigger.target).toEqual({ type: 'pull', number: 1 });
    expect(trigger.task).toBe('please /agent rebase this');
  });

  test('a comment without the phrase does not run', () => {
    expect(refused(findTrigger(issueComment("You are totally right! I'll get this fixed right away."), settings))).toBe(
      'no trigger phrase in the comment',
    );
  });

  test('an edited or deleted comment does not run, even with the phrase', () => {
    expect(refused(findTrigger(issueComment('/agent fix', 'edited'), settings))).toMatch(/edited/);
    expect(refused(findTrigger(issueComment('/agent fix', 'deleted'), settings))).toMatch(/deleted/);
    expect(refused(findTrigger(reviewComment('/agent fix', 'edited'), settings))).toMatch(/edited/);
  });

  test("the action's own comment never runs, not even with a prompt set", () => {
    const own = issueComment(`${TRACKING_MARKER}\n/agent fix the typo`);
    expect(refused(findTrigger(own, settings))).toMatch(/own comment/);
    expect(refused(findTrigger(own, { ...settings, prompt: 'triage' }))).toMatch(/own comment/);
    expect(refused(findTrigger(review(`/agent again\n${TRACKING_MARKER}`), settings))).toMatch(/own comment/);
  });

  test("a copied marker in someone else's comment does not stop it: only the action's identity writes its comments", () => {
    const copied = issueComment(`${TRACKING_MARKER}\n/agent fix the typo`);
    const author = copied.kind === 'issue_comment' ? copied.comment.user.login : '';
    expect(triggered(findTrigger(copied, settings, 'github-actions[bot]')).task).toMatch(/fix the typo$/);
    expect(refused(findTrigger(copied, settings, author.toUpperCase()))).toMatch(/own comment/);
    // Who the action is could not be found: a marked text is taken for its own, so it never answers itself.
    expect(refused(findTrigger(copied, settings, null))).toMatch(/own comment/);
    expect(triggered(findTrigger(review(`/agent again\n${TRACKING_MARKER}`), settings, 'octo-maintainer')).task).toMatch(/^again/);
  });

  test('a review comment asks on the pull request and names the comment to answer', () => {
    const trigger = triggered(findTrigger(reviewComment('/agent use a constant here'), settings));
    expect(trigger).toEqual({
      source: 'review-comment',
      task: 'use a constant here',
      requester: codertocat,
      target: { type: 'pull', number: 2 },
      reviewCommentId: 284312630,
      triggerTime: '2019-05-15T15:20:37Z',
    });
  });

  test('a submitted review with the phrase in its body runs; a dismissed one does not', () => {
    const trigger = triggered(findTrigger(review('Looks close.\n\n/agent address the nits'), settings));
    expect(trigger).toMatchObject({
      source: 'review',
      task: 'Looks close.\n\n/agent address the nits',
      requester: codertocat,
      target: { type: 'pull', number: 2 },
      triggerTime: '2019-05-15T15:20:38Z',
    });
    expect(refused(findTrigger(review('/agent fix', 'dismissed'), settings))).toMatch(/dismissed/);
    expect(refused(findTrigger(review(''), settings))).toBe('no trigger phrase in the review');
  });
});

describe('findTrigger: issues', () => {
  test('an issue opened with the phrase in its body asks for what follows it', () => {
    const trigger = triggered(findTrigger(openedIssue('Typo', '/agent fix the spelling of commit'), settings));
    expect(trigger).toEqual({
      source: 'issue-body',
      task: 'fix the spelling of commit',
      requester: codertocat,
      target: { type: 'issue', number: 1 },
      triggerTime: '2019-05-15T15:20:18Z',
    });
  });

  test('the phrase in the title counts; a bare phrase asks for the issue itself', () => {
    expect(triggered(findTrigger(openedIssue('/agent add dark mode', null), settings)).task).toBe('add dark mode');
    expect(triggered(findTrigger(openedIssue('Typo', '/agent'), settings)).task).toBe('Typo\n\n/agent');
    expect(triggered(findTrigger(openedIssue('/agent', 'Rename foo to bar.'), settings)).task).toBe('/agent\n\nRename foo to bar.');
  });

  test('the phrase mid-body asks for the whole body', () => {
    const body = 'The README says comit.\n\n/agent';
    expect(triggered(findTrigger(openedIssue('Typo', body), settings)).task).toBe(body);
  });

  test('an issue opened without the phrase, or carrying the marker, does not run', () => {
    expect(refused(findTrigger(openedIssue('Typo', 'please fix'), settings))).toBe('no trigger phrase in the issue title or body');
    expect(refused(findTrigger(openedIssue('Typo', `/agent fix\n${TRACKING_MARKER}`), settings))).toMatch(/own comment/);
  });

  test('adding the label trigger asks for the issue, on behalf of whoever labeled it', () => {
    const labeled = parseEvent(
      'issues',
      loadExample('issues', (p) => p.action === 'labeled'),
    );
    const trigger = triggered(findTrigger(labeled, { ...settings, labelTrigger: 'BUG' }));
    expect(trigger).toEqual({
      source: 'label',
      task: ISSUE_TASK,
      requester: codertocat,
      target: { type: 'issue', number: 1 },
      triggerTime: '2019-05-15T15:20:18Z',
    });
    expect(refused(findTrigger(labeled, settings))).toBe('label-trigger is not set');
    expect(refused(findTrigger(labeled, { ...settings, labelTrigger: 'agent' }))).toBe('label "bug" is not the label trigger "agent"');
  });

  test('assigning the assignee trigger asks for the issue', () => {
    const assigned = parseEvent(
      'issues',
      loadExample('issues', (p) => p.action === 'assigned'),
    );
    const trigger = triggered(findTrigger(assigned, { ...settings, assigneeTrigger: '@codertocat' }));
    expect(trigger).toMatchObject({ source: 'assignee', task: ISSUE_TASK, requester: codertocat, target: { type: 'issue', number: 1 } });
    expect(refused(findTrigger(assigned, settings))).toBe('assignee-trigger is not set');
    expect(refused(findTrigger(assigned, { ...settings, assigneeTrigger: 'agent-bot' }))).toMatch(/not the assignee trigger/);
  });

  test('other issue actions do not run', () => {
    const closed = parseEvent(
      'issues',
      loadExample('issues', (p) => p.action === 'edited'),
    );
    expect(refused(findTrigger(closed, { ...settings, labelTrigger: 'bug' }))).toBe('issues edited does not start a run');
  });
});

describe('findTrigger: the prompt input', () => {
  const withPrompt = { ...settings, prompt: '  Update the changelog  ' };

  test('a schedule runs the prompt on the repository with no requester', () => {
    expect(triggered(findTrigger(parseEvent('schedule', { schedule: '0 0 * * *' }), withPrompt))).toEqual({
      source: 'prompt',
      task: 'Update the changelog',
      requester: null,
      target: { type: 'repo' },
    });
  });

  test.each(['push', 'workflow_dispatch', 'repository_dispatch'] as const)('%s runs the prompt on behalf of the sender', (name) => {
    const trigger = triggered(findTrigger(parseEvent(name, loadExample(name)), withPrompt));
    expect(trigger).toMatchObject({ source: 'prompt', task: 'Update the changelog', target: { type: 'repo' } });
    expect(trigger.requester?.type).toBe('User');
  });

  test('an event about an issue or pull request targets it, phrase or not', () => {
    expect(triggered(findTrigger(issueComment('just a remark'), withPrompt)).target).toEqual({ type: 'issue', number: 1 });
    expect(triggered(findTrigger(issueComment('edited remark', 'edited'), withPrompt)).source).toBe('prompt');
    const pull = parseEvent(
      'pull_request',
      loadExample('pull_request', (p) => p.action === 'opened'),
    );
    expect(triggered(findTrigger(pull, withPrompt))).toMatchObject({ target: { type: 'pull', number: 2 }, requester: codertocat });
    const other = parseEvent('workflow_run', loadExample('workflow_run'));
    expect(triggered(findTrigger(other, withPrompt)).target).toEqual({ type: 'repo' });
  });

  test('without a prompt, pull requests, automation and unknown events do not run', () => {
    const pull = parseEvent(
      'pull_request',
      loadExample('pull_request', (p) => p.action === 'opened'),
    );
    expect(refused(findTrigger(pull, settings))).toBe('pull_request events start a run only with a prompt');
    expect(refused(findTrigger(parseEvent('schedule', {}), settings))).toBe('schedule events start a run only with a prompt');
    expect(refused(findTrigger(parseEvent('workflow_run', loadExample('workflow_run')), settings))).toBe(
      'event workflow_run is not handled',
    );
  });
});
