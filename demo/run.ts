// `npm run demo`: runs the built action (dist/index.js) offline, as GitHub would, on a small
// sample repository: a maintainer comments "/agent fix the failing test" on a pull request; a
// scripted model answers through the loopback Anthropic server; a GitHub simulator takes the
// comment and a bare git remote takes the push. Prints what was posted and what was pushed.
import { commentPayload } from '../test-support/action-payloads.js';
import { makeWorld, OWNER, REPO } from '../test-support/action-world.js';
import type { ScriptedReply } from '../test-support/anthropic-server.js';
import { reviewDemo } from './review.js';

const tool = (name: string, input: unknown, say?: string): ScriptedReply => ({
  content: [...(say ? [{ type: 'text' as const, text: say }] : []), { type: 'tool_use' as const, name, input }],
});

const script: ScriptedReply[] = [
  tool(
    'TodoWrite',
    {
      todos: [
        { content: 'Reproduce the failure', status: 'in_progress', activeForm: 'Reproducing the failure' },
        { content: 'Fix add()', status: 'pending' },
        { content: 'Run the tests', status: 'pending' },
      ],
    },
    'I will reproduce the failure first.',
  ),
  tool('Bash', { command: 'node --test 2>&1 | tail -4', description: 'run the tests' }),
  tool('Read', { file_path: 'math.js' }),
  tool('Edit', { file_path: 'math.js', old_string: 'return a - b;', new_string: 'return a + b;' }, '`add` subtracts; fixing it.'),
  tool('Bash', { command: 'node --test 2>&1 | tail -4' }),
  tool('TodoWrite', {
    todos: [
      { content: 'Reproduce the failure', status: 'completed' },
      { content: 'Fix add()', status: 'completed' },
      { content: 'Run the tests', status: 'completed' },
    ],
  }),
  { content: [{ type: 'text', text: 'Fixed `add()` in `math.js`: it returned `a - b`. `node --test` passes now (1 test).' }] },
];

const world = await makeWorld({
  main: {
    'package.json': '{ "name": "calc", "type": "module", "scripts": { "test": "node --test" } }\n',
    'math.js': 'export function add(a, b) {\n  return a - b;\n}\n',
    'math.test.js':
      "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add } from './math.js';\n\ntest('adds', () => assert.equal(add(2, 3), 5));\n",
  },
  branches: { 'add-docs': { 'README.md': '# calc\n' } },
  script,
  sim: { permissions: { maintainer: 'write' } },
});
try {
  const headSha = world.remoteGit(['rev-parse', 'add-docs']).trim();
  world.sim.issues.set(12, {
    number: 12,
    title: 'Add a README',
    body: 'Docs for calc.',
    user: { login: 'maintainer' },
    comments: [],
    pull: {
      headRef: 'add-docs',
      headSha,
      headRepoFullName: `${OWNER}/${REPO}`,
      baseRef: 'main',
      files: [{ filename: 'README.md', status: 'added', additions: 1, deletions: 0 }],
      diff: 'diff --git a/README.md b/README.md\n+# calc\n',
    },
  });
  const payload = commentPayload({ number: 12, body: '/agent fix the failing test', by: { login: 'maintainer', id: 77 }, onPull: true });
  world.sim.issues.get(12)!.comments.push({
    id: payload.comment.id,
    body: payload.comment.body,
    user: { login: 'maintainer' },
    created_at: payload.comment.created_at,
    updated_at: payload.comment.updated_at,
  });

  console.log(`$ GITHUB_EVENT_NAME=issue_comment node dist/index.js   # "/agent fix the failing test" on PR #12\n`);
  const r = await world.run({ event: 'issue_comment', payload });
  const comment = world.sim.issues.get(12)!.comments.find((c) => c.body.includes('<!-- agent-action -->'));
  console.log(
    `exit code ${r.code} in ${(r.ms / 1000).toFixed(1)}s; outputs: conclusion=${r.outputs['conclusion']} branch=${r.outputs['branch']} commit-sha=${r.outputs['commit-sha']} cost-usd=${r.outputs['cost-usd']}\n`,
  );
  const edits = world.sim.requests.filter((q) => q.method === 'PATCH').length;
  console.log(`the tracking comment was created at once and edited ${edits} times (checklist, current step, final report)\n`);
  console.log('──── the tracking comment on PR #12 ────');
  console.log(comment?.body ?? '(none)');
  console.log('\n──── what was pushed to add-docs ────');
  console.log(world.remoteGit(['log', '-1', '--stat', '--format=commit %H%nAuthor: %an <%ae>%n%n%B', 'add-docs']));
} finally {
  await world.close();
}
await reviewDemo();
