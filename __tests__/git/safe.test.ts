import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, chmodSync, mkdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitErrorLine, inheritedEnv, safeGit } from '../../src/git/safe.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A repository with one commit, in a HOME of its own so this machine's git config plays no part. */
function repo(): { dir: string; env: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'safe-git-'));
  dirs.push(dir);
  const env = { PATH: process.env['PATH'] ?? '', HOME: dir, GIT_CONFIG_NOSYSTEM: '1' };
  const git = (args: string[]) => execFileSync('git', args, { cwd: dir, env });
  git(['init', '--quiet', '--initial-branch=main']);
  git(['-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '--quiet', '--allow-empty', '-m', 'first']);
  return { dir, env };
}

describe('safeGit', () => {
  it("answers with git's output, and with an empty string for a command that prints nothing", async () => {
    const { dir, env } = repo();
    const git = safeGit(dir, env);
    expect((await git.raw(['rev-parse', '--abbrev-ref', 'HEAD'])).trim()).toBe('main');
    expect(await git.raw(['status', '--porcelain'])).toBe('');
  });

  it('fails on a non-zero exit with what git printed and the code', async () => {
    const { dir, env } = repo();
    const error = await safeGit(dir, env)
      .raw(['rev-parse', '--verify', 'no-such-ref^{commit}'])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/fatal: .*\ngit exited with code 128$/);
    expect(gitErrorLine(error)).toMatch(/^fatal: /);
  });

  it('closes stdin, so a command that reads it gets nothing rather than waiting', async () => {
    const { dir, env } = repo();
    // The id of the empty blob: git read an empty stdin.
    expect((await safeGit(dir, env).raw(['hash-object', '--stdin'])).trim()).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
  });

  it('runs none of the hooks the work tree may hold', async () => {
    const { dir, env } = repo();
    const hooks = join(dir, '.git', 'hooks');
    mkdirSync(hooks, { recursive: true });
    const marker = join(dir, 'hook-ran');
    writeFileSync(join(hooks, 'pre-commit'), `#!/bin/sh\ntouch ${marker}\n`);
    chmodSync(join(hooks, 'pre-commit'), 0o755);
    await safeGit(dir, { ...env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@e' }).raw([
      'commit',
      '--quiet',
      '--allow-empty',
      '-m',
      'second',
    ]);
    expect(existsSync(marker)).toBe(false);
  });
});

describe('inheritedEnv', () => {
  it('leaves out GIT_* variables and the programs git could start', () => {
    const saved = { ...process.env };
    try {
      Object.assign(process.env, { GIT_DIR: '/elsewhere', PAGER: 'less', EDITOR: 'vim', KEEP_ME: 'yes' });
      const env = inheritedEnv();
      expect(env['KEEP_ME']).toBe('yes');
      expect(['GIT_DIR', 'PAGER', 'EDITOR'].filter((k) => k in env)).toEqual([]);
    } finally {
      for (const key of ['GIT_DIR', 'PAGER', 'EDITOR', 'KEEP_ME']) delete process.env[key];
      Object.assign(process.env, saved);
    }
  });
});

describe('what the action gives its git', () => {
  it('inherits no secret: not the inputs, runner tokens or keys, and no GIT_* variable', () => {
    const saved = { ...process.env };
    try {
      Object.assign(process.env, {
        'INPUT_GITHUB-TOKEN': 'x',
        ACTIONS_RUNTIME_TOKEN: 'x',
        ANTHROPIC_API_KEY: 'x',
        GITHUB_TOKEN: 'x',
        GIT_DIR: '/elsewhere',
        SSH_AUTH_SOCK: '/tmp/agent.sock',
      });
      const env = inheritedEnv();
      for (const name of ['INPUT_GITHUB-TOKEN', 'ACTIONS_RUNTIME_TOKEN', 'ANTHROPIC_API_KEY', 'GITHUB_TOKEN', 'GIT_DIR']) {
        expect(env).not.toHaveProperty([name]);
      }
      expect(env['SSH_AUTH_SOCK']).toBe('/tmp/agent.sock');
    } finally {
      process.env = saved;
    }
  });

  it('reads no global config: a filter a HOME config defines for every file never runs', async () => {
    const { dir, env } = repo();
    const marker = join(dir, 'filter-ran');
    writeFileSync(join(dir, '.gitconfig'), `[filter "x"]\n\tclean = sh -c 'touch ${marker} && cat'\n`);
    writeFileSync(join(dir, '.gitattributes'), '* filter=x\n');
    writeFileSync(join(dir, 'file.txt'), 'content\n');
    await safeGit(dir, env).raw(['add', '--all']);
    expect(existsSync(marker)).toBe(false);
    writeFileSync(join(dir, 'file.txt'), 'changed\n');
    execFileSync('git', ['add', '--all'], { cwd: dir, env });
    expect(existsSync(marker)).toBe(true);
  });
});
