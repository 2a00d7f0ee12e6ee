import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { startAnthropicServer, type AnthropicServer, type Script } from './anthropic-server.js';
import { startGitHubSim, type GitHubSim, type GitHubSimOptions } from './github-sim.js';
import { runGit } from './git-remote.js';
import { runAction, type ActionDeps, type ActionIo, type ActionOutcome } from '../src/action/run.js';

export const ACTION = resolve('dist/index.js');
export const API_KEY = 'sk-ant-api03-canaryKEY0123456789abcdef';
export const GH_TOKEN = 'ghs_canaryTOKEN0123456789abcdefghijklmn';
export const OWNER = 'octo-org';
export const REPO = 'calc';

export interface WorldOptions {
  /** Files of the default branch. */
  main: Record<string, string>;
  /** Files of main (and of the branches, where they change them) committed executable (mode 100755). */
  executable?: string[];
  /** Other branches on the remote: name -> files changed on top of main. */
  branches?: Record<string, Record<string, string>>;
  script: Script;
  /** Simulator settings, or a function of the seeded branches' head commits. */
  sim?: Partial<GitHubSimOptions> | ((heads: Record<string, string>) => Partial<GitHubSimOptions>);
}

export interface ActionRun {
  /** performance.now() when the child was spawned (compare with a request's receivedAt). */
  spawnedAt: number;
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  ms: number;
}

export interface RunRequest {
  event: string;
  payload: unknown;
  inputs?: Record<string, string>;
  /** More of the runner's environment (a provider's credentials, say). */
  env?: Record<string, string>;
  runId?: string;
  attempt?: string;
  /** The run's workspace (from `checkout()`); the world's own by default. */
  workspace?: string;
}

/** What an in-process run did: its outcome or error, its outputs and log lines. */
export interface InProcessRun {
  outcome?: ActionOutcome;
  error?: unknown;
  outputs: Record<string, string>;
  log: string[];
}

export interface World {
  root: string;
  bare: string;
  work: string;
  home: string;
  sim: GitHubSim;
  model: AnthropicServer;
  /** git in the bare remote (what was pushed). */
  remoteGit(args: string[]): string;
  /** A new workspace as actions/checkout leaves it (depth 1, default branch), for another run. */
  checkout(): string;
  run(o: RunRequest & { signalWhen?: () => boolean }): Promise<ActionRun & { exitAfterSignalMs?: number }>;
  /** The same run inside this process, for what only a test can inject (a sandbox, a model). */
  runInProcess(o: RunRequest, deps?: Pick<ActionDeps, 'prepareSandbox' | 'model'>): Promise<InProcessRun>;
  close(): Promise<void>;
}

const SEED = {
  GIT_AUTHOR_NAME: 'Dev',
  GIT_AUTHOR_EMAIL: 'dev@example.com',
  GIT_COMMITTER_NAME: 'Dev',
  GIT_COMMITTER_EMAIL: 'dev@example.com',
};

async function put(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
}

/** GITHUB_OUTPUT holds `name<<delimiter` blocks. */
export function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<=]+)<<(.+)$/.exec(lines[i]!);
    if (!m) continue;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== m[2]; i++) value.push(lines[i]!);
    out[m[1]!] = value.join('\n');
  }
  return out;
}

/**
 * A bare origin seeded with main (and any PR branches), the workspace actions/checkout leaves
 * (depth 1, default branch, no git identity), a GitHub simulator and a scripted model.
 */
export async function makeWorld(o: WorldOptions): Promise<World> {
  const root = await mkdtemp(join(tmpdir(), 'agent-world-'));
  const home = join(root, 'home');
  await mkdir(home);
  await writeFile(join(home, '.gitconfig'), '[user]\n\tuseConfigOnly = true\n');
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, GIT_CONFIG_NOSYSTEM: '1', LANG: 'C.UTF-8' };
  const bare = join(root, 'origin.git');
  const seed = join(root, 'seed');
  const work = join(root, 'work');
  runGit(root, ['init', '-q', '--bare', '--initial-branch=main', bare], env);
  runGit(root, ['init', '-q', '--initial-branch=main', seed], env);
  await put(seed, o.main);
  const g = (args: string[]) => runGit(seed, args, { ...env, ...SEED });
  g(['add', '-A']);
  if (o.executable?.length) g(['update-index', '--chmod=+x', '--', ...o.executable]);
  g(['commit', '-qm', 'initial']);
  g(['push', '-q', bare, 'main']);
  for (const [branch, files] of Object.entries(o.branches ?? {})) {
    g(['checkout', '-q', '-b', branch, 'main']);
    await put(seed, files);
    g(['add', '-A']);
    const executable = (o.executable ?? []).filter((f) => f in files);
    if (executable.length) g(['update-index', '--chmod=+x', '--', ...executable]);
    g(['commit', '-qm', `work on ${branch}`]);
    g(['push', '-q', bare, branch]);
  }
  const checkout = (dir: string) =>
    runGit(root, ['clone', '-q', '--depth', '1', '--single-branch', '--branch', 'main', `file://${bare}`, dir], env);
  checkout(work);
  let checkouts = 0;

  const heads: Record<string, string> = {};
  for (const branch of ['main', ...Object.keys(o.branches ?? {})]) heads[branch] = runGit(bare, ['rev-parse', branch], env).trim();
  const simOptions = typeof o.sim === 'function' ? o.sim(heads) : o.sim;
  const sim = await startGitHubSim({ owner: OWNER, repo: REPO, token: GH_TOKEN, permissions: {}, gitRemote: bare, ...simOptions });
  const model = await startAnthropicServer({ script: o.script, requireApiKey: API_KEY });

  /** The runner's environment and files for one run, as a runner leaves them. */
  let runs = 0;
  const prepare = async (r: RunRequest) => {
    runs += 1;
    const eventPath = join(root, `event-${runs}.json`);
    const outputPath = join(root, `output-${runs}.txt`);
    const summaryPath = join(root, `summary-${runs}.md`);
    const runnerTemp = join(root, 'runner-temp');
    await mkdir(runnerTemp, { recursive: true });
    await writeFile(eventPath, JSON.stringify(r.payload));
    await writeFile(outputPath, '');
    await writeFile(summaryPath, '');
    const inputs: Record<string, string> = {
      'github-token': GH_TOKEN,
      'anthropic-api-key': API_KEY,
      'anthropic-base-url': model.url,
      'timeout-minutes': '5',
      ...r.inputs,
    };
    const childEnv: Record<string, string> = {
      ...env,
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_EVENT_NAME: r.event,
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_REPOSITORY: `${OWNER}/${REPO}`,
      GITHUB_WORKSPACE: r.workspace ?? work,
      GITHUB_API_URL: sim.url,
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_RUN_ID: r.runId ?? '4242',
      GITHUB_RUN_ATTEMPT: r.attempt ?? '1',
      GITHUB_OUTPUT: outputPath,
      GITHUB_STEP_SUMMARY: summaryPath,
      RUNNER_TEMP: runnerTemp,
      ...r.env,
    };
    for (const [name, value] of Object.entries(inputs)) childEnv[`INPUT_${name.toUpperCase()}`] = value;
    return { childEnv, outputPath, summaryPath };
  };

  return {
    root,
    bare,
    work,
    home,
    sim,
    model,
    remoteGit: (args) => runGit(bare, args, env),
    checkout() {
      checkouts += 1;
      const dir = join(root, `work-${checkouts}`);
      checkout(dir);
      return dir;
    },
    async run(r) {
      const { childEnv, outputPath, summaryPath } = await prepare(r);
      const started = performance.now();
      const child = spawn(process.execPath, [ACTION], { cwd: r.workspace ?? work, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      let signalledAt: number | undefined;
      const poll = r.signalWhen
        ? setInterval(() => {
            if (signalledAt === undefined && r.signalWhen!()) {
              signalledAt = performance.now();
              child.kill('SIGTERM');
            }
          }, 25)
        : undefined;
      const code = await new Promise<number | null>((done) => child.on('close', done));
      const ended = performance.now();
      if (poll) clearInterval(poll);
      return {
        spawnedAt: started,
        code,
        stdout,
        stderr,
        outputs: parseOutputs(await readFile(outputPath, 'utf8')),
        summary: await readFile(summaryPath, 'utf8'),
        ms: ended - started,
        ...(signalledAt !== undefined ? { exitAfterSignalMs: ended - signalledAt } : {}),
      };
    },
    async runInProcess(r, deps = {}) {
      const { childEnv, outputPath } = await prepare(r);
      const log: string[] = [];
      const inputs = (name: string) => (childEnv[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
      const io: ActionIo = {
        getInput: inputs,
        info: (m) => log.push(m),
        warning: (m) => log.push(`warning: ${m}`),
        setOutput: (name, value) => appendFileSync(outputPath, `${name}<<EOF_\n${value}\nEOF_\n`),
        setSecret: () => undefined,
        summary: () => Promise.resolve(),
      };
      const run: InProcessRun = { outputs: {}, log };
      try {
        run.outcome = await runAction({ env: childEnv, io, signal: new AbortController().signal, ...deps });
      } catch (error) {
        run.error = error;
      }
      run.outputs = parseOutputs(await readFile(outputPath, 'utf8'));
      return run;
    },
    async close() {
      await Promise.all([sim.close(), model.close()]);
      await rm(root, { recursive: true, force: true });
    },
  };
}
