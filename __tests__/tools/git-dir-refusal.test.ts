import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { editTool } from '../../src/tools/builtin/edit.js';
import { writeTool } from '../../src/tools/builtin/write.js';
import { executeToolCall, type ToolContext, type ToolDefinition, type ToolResult } from '../../src/tools/tool.js';
import { Workspace } from '../../src/tools/workspace.js';

const tools = new Map<string, ToolDefinition>([
  ['Write', writeTool],
  ['Edit', editTool],
]);
let root: string;
let ctx: ToolContext;

async function open(): Promise<void> {
  ctx = { workspace: await Workspace.open(root, { runnerTemp: '' }), signal: new AbortController().signal, env: {}, outputLimit: 100_000 };
}

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gitdir-refusal-')));
  execFileSync('git', ['init', '--quiet', root], { env: { PATH: process.env['PATH'] ?? '', HOME: root, GIT_CONFIG_NOSYSTEM: '1' } });
  await fs.mkdir(path.join(root, 'nested', '.git'), { recursive: true });
  await fs.writeFile(path.join(root, 'nested', '.git', 'config'), '[core]\n');
  await fs.writeFile(path.join(root, 'nested', '.git', 'HEAD'), 'ref: refs/heads/main\n');
  await open();
});
afterEach(() => fs.rm(root, { recursive: true, force: true }));

const call = (name: string, input: unknown): Promise<ToolResult> => executeToolCall(tools, name, input, ctx);
const exists = (p: string) =>
  fs.lstat(path.join(root, p)).then(
    () => true,
    () => false,
  );

const REFUSED = /Refused: .* is in git's own files \(\.git\)\. The action stages, commits and pushes your changes itself/;

describe('Write and Edit under .git', () => {
  it.each([
    '.git/commondir',
    '.git/objects/info/alternates',
    '.git/info/attributes',
    '.git/worktrees/w/gitdir',
    '.git/config.worktree',
    '.GIT/commondir',
    'nested/.git/config',
    'nested/.git/hooks/pre-commit',
    'nested/.git',
    'other/.git',
    `${'x/'.repeat(3)}.git/HEAD`,
  ])('Write refuses %s with a message saying the action commits, and writes nothing', async (file) => {
    const before = await exists(file);
    const result = await call('Write', { file_path: file, content: 'gitdir: /tmp/evil\n' });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(REFUSED);
    if (!before) expect(await exists(file)).toBe(false);
  });

  it('refuses an absolute path into .git, and one that reaches it through a symlink', async () => {
    await fs.symlink(path.join(root, '.git'), path.join(root, 'innocent'));
    for (const file of [path.join(root, '.git', 'commondir'), 'innocent/commondir', 'innocent/info/attributes']) {
      const result = await call('Write', { file_path: file, content: 'x' });
      expect(result.content).toMatch(REFUSED);
    }
    expect(await exists('.git/commondir')).toBe(false);
  });

  it('Edit refuses to change a file under .git, which stays as it was', async () => {
    const result = await call('Edit', { file_path: 'nested/.git/config', old_string: '[core]', new_string: '[core]\n\tfsmonitor = x' });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(REFUSED);
    expect(await fs.readFile(path.join(root, 'nested', '.git', 'config'), 'utf8')).toBe('[core]\n');
  });

  it('refuses the git dir a `.git` file points at, wherever in the workspace it is', async () => {
    await fs.rename(path.join(root, '.git'), path.join(root, 'repo-store'));
    await fs.writeFile(path.join(root, '.git'), 'gitdir: repo-store\n');
    await open();
    const result = await call('Write', { file_path: 'repo-store/commondir', content: 'x' });
    expect(result.content).toMatch(REFUSED);
    expect(await exists('repo-store/commondir')).toBe(false);
  });

  it('still writes .gitattributes, .gitignore and files whose names merely contain .git', async () => {
    for (const file of ['.gitattributes', '.gitignore', 'docs/.github/x.md', 'a.git/b', '.gitmodules']) {
      const result = await call('Write', { file_path: file, content: 'x\n' });
      expect(result.isError).toBe(false);
      expect(await fs.readFile(path.join(root, file), 'utf8')).toBe('x\n');
    }
  });
});
