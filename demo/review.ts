// The review half of `npm run demo`: "/agent review" on a pull request that adds a buggy function;
// the scripted model leaves two findings through ReviewComment, one of them on a line outside the
// diff first (the tool answers with the ranges it may use). Prints the posted review and its comments.
import { commentPayload } from '../test-support/action-payloads.js';
import { makeWorld, OWNER, REPO } from '../test-support/action-world.js';
import type { ScriptedReply } from '../test-support/anthropic-server.js';

const call = (name: string, input: unknown): ScriptedReply => ({ content: [{ type: 'tool_use', name, input }] });

const MAIN = { 'math.js': 'export function add(a, b) {\n  return a + b;\n}\n' };
const MUL = 'export function mul(a, b) {\n  let r = a + b;\n  return r;\n}\n';
const PATCH =
  '@@ -1,3 +1,7 @@\n export function add(a, b) {\n   return a + b;\n }\n+export function mul(a, b) {\n+  let r = a + b;\n+  return r;\n+}';

const script: ScriptedReply[] = [
  call('Read', { file_path: 'math.js' }),
  call('ReviewComment', { file_path: 'math.js', line: 12, body: 'mul adds' }),
  call('ReviewComment', {
    file_path: 'math.js',
    line: 5,
    body: '`mul` adds its arguments instead of multiplying them.',
    severity: 'blocking',
    suggestion: '  let r = a * b;',
  }),
  call('ReviewComment', { file_path: 'math.js', line: 6, body: 'Return the expression directly; `r` adds nothing.', severity: 'nit' }),
  {
    content: [
      {
        type: 'text',
        text: '`mul()` returns `a + b`: one blocking bug, with a suggested fix. Checked `math.js` (the only changed file); `add()` is unchanged.',
      },
    ],
  },
];

export async function reviewDemo(): Promise<void> {
  const world = await makeWorld({
    main: MAIN,
    branches: { 'add-mul': { 'math.js': MAIN['math.js'] + MUL } },
    script,
    sim: { permissions: { maintainer: 'write' } },
  });
  try {
    const headSha = world.remoteGit(['rev-parse', 'add-mul']).trim();
    const files = [{ filename: 'math.js', status: 'modified', additions: 4, deletions: 0, patch: PATCH }];
    const pull = { headRef: 'add-mul', headSha, headRepoFullName: `${OWNER}/${REPO}`, baseRef: 'main', files };
    world.sim.issues.set(21, {
      number: 21,
      title: 'Add mul()',
      body: 'Multiplication.',
      user: { login: 'contributor' },
      comments: [],
      pull,
    });
    const payload = commentPayload({ number: 21, body: '/agent review', by: { login: 'maintainer', id: 77 }, onPull: true });
    console.log(`\n$ GITHUB_EVENT_NAME=issue_comment node dist/index.js   # "/agent review" on PR #21\n`);
    const r = await world.run({ event: 'issue_comment', payload });
    console.log(
      `exit code ${r.code}; outputs: conclusion=${r.outputs['conclusion']} review-comments=${r.outputs['review-comments']} review-url=${r.outputs['review-url']}`,
    );
    const review = world.sim.issues.get(21)!.pull!.reviews?.[0];
    console.log(`\n──── the review on PR #21 (${review?.state ?? 'none'}, commit ${review?.commit_id.slice(0, 7) ?? '-'}) ────`);
    console.log(review?.body ?? '(none)');
    for (const c of world.sim.issues.get(21)!.pull!.reviewComments ?? []) {
      const lines = c.start_line ? `${c.start_line}-${c.line}` : String(c.line);
      console.log(`\n──── inline comment on ${c.path}:${lines} ────\n${c.body}`);
    }
  } finally {
    await world.close();
  }
}
