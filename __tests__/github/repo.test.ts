import { createGitHub } from '../../src/github/client.js';
import { commentPlace } from '../../src/github/comments.js';
import { gatherContext } from '../../src/github/context.js';
import { parseEvent, type GitHubEvent, type RepoRef } from '../../src/github/event.js';
import { react } from '../../src/github/reactions.js';
import { isFork, repoRef } from '../../src/github/repo.js';
import type { Trigger } from '../../src/github/trigger.js';
import { startGitHubSim, type GitHubSim } from '../../test-support/github-sim.js';
import { loadExample } from '../../test-support/webhooks.js';

const TOKEN = 'ghs_simtoken';
const sims: GitHubSim[] = [];

afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

const alice = { login: 'alice', type: 'User' as const };
const at = '2024-03-01T10:00:00Z';

async function start(headRepoFullName = 'o/r'): Promise<GitHubSim> {
  const sim = await startGitHubSim({
    owner: 'o',
    repo: 'r',
    token: TOKEN,
    permissions: { alice: 'write' },
    issues: [
      {
        number: 1,
        title: 'Bug',
        body: 'It crashes.',
        user: alice,
        comments: [{ id: 10, body: '/agent fix', user: alice, created_at: at, updated_at: at }],
      },
      {
        number: 5,
        title: 'Fix',
        body: 'Fixes #1',
        user: alice,
        comments: [],
        pull: {
          headRef: 'fix',
          headSha: 'a'.repeat(40),
          headRepoFullName,
          baseRef: 'main',
          diff: '',
          reviewComments: [
            { id: 20, body: '/agent why', user: alice, path: 'a.ts', line: 1, diff_hunk: '@@', created_at: at, updated_at: at },
          ],
        },
      },
    ],
  });
  sims.push(sim);
  return sim;
}

function gitHub(sim: GitHubSim): ReturnType<typeof createGitHub> {
  return createGitHub({ token: TOKEN, baseUrl: sim.url, retryBaseMs: 1 });
}

const repo: RepoRef = { owner: 'o', name: 'r', fullName: 'o/r', defaultBranch: 'main', private: false };
const schedule: GitHubEvent = { kind: 'automation', name: 'schedule', repo: null, sender: null };

function trigger(fields: Partial<Trigger>): Trigger {
  return { source: 'comment', task: 'fix', requester: alice, target: { type: 'issue', number: 1 }, ...fields };
}

describe('isFork', () => {
  test('a head repository that differs from the base only in case is not a fork', () => {
    expect(isFork('Octo-Org/Hello-World', 'octo-org/hello-world')).toBe(false);
    expect(isFork('o/r', 'o/r')).toBe(false);
  });

  test('another repository, or a deleted one, is a fork', () => {
    expect(isFork('stranger/r', 'o/r')).toBe(true);
    expect(isFork('', 'o/r')).toBe(true);
  });

  test('the event and the fetched pull request agree on a head that differs only in case', async () => {
    const payload = loadExample('pull_request', (p) => p.action === 'opened');
    const head = payload.pull_request.head;
    payload.pull_request.head = { ...head, repo: head.repo && { ...head.repo, full_name: head.repo.full_name.toUpperCase() } };
    const event = parseEvent('pull_request', payload);
    expect(event.kind === 'pull_request' && event.pull.isFork).toBe(false);

    const sim = await start('O/R');
    const context = await gatherContext(gitHub(sim), schedule, repo, trigger({ target: { type: 'pull', number: 5 } }));
    expect(context.pull).toMatchObject({ headRepoFullName: 'O/R', isFork: false });
  });

  test('the fetched pull request from another repository is a fork', async () => {
    const sim = await start('mallory/r');
    const context = await gatherContext(gitHub(sim), schedule, repo, trigger({ target: { type: 'pull', number: 5 } }));
    expect(context.pull?.isFork).toBe(true);
  });
});

describe('repoRef', () => {
  test('takes the repository the event names without asking GitHub', async () => {
    const sim = await start();
    const named = { ...repo, defaultBranch: 'trunk' };
    const event: GitHubEvent = { kind: 'automation', name: 'push', repo: named, sender: null };
    await expect(repoRef(gitHub(sim), event, 'o', 'r')).resolves.toEqual(named);
    expect(sim.requests).toHaveLength(0);
  });

  test('asks GitHub when the event names none', async () => {
    const sim = await start();
    await expect(repoRef(gitHub(sim), schedule, 'o', 'r')).resolves.toEqual(repo);
  });
});

describe('commentPlace', () => {
  const reviewComment = (inReplyToId: number | null): GitHubEvent => {
    const payload = loadExample('pull_request_review_comment', (p) => p.action === 'created');
    return parseEvent('pull_request_review_comment', { ...payload, comment: { ...payload.comment, id: 7, in_reply_to_id: inReplyToId } });
  };

  test('a run on the repository has no place to comment', () => {
    expect(commentPlace(schedule, trigger({ source: 'prompt', target: { type: 'repo' } }))).toBeNull();
  });

  test('an issue or pull request gets a comment in its thread', () => {
    expect(commentPlace(schedule, trigger({ target: { type: 'pull', number: 5 } }))).toEqual({ kind: 'issue', number: 5 });
  });

  test('a review comment is answered in its thread, at the thread’s first comment', () => {
    const asked = trigger({ source: 'review-comment', target: { type: 'pull', number: 5 }, reviewCommentId: 7 });
    expect(commentPlace(reviewComment(null), asked)).toEqual({ kind: 'review-thread', pullNumber: 5, replyTo: 7 });
    expect(commentPlace(reviewComment(3), asked)).toEqual({ kind: 'review-thread', pullNumber: 5, replyTo: 3 });
  });
});

describe('react', () => {
  test('puts 👀 on the comment, review comment or issue that asked', async () => {
    const sim = await start();
    const gh = gitHub(sim);
    await react(gh, 'o', 'r', trigger({ commentId: 10 }));
    await react(gh, 'o', 'r', trigger({ source: 'review-comment', target: { type: 'pull', number: 5 }, reviewCommentId: 20 }));
    await react(gh, 'o', 'r', trigger({ source: 'label', target: { type: 'issue', number: 1 } }));
    await react(gh, 'o', 'r', trigger({ source: 'prompt', target: { type: 'repo' } }));
    expect(sim.reactions.map((r) => r.target)).toEqual(['comment:10', 'review-comment:20', 'issue:1']);
    expect(sim.reactions.every((r) => r.content === 'eyes')).toBe(true);
  });
});
