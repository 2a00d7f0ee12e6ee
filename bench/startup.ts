import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { commentPayload } from '../test-support/action-payloads.js';
import { makeWorld, OWNER, REPO } from '../test-support/action-world.js';
import { startAnthropicServer } from '../test-support/anthropic-server.js';
import { cleanEnv, median, timeProcess } from './stats.js';

const KEY = 'sk-ant-bench';
const CLI = resolve('dist/cli/index.js');

export interface Comparison {
  baseline: number;
  subject: number;
}

/** Spawn of the CLI to the moment its first request reaches the model server, node -e 0 interleaved. */
export async function cliStartup(dir: string, runs: number, args: readonly string[] = []): Promise<Comparison> {
  const server = await startAnthropicServer({ requireApiKey: KEY, script: () => ({ content: [{ type: 'text', text: 'ok' }] }) });
  const base: number[] = [];
  const subject: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      base.push(await timeProcess(['-e', '0'], cleanEnv()));
      const before = server.requests.length;
      const started = performance.now();
      await new Promise<void>((done, fail) => {
        const child = spawn(process.execPath, [CLI, '--cwd', dir, ...args, 'say ok'], {
          env: cleanEnv({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url }),
          stdio: 'ignore',
        });
        child.on('error', fail);
        child.on('exit', () => done());
      });
      const request = server.requests[before];
      if (!request) throw new Error('the CLI made no model request');
      subject.push(request.receivedAt - started);
    }
  } finally {
    await server.close();
  }
  return { baseline: median(base), subject: median(subject) };
}

/** dist/index.js answering a PR comment: permission, reaction, tracking comment, context, checkout, then the first request. */
export async function actionStartup(runs: number): Promise<Comparison> {
  const world = await makeWorld({
    main: { 'README.md': 'bench\n', 'AGENTS.md': 'Run the tests.\n' },
    branches: { feature: { 'feature.txt': 'work\n' } },
    script: () => ({ content: [{ type: 'text', text: 'ok' }] }),
    sim: (heads) => ({
      permissions: { alice: 'write' },
      files: { main: { 'AGENTS.md': 'Run the tests.\n' } },
      checkRuns: [{ id: 1, name: 'test', head_sha: heads['feature']!, status: 'completed', conclusion: 'failure', log: 'not ok 1\n' }],
    }),
  });
  const base: number[] = [];
  const subject: number[] = [];
  try {
    const headSha = world.remoteGit(['rev-parse', 'feature']).trim();
    world.sim.issues.set(5, {
      number: 5,
      title: 'Feature',
      body: 'Adds a feature.',
      user: { login: 'bob' },
      comments: [],
      pull: {
        headRef: 'feature',
        headSha,
        headRepoFullName: `${OWNER}/${REPO}`,
        baseRef: 'main',
        files: [{ filename: 'feature.txt', status: 'added', additions: 1, deletions: 0 }],
        diff: '+work\n',
      },
    });
    for (let i = 0; i < runs; i++) {
      base.push(await timeProcess(['-e', '0'], cleanEnv()));
      const before = world.model.requests.length;
      const payload = commentPayload({
        number: 5,
        body: '/agent fix the failing test',
        by: { login: 'alice' },
        onPull: true,
        commentId: 700 + i,
      });
      world.sim.issues.get(5)!.comments.push({
        id: 700 + i,
        body: payload.comment.body,
        user: { login: 'alice' },
        created_at: payload.comment.created_at,
        updated_at: payload.comment.updated_at,
      });
      const run = await world.run({ event: 'issue_comment', payload, runId: String(1000 + i) });
      const request = world.model.requests[before];
      if (!request) throw new Error(`the action made no model request: ${run.stdout}\n${run.stderr}`);
      subject.push(request.receivedAt - run.spawnedAt);
    }
  } finally {
    await world.close();
  }
  return { baseline: median(base), subject: median(subject) };
}
