import { execFileSync } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { authEnv, takeCheckoutCredentials } from '../../src/git/credentials.js';
import { locateGitDirs } from '../../src/git/git-dir.js';
import { GitDirGuard } from '../../src/git/guard.js';
import { BOT_IDENTITY, Repo } from '../../src/git/repo.js';
import { pushRefusal } from '../../src/git/push-refusal.js';
import { markersIn, PLANT_FORMS, plantScript, type PlantForm } from '../../test-support/git-plants.js';
import { shallowCheckout, type ShallowCheckout } from '../../test-support/git-remote.js';

const TOKEN = 'ghs_plantedTOKEN0123456789abcdefghijkl';
let fx: ShallowCheckout;
let markers: string;
afterEach(() => fx.cleanup());

beforeEach(async () => {
  fx = await shallowCheckout();
  markers = join(fx.root, 'markers');
  await mkdir(markers);
});

/** The repository's handles as the action opens them, sealed the moment the model would start. */
async function sealedRepo(): Promise<{ repo: Repo; guard: GitDirGuard }> {
  const dirs = locateGitDirs(fx.work);
  const guard = new GitDirGuard(dirs!);
  // The credential is scoped to a server this origin (a local path) is not: what matters is whether a planted program sees it.
  const repo = Repo.open(fx.work, { env: { ...fx.env, ...authEnv(TOKEN, 'https://github.com') }, dirs, guard });
  await guard.seal();
  return { repo, guard };
}

function plant(kinds: readonly PlantForm[]): void {
  execFileSync('sh', ['-c', plantScript(fx.work, markers, kinds)], { cwd: fx.work, env: fx.env, stdio: 'ignore' });
}

/** Plain git, as it would run without the action's precautions, with the credential in its environment. */
function plainGit(args: string[]): void {
  const env = { ...fx.env, ...authEnv(TOKEN, 'https://github.com'), GIT_AUTHOR_NAME: 'x', GIT_AUTHOR_EMAIL: 'x@e' };
  try {
    execFileSync('git', args, { cwd: fx.work, env: { ...env, GIT_COMMITTER_NAME: 'x', GIT_COMMITTER_EMAIL: 'x@e' }, stdio: 'ignore' });
  } catch {
    // A planted receive-pack or hook makes the command fail; what counts is that it ran.
  }
}

/** A commit another clone pushed to main meanwhile, so the action's push is rejected and it fetches and rebases. */
function someoneElsePushes(): void {
  const other = join(fx.root, 'other');
  // Their machine: not the HOME the plants wrote to.
  const env = { ...fx.env, GIT_CONFIG_GLOBAL: '/dev/null' };
  const id = { GIT_AUTHOR_NAME: 'o', GIT_AUTHOR_EMAIL: 'o@e', GIT_COMMITTER_NAME: 'o', GIT_COMMITTER_EMAIL: 'o@e' };
  execFileSync('git', ['clone', '--quiet', `file://${fx.bare}`, other], { cwd: fx.root, env, stdio: 'ignore' });
  execFileSync('sh', ['-c', 'echo theirs > theirs.txt'], { cwd: other });
  execFileSync('git', ['add', '-A'], { cwd: other, env });
  execFileSync('git', ['commit', '--quiet', '-m', 'theirs'], { cwd: other, env: { ...env, ...id } });
  execFileSync('git', ['push', '--quiet', 'origin', 'HEAD:main'], { cwd: other, env });
}

/** Stages, commits, diffs, is rejected, fetches, rebases and pushes, as a run on a busy branch does. */
async function deliver(repo: Repo): Promise<void> {
  await fx.write('src/app.txt', 'one\nTWO\nthree\n');
  expect(await repo.changedFiles()).toContain('src/app.txt');
  expect(await repo.diff()).toContain('+TWO');
  await repo.commitAll('fix two', { committer: BOT_IDENTITY });
  someoneElsePushes();
  const rejected = await repo.push('main').catch((e: unknown) => e);
  expect(pushRefusal(rejected)).toBe('behind');
  expect(await repo.rebaseOnRemote('main', BOT_IDENTITY)).toEqual({ conflicts: [] });
  await repo.push('main');
}

const RUNS_PROGRAMS: readonly PlantForm[] = ['config', 'include', 'commondir', 'info-attributes', 'global-gitattributes'];

describe("the action's git in a workspace with planted git files", () => {
  it.each(PLANT_FORMS)('%s: runs no planted program and still delivers the work', async (kind) => {
    const { repo } = await sealedRepo();
    plant([kind]);
    await deliver(repo);
    expect(await markersIn(markers)).toEqual([]);
    expect(fx.git(fx.bare, ['show', 'main:src/app.txt'])).toBe('one\nTWO\nthree\n');
    expect(fx.git(fx.bare, ['show', 'main:theirs.txt'])).toBe('theirs\n');
    await repo.refStore().write('refs/agent-action/threads/1', 'conversation.json', '{}', {
      expected: null,
      message: 'm',
      identity: BOT_IDENTITY,
    });
    expect(await markersIn(markers)).toEqual([]);
  });

  it.each(RUNS_PROGRAMS)('%s: the same plant does run a program, with the credential, under plain git', async (kind) => {
    plant([kind]);
    await fx.write('src/app.txt', 'changed\n');
    plainGit(['add', '-A']);
    plainGit(['commit', '-qm', 'x']);
    plainGit(['push', 'origin', 'HEAD:main']);
    const ran = await markersIn(markers);
    expect(ran.length).toBeGreaterThan(0);
    expect(await readFile(join(markers, ran[0]!), 'utf8')).toContain('GIT_CONFIG_VALUE_0=AUTHORIZATION: basic');
  });

  it('puts back the config, alternates and attributes the run changed, replacing a planted symlink without following it', async () => {
    const { repo, guard } = await sealedRepo();
    const config = join(fx.work, '.git', 'config');
    const before = await readFile(config, 'utf8');
    plant(['alternates', 'worktrees']);
    const decoy = join(fx.work, 'decoy.cfg');
    await writeFile(decoy, '[core]\n\tfsmonitor = true\n');
    execFileSync('rm', [config]);
    await symlink(decoy, config);
    await mkdir(join(fx.work, '.git', 'info'), { recursive: true });
    await writeFile(join(fx.work, '.git', 'info', 'attributes'), '* filter=evil\n');
    const restored = await guard.enforce();
    expect(restored.map((p) => p.slice(fx.work.length + 1)).sort()).toEqual([
      '.git/config',
      '.git/info/attributes',
      '.git/objects/info/alternates',
      '.git/worktrees/w',
    ]);
    expect(await readFile(config, 'utf8')).toBe(before);
    expect(await readFile(decoy, 'utf8')).toBe('[core]\n\tfsmonitor = true\n');
    expect(fx.git(fx.work, ['worktree', 'list'])).not.toContain('evil');
    expect(await repo.headSha()).toMatch(/^[0-9a-f]{40}$/);
  });

  it("puts checkout's credential back into the repository's own config, not where a planted commondir points", async () => {
    const config = join(fx.work, '.git', 'config');
    fx.git(fx.work, ['config', '--local', 'http.https://github.com/.extraheader', `AUTHORIZATION: basic ${TOKEN}`]);
    const taken = await takeCheckoutCredentials(fx.work);
    expect(taken.taken).toBe(1);
    expect(await readFile(config, 'utf8')).not.toContain(TOKEN);
    plant(['commondir']);
    taken.restore();
    expect(await readFile(config, 'utf8')).toContain(TOKEN);
    expect(await readFile(join(fx.work, 'evil', 'common', 'config'), 'utf8')).not.toContain(TOKEN);
  });
});
