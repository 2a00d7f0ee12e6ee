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
