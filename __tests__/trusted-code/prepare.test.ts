import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { prepareTrustedCode, type PrepareInput } from '../../src/trusted-code/index.js';

const ENV = {
  PATH: process.env['PATH'] ?? '/usr/bin:/bin',
  HOME: tmpdir(),
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Dev',
  GIT_AUTHOR_EMAIL: 'dev@example.com',
  GIT_COMMITTER_NAME: 'Dev',
  GIT_COMMITTER_EMAIL: 'dev@example.com',
};
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: ENV, encoding: 'utf8' });

function put(dir: string, files: Record<string, string>): void {
  for (const [p, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), content);
  }
}

let root: string;
let workspace: string;

/** An origin whose main holds the trusted files and whose `feature` rewrites them; the workspace on feature. */
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'trusted-code-')));
  const seed = join(root, 'seed');
  git(root, 'init', '-q', '--bare', '--initial-branch=main', 'origin.git');
  git(root, 'init', '-q', '--initial-branch=main', 'seed');
  put(seed, {
    '.claude/hooks/guard.sh': 'base guard\n',
    'tools/server.mjs': 'base server\n',
    'tools/lib.mjs': 'base lib\n',
    'src/app.js': 'base app\n',
    'root.sh': 'base root\n',
  });
  git(seed, 'add', '-A');
  git(seed, 'commit', '-qm', 'base');
  git(seed, 'push', '-q', join(root, 'origin.git'), 'main');
  git(seed, 'checkout', '-q', '-b', 'feature');
  put(seed, { '.claude/hooks/guard.sh': 'head guard\n', 'tools/lib.mjs': 'head lib\n', 'added.sh': 'head added\n' });
  git(seed, 'add', '-A');
  git(seed, 'commit', '-qm', 'head');
  git(seed, 'push', '-q', join(root, 'origin.git'), 'feature');
  git(root, 'clone', '-q', '--depth', '1', '--branch', 'feature', `file://${join(root, 'origin.git')}`, 'work');
  workspace = join(root, 'work');
  mkdirSync(join(root, 'temp'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function input(o: Partial<PrepareInput>): PrepareInput {
  return {
    workspace,
    tempDir: join(root, 'temp'),
    ref: 'main',
    gitEnv: ENV,
    hooks: {},
    servers: [],
    skills: false,
    sandboxed: false,
    ...o,
  };
}

describe('the trusted copies of what trusted commands name', () => {
  it('writes .claude and each named file with its folder from the trusted ref, outside the workspace, leaving the workspace alone', async () => {
    const hooks = { PreToolUse: [{ hooks: [{ type: 'command' as const, command: 'bash root.sh && eslint src' }] }] };
    const code = await prepareTrustedCode(input({ hooks, servers: [['node', 'tools/server.mjs']] }));
    expect(code.units).toEqual(['.claude', 'root.sh', 'tools']);
    expect(code.root.startsWith(join(root, 'temp'))).toBe(true);
    expect(readFileSync(join(code.root, '.claude/hooks/guard.sh'), 'utf8')).toBe('base guard\n');
    expect(readFileSync(join(code.root, 'tools/lib.mjs'), 'utf8')).toBe('base lib\n');
    // A folder a command works on (`eslint src`) is data, not code: it is not copied.
    expect(existsSync(join(code.root, 'src'))).toBe(false);
    expect(readFileSync(join(workspace, 'tools/lib.mjs'), 'utf8')).toBe('head lib\n');
    expect(git(workspace, 'status', '--porcelain')).toBe('');
    expect(git(workspace, 'rev-parse', '--is-shallow-repository').trim()).toBe('true');
    expect(git(workspace, 'for-each-ref', '--format=%(refname)')).not.toMatch(/trusted/);
  });

  it('without a sandbox rewrites the named words to the copies; a file only the pull request has points at nothing', async () => {
    const command = 'bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh; bash added.sh; node tools/server.mjs';
    const hooks = { Stop: [{ hooks: [{ type: 'command' as const, command }] }] };
    const code = await prepareTrustedCode(input({ hooks }));
    const { command: out, extras } = code.hook(command);
    expect(out).toBe(`bash '${code.root}/.claude/hooks/guard.sh'; bash '${code.root}/added.sh'; node '${code.root}/tools/server.mjs'`);
    expect(existsSync(join(code.root, 'added.sh'))).toBe(false);
    expect(extras).toEqual({});
  });

  it('in the sandbox binds each copy over the workspace, and rewrites where nothing can be bound (a symlink, a deleted file)', async () => {
    const command = 'bash .claude/hooks/guard.sh; node tools/server.mjs; bash root.sh';
    const hooks = { Stop: [{ hooks: [{ type: 'command' as const, command }] }] };
    const code = await prepareTrustedCode(input({ hooks, sandboxed: true }));
    rmSync(join(workspace, 'root.sh'));
    rmSync(join(workspace, 'tools'), { recursive: true });
    symlinkSync('/etc', join(workspace, 'tools'));
    const { command: out, extras } = code.hook(command);
    expect(out).toBe(`bash .claude/hooks/guard.sh; node '${code.root}/tools/server.mjs'; bash '${code.root}/root.sh'`);
    expect(extras.binds).toEqual([
      { source: code.root, dest: code.root },
      { source: join(code.root, '.claude'), dest: join(workspace, '.claude') },
    ]);
  });

  it('rewrites an MCP server argv the same way', async () => {
    const code = await prepareTrustedCode(input({ servers: [['node', 'tools/server.mjs']] }));
    const { launch } = code.stdio({ command: 'node', args: ['tools/server.mjs', '--stdio'], env: {} });
    expect([launch.command, ...launch.args]).toEqual(['node', join(code.root, 'tools/server.mjs'), '--stdio']);
  });

  it('refuses a ref that could be taken for an option', async () => {
    await expect(prepareTrustedCode(input({ ref: '--upload-pack=touch /tmp/x' }))).rejects.toThrow(/Refusing/);
  });
});
