import { jest } from '@jest/globals';
import { commentPayload } from '../../test-support/action-payloads.js';
import { makeWorld, type World } from '../../test-support/action-world.js';

jest.setTimeout(90_000);

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const alice = { login: 'alice', id: 501 };
const COMMENTS = 600;
/** About 1.7 KB each, 1 MB in all: the thread of the measurement. */
const bodyOf = (i: number) => `comment-${i}: ${'the build fails again on the nightly runner with the same trace; '.repeat(26)}`;
const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();

describe('a long thread (dist/index.js)', () => {
  it('600 comments, 1 MB: the first request stays under 200 KB with the newest comments, the trigger and the issue body', async () => {
    const w = await makeWorld({
      main: { 'README.md': '# calc\n' },
      script: [{ content: [{ type: 'text', text: 'Read the thread: the nightly runner lacks the cache.' }] }],
      sim: { permissions: { alice: 'write' } },
    });
    world = w;
    const comments = Array.from({ length: COMMENTS }, (_, i) => ({
      id: 10_000 + i,
      body: bodyOf(i),
      user: { login: i % 2 ? 'bob' : 'carol' },
      created_at: at(i),
      updated_at: at(i),
    }));
    const body = 'ISSUE-BODY-MARKER: the nightly build has failed since the runner image changed.';
    w.sim.issues.set(12, { number: 12, title: 'Nightly fails', body, user: { login: 'bob' }, comments });
    const r = await w.run({
      event: 'issue_comment',
      payload: commentPayload({ number: 12, body: '/agent TRIGGER-MARKER summarise why it fails', by: alice, onPull: false }),
    });
    expect(r.outputs['conclusion']).toBe('success');

    const first = JSON.stringify(w.model.requests[0]!.body);
    expect(Buffer.byteLength(first)).toBeLessThanOrEqual(200_000);
    expect(first).toContain('TRIGGER-MARKER');
    expect(first).toContain('ISSUE-BODY-MARKER');
    expect(first).toContain(`comment-${COMMENTS - 1}:`);
    expect(first).not.toContain('comment-0:');
    const note = /\[(\d+) older comments left out to keep the task within the context window; the newest (\d+) follow\]/.exec(first);
    expect(note).not.toBeNull();
    const [left, kept] = [Number(note![1]), Number(note![2])];
    expect(left + kept).toBe(COMMENTS);
    // Newest first: every kept comment is there, and none older than them.
    for (let i = COMMENTS - kept; i < COMMENTS; i++) expect(first).toContain(`comment-${i}:`);
    expect(first).not.toContain(`comment-${COMMENTS - kept - 1}:`);
  });
});
