import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ToolError } from '../../src/tools/tool.js';
import { Workspace } from '../../src/tools/workspace.js';

let root: string;
let workspace: Workspace;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'ws-'));
  workspace = await Workspace.open(root, { runnerTemp: '' });
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function refusal(filePath: string, mode: 'read' | 'write' = 'read'): Promise<string> {
  const error: unknown = await workspace.resolve(filePath, mode).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ToolError);
  return error instanceof Error ? error.message : '';
}

describe('Workspace.resolve', () => {
  it('resolves relative and absolute paths inside the workspace, existing or not', async () => {
    await fs.writeFile(path.join(root, 'a.txt'), 'x');
    const real = await fs.realpath(root);
    expect(await workspace.resolve('a.txt', 'read')).toBe(path.join(real, 'a.txt'));
    expect(await workspace.resolve(path.join(root, 'new/dir/b.txt'), 'write')).toBe(path.join(real, 'new/dir/b.txt'));
    expect(workspace.relative(path.join(real, 'new/b.txt'))).toBe('new/b.txt');
    expect(workspace.relative(real)).toBe('.');
  });

  it('refuses ../ escapes and absolute paths outside, saying what is allowed', async () => {
    expect(await refusal('../x')).toContain(`Paths must be inside the workspace ${workspace.root}`);
    expect(await refusal('/etc/passwd')).toContain('outside the workspace');
    expect(await refusal('sub/../../x', 'write')).toContain('outside the workspace');
  });

  it('refuses symlinks inside the workspace that point outside it', async () => {
    await fs.symlink('/etc/passwd', path.join(root, 'passwd'));
    await fs.symlink('/proc/self/environ', path.join(root, 'environ'));
    await fs.symlink('/etc', path.join(root, 'etcdir'));
    expect(await refusal('passwd')).toContain('resolves to /etc/passwd');
    expect(await refusal('environ')).toContain('outside the workspace');
    expect(await refusal('etcdir/hostname')).toContain('outside the workspace');
  });

  it('refuses writing through a dangling symlink to a new file outside', async () => {
    const outside = path.join(os.tmpdir(), `ws-outside-${process.pid}-${Date.now()}`);
    await fs.symlink(outside, path.join(root, 'dangling'));
    expect(await refusal('dangling', 'write')).toContain('outside the workspace');
  });

  it('refuses /proc even when spelled directly', async () => {
    expect(await refusal('/proc/self/environ')).toMatch(/outside the workspace|\/proc/);
  });

  it('refuses git config, git hooks for writing, and credential files', async () => {
    await fs.mkdir(path.join(root, '.git/hooks'), { recursive: true });
    await fs.writeFile(path.join(root, '.git/config'), '[core]');
    expect(await refusal('.git/config')).toContain('protected');
    expect(await refusal('.git/hooks/pre-commit', 'write')).toContain('hooks');
    await expect(workspace.resolve('.git/hooks/pre-commit', 'read')).resolves.toContain('pre-commit');
    for (const name of ['.npmrc', 'sub/.netrc', '.git-credentials', 'keys/id_rsa', 'id_ed25519.pub', 'server.PEM']) {
      expect(await refusal(name, 'write')).toContain('credential file');
    }
  });

  it('refuses a harmless-looking symlink to a credential file', async () => {
    await fs.writeFile(path.join(root, '.npmrc'), '//registry/:_authToken=x');
    await fs.symlink('.npmrc', path.join(root, 'notes.txt'));
    expect(await refusal('notes.txt')).toContain('credential file');
  });

  it('refuses anything under RUNNER_TEMP', async () => {
    const temp = path.join(root, 'runner-temp');
    await fs.mkdir(temp);
    const guarded = await Workspace.open(root, { runnerTemp: temp });
    await expect(guarded.resolve('runner-temp/creds', 'read')).rejects.toThrow("runner's temp directory");
    await expect(guarded.resolve('other.txt', 'read')).resolves.toContain('other.txt');
  });
});
