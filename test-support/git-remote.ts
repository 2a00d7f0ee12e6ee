import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A bare `origin` and the checkout actions/checkout leaves: depth 1, default branch only, no identity. */
export interface ShallowCheckout {
  root: string;
  bare: string;
  work: string;
  /** What every git call in the test gets: a clean HOME, no system config, no user.name/user.email. */
  env: Record<string, string>;
  git(cwd: string, args: string[]): string;
  write(relative: string, content: string): Promise<void>;
  cleanup(): Promise<void>;
}

/** Only the seed commits need a name; they get it from the environment, never from config. */
const SEED_IDENTITY = {
  GIT_AUTHOR_NAME: 'Seed Author',
  GIT_AUTHOR_EMAIL: 'seed@example.com',
  GIT_COMMITTER_NAME: 'Seed Author',
  GIT_COMMITTER_EMAIL: 'seed@example.com',
};

export function runGit(cwd: string, args: string[], env: Record<string, string>): string {
  return execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

async function put(dir: string, relative: string, content: string): Promise<void> {
  await mkdir(dirname(join(dir, relative)), { recursive: true });
  await writeFile(join(dir, relative), content);
}

async function seed(bare: string, seedDir: string, env: Record<string, string>): Promise<void> {
  const seedEnv = { ...env, ...SEED_IDENTITY };
  const git = (args: string[]) => runGit(seedDir, args, seedEnv);
  runGit(dirname(seedDir), ['clone', '--quiet', `file://${bare}`, seedDir], env);
  await put(seedDir, 'README.md', 'hello\n');
  await put(seedDir, '.gitignore', 'ignored/\n');
  git(['add', '-A']);
  git(['commit', '--quiet', '-m', 'first']);
  await put(seedDir, 'src/app.txt', 'one\ntwo\nthree\n');
  git(['add', '-A']);
  git(['commit', '--quiet', '-m', 'second']);
  git(['push', '--quiet', 'origin', 'HEAD:refs/heads/main']);
  git(['switch', '--quiet', '-c', 'feature']);
  await put(seedDir, 'feature.txt', 'feature work\n');
  git(['add', '-A']);
  git(['commit', '--quiet', '-m', 'feature commit']);
  git(['push', '--quiet', 'origin', 'HEAD:refs/heads/feature']);
}

function cleanEnv(home: string): Record<string, string> {
  return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, GIT_CONFIG_NOSYSTEM: '1', LANG: 'C.UTF-8' };
}

async function makeHome(home: string): Promise<void> {
  await mkdir(home, { recursive: true });
  // useConfigOnly: git must not guess an identity from the host name, so a commit without one fails.
  await writeFile(join(home, '.gitconfig'), '[user]\n\tuseConfigOnly = true\n[init]\n\tdefaultBranch = main\n');
}

/** Seeding takes a dozen git calls; it is done once per test file and the bare remote copied per test. */
let template: Promise<string> | undefined;

async function seededBare(): Promise<string> {
  template ??= (async () => {
    const root = await mkdtemp(join(tmpdir(), 'agent-git-template-'));
    const env = cleanEnv(join(root, 'home'));
    await makeHome(env['HOME'] ?? '');
    const bare = join(root, 'origin.git');
    runGit(root, ['init', '--quiet', '--bare', '--initial-branch=main', bare], env);
    await seed(bare, join(root, 'seed'), env);
    process.once('exit', () => execFileSync('rm', ['-rf', '--', root]));
    return bare;
  })();
  return template;
}

export async function shallowCheckout(): Promise<ShallowCheckout> {
  const root = await mkdtemp(join(tmpdir(), 'agent-git-'));
  const env = cleanEnv(join(root, 'home'));
  await makeHome(join(root, 'home'));
  const bare = join(root, 'origin.git');
  const work = join(root, 'work');
  await cp(await seededBare(), bare, { recursive: true });
  runGit(root, ['clone', '--quiet', '--depth', '1', '--single-branch', '--branch', 'main', `file://${bare}`, work], env);
  return {
    root,
    bare,
    work,
    env,
    git: (cwd, args) => runGit(cwd, args, env),
    write: (relative, content) => put(work, relative, content),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

/**
 * How the bare remote answers pushes to branches, in order: the first `internalErrors` pushes
 * fail as GitHub's git server answers when it breaks (`remote: Internal Server Error`, `!
 * [remote rejected] <ref> (Internal Server Error)`, nothing updated); the next `race` pushes wait
 * for each other (up to 10 s) after the objects arrived and before the ref is updated, so they
 * race for the ref as concurrent pushes to GitHub do and git itself refuses all but one (`!
 * [remote rejected] <ref> (failed to update ref)`). Pushes to other refs than `refs` are left alone.
 */
export interface PushFaults {
  internalErrors?: number;
  race?: number;
  /** The refs whose pushes are answered so: `refs/heads/` (branches) unless said otherwise. */
  refs?: string;
}

/**
 * A proc-receive hook (git's own protocol for a server that decides on ref updates): it answers
 * `ng <ref> <reason>` to fail a push, or `ok` with `fall-through` to let receive-pack update the
 * ref itself, old-value check included. Pushes are numbered by claiming files with O_EXCL, so
 * concurrent pushes each get their own number.
 */
const PROC_RECEIVE = `#!/usr/bin/env node
const fs = require('fs');
const path = require('path');
const faults = JSON.parse(fs.readFileSync('push-faults.json', 'utf8'));
function readN(n) {
  const b = Buffer.alloc(n);
  for (let got = 0; got < n; ) {
    const r = fs.readSync(0, b, got, n - got, null);
    if (r === 0) process.exit(1);
    got += r;
  }
  return b;
}
function pkt() {
  const n = parseInt(readN(4).toString(), 16);
  return n === 0 ? null : readN(n - 4).toString().replace(/\\n$/, '');
}
function section() {
  const lines = [];
  for (let p = pkt(); p !== null; p = pkt()) lines.push(p);
  return lines;
}
function send(lines) {
  const body = lines.map((l) => { const d = l + '\\n'; return (Buffer.byteLength(d) + 4).toString(16).padStart(4, '0') + d; });
  fs.writeSync(1, body.join('') + '0000');
}
function claim(dir) {
  fs.mkdirSync(dir, { recursive: true });
  for (let i = 0; ; i++) {
    try { fs.writeFileSync(path.join(dir, String(i)), '', { flag: 'wx' }); return i; } catch {}
  }
}
const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
section();
send(['version=1']);
const refs = section().map((c) => c.split(' ')[2]);
const n = claim(path.resolve('push-faults.d/pushes'));
const errors = faults.internalErrors || 0;
if (n < errors) {
  process.stderr.write('Internal Server Error\\n');
  send(refs.map((r) => 'ng ' + r + ' Internal Server Error'));
  process.exit(0);
}
if (n < errors + (faults.race || 0)) {
  const dir = path.resolve('push-faults.d/racing');
  claim(dir);
  const until = Date.now() + 10000;
  while (Date.now() < until && fs.readdirSync(dir).length < faults.race) pause(20);
}
send(refs.flatMap((r) => ['ok ' + r, 'option fall-through']));
`;

/** Makes the bare remote answer pushes to its branches as `faults` says (see PushFaults). */
export async function injectPushFaults(bare: string, faults: PushFaults): Promise<void> {
  await writeFile(join(bare, 'push-faults.json'), JSON.stringify(faults));
  await rm(join(bare, 'push-faults.d'), { recursive: true, force: true });
  await mkdir(join(bare, 'hooks'), { recursive: true });
  await writeFile(join(bare, 'hooks', 'proc-receive'), PROC_RECEIVE, { mode: 0o755 });
  runGit(bare, ['config', '--file', 'config', 'receive.procReceiveRefs', faults.refs ?? 'refs/heads/'], cleanEnv(bare));
}
