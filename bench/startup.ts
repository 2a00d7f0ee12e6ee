import { execFileSync, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { commentPayload } from '../test-support/action-payloads.js';
import { makeWorld, OWNER, REPO } from '../test-support/action-world.js';
import { startAnthropicServer, type AnthropicServer } from '../test-support/anthropic-server.js';
import { cleanEnv, median, timeProcess } from './stats.js';

const KEY = 'sk-ant-bench';
const CLI = resolve('dist/cli/index.js');

export interface Comparison {
  baseline: number;
  subject: number;
}

/** A client's two figures: spawn to its first request, and the final answer's last byte to its exit. */
export interface ClientTimes {
  first: number;
  exit: number;
}

export interface CliStartup extends Comparison {
  /** The CLI from the final answer to exit. */
  exit: number;
  /** The SDK floor, when asked for: the same two figures for bench/sdk-floor.ts. */
  floor?: ClientTimes;
}

/**
 * bench/sdk-floor.ts bundled with ncc and minified, as scripts/build.mjs bundles dist/ (from the
 * compiled .tmp/bench, so `npm run bench` builds it each time).
 */
export function buildSdkFloor(): string {
  const out = resolve('.tmp/bench/sdk-floor');
  const ncc = resolve('node_modules/.bin/ncc');
  execFileSync(ncc, [
    'build',
    resolve('.tmp/bench/bench/sdk-floor.js'),
    '-o',
    out,
    '--minify',
    '--no-cache',
    '--quiet',
    '--target',
    'es2022',
  ]);
  return resolve(out, 'index.js');
}

/** One run of a client script against the server, which answers once. */
async function timeClient(server: AnthropicServer, args: string[]): Promise<ClientTimes> {
  const before = server.requests.length;
  const started = performance.now();
  const exited = await new Promise<number>((done, fail) => {
    const child = spawn(process.execPath, args, {
      env: cleanEnv({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url }),
      stdio: 'ignore',
    });
    child.on('error', fail);
    child.on('exit', () => done(performance.now()));
  });
  const request = server.requests[before];
  if (!request?.answeredAt) throw new Error(`${args[0]} made no model request that was answered`);
  return { first: request.receivedAt - started, exit: exited - request.answeredAt };
}

/** Spawn of the CLI to the moment its first request reaches the model server; node -e 0 and the SDK floor interleaved. */
export async function cliStartup(dir: string, runs: number, args: readonly string[] = [], floor?: string): Promise<CliStartup> {
  const server = await startAnthropicServer({ requireApiKey: KEY, script: () => ({ content: [{ type: 'text', text: 'ok' }] }) });
  const base: number[] = [];
  const cli: ClientTimes[] = [];
  const sdk: ClientTimes[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      base.push(await timeProcess(['-e', '0'], cleanEnv()));
      if (floor) sdk.push(await timeClient(server, [floor, 'say ok']));
      cli.push(await timeClient(server, [CLI, '--cwd', dir, ...args, 'say ok']));
    }
  } finally {
    await server.close();
  }
  const medians = (times: ClientTimes[]) => ({ first: median(times.map((t) => t.first)), exit: median(times.map((t) => t.exit)) });
  const subject = medians(cli);
  return { baseline: median(base), subject: subject.first, exit: subject.exit, ...(floor ? { floor: medians(sdk) } : {}) };
}

/** How long the model server takes to answer the action's request. */
export const ANSWER_DELAY_MS = 500;

export interface ActionStartup extends Comparison {
  /** From the final answer's last byte to exit: delivery, the thread and the final comment included. */
  exit: number;
  /** From the final answer's last byte to the last GitHub request (the final comment). */
  toFinalComment: number;
  /** From the last GitHub request (the final comment) to exit. */
  lastRequestToExit: number;
}

/** dist/index.js answering a PR comment: permission, reaction, tracking comment, context, checkout, then the first request. */
export async function actionStartup(runs: number): Promise<ActionStartup> {
  const world = await makeWorld({
    main: { 'README.md': 'bench\n', 'AGENTS.md': 'Run the tests.\n' },
    branches: { feature: { 'feature.txt': 'work\n' } },
    // Half a second to the answer, as an API takes at the least: the checkout and the sandbox the
    // first request did not wait for are done by then, as they are in a real run.
    script: () => ({ content: [{ type: 'text', text: 'ok' }], delayMs: ANSWER_DELAY_MS }),
    sim: (heads) => ({
      permissions: { alice: 'write' },
      files: { main: { 'AGENTS.md': 'Run the tests.\n' } },
      checkRuns: [{ id: 1, name: 'test', head_sha: heads['feature']!, status: 'completed', conclusion: 'failure', log: 'not ok 1\n' }],
    }),
  });
  const base: number[] = [];
  const subject: number[] = [];
  const exit: number[] = [];
  const lastRequest: number[] = [];
  const toComment: number[] = [];
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
      // Every run is a first request in its thread: the conversation the previous one stored goes.
      world.remoteGit(['update-ref', '-d', 'refs/agent-action/threads/5']);
      const run = await world.run({ event: 'issue_comment', payload, runId: String(1000 + i) });
      const request = world.model.requests[before];
      if (!request?.answeredAt) throw new Error(`the action made no model request: ${run.stdout}\n${run.stderr}`);
      const exitedAt = run.spawnedAt + run.ms;
      subject.push(request.receivedAt - run.spawnedAt);
      exit.push(exitedAt - request.answeredAt);
      lastRequest.push(exitedAt - world.sim.requests.at(-1)!.at);
      toComment.push(world.sim.requests.at(-1)!.at - request.answeredAt);
    }
  } finally {
    await world.close();
  }
  return {
    baseline: median(base),
    subject: median(subject),
    exit: median(exit),
    toFinalComment: median(toComment),
    lastRequestToExit: median(lastRequest),
  };
}
