import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { globTool } from '../../src/tools/builtin/glob.js';
import { toolEnvironment } from '../../src/tools/env.js';
import { executeToolCall, type ToolContext, type ToolResult } from '../../src/tools/tool.js';
import { Workspace } from '../../src/tools/workspace.js';

let root: string;
let ctx: ToolContext;

async function put(files: Record<string, string>): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await fs.writeFile(path.join(root, name), content);
  }
}

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'glob-'));
  const workspace = await Workspace.open(root, { runnerTemp: '' });
  ctx = { workspace, signal: new AbortController().signal, env: toolEnvironment(process.env), outputLimit: 100_000 };
  await put({
    'src/b.ts': '',
    'src/a.ts': '',
    'src/deep/c.ts': '',
    'README.md': '',
    'node_modules/dep/index.ts': '',
    'dist/out.ts': '',
    '.gitignore': 'dist/\n',
  });
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const glob = (input: unknown): Promise<ToolResult> => executeToolCall(new Map([['Glob', globTool]]), 'Glob', input, ctx);

describe('Glob', () => {
  it('lists matches sorted, relative to the root, skipping what .gitignore ignores', async () => {
    execFileSync('git', ['init', '-q'], { cwd: root });
    await put({ '.gitignore': 'dist/\nnode_modules/\n' });
    const result = await glob({ pattern: '**/*.ts' });
    expect(result).toEqual({ isError: false, content: 'src/a.ts\nsrc/b.ts\nsrc/deep/c.ts' });
  });

  it('searches under path and still returns root-relative paths', async () => {
    execFileSync('git', ['init', '-q'], { cwd: root });
    const result = await glob({ pattern: '*.ts', path: 'src' });
    expect(result.content).toBe('src/a.ts\nsrc/b.ts');
  });

  it('lists an ignored directory when it is asked for by path', async () => {
    execFileSync('git', ['init', '-q'], { cwd: root });
    await put({ '.gitignore': 'node_modules/\n' });
    const result = await glob({ pattern: '**/*', path: 'node_modules/dep' });
    expect(result.content).toBe('node_modules/dep/index.ts');
  });

  it('walks the tree outside git, skipping .git and node_modules', async () => {
    const result = await glob({ pattern: '**/*.ts' });
    expect(result.content).toBe('dist/out.ts\nsrc/a.ts\nsrc/b.ts\nsrc/deep/c.ts');
  });

  it('caps the list at 100 and says how many more there are', async () => {
    await put(Object.fromEntries(Array.from({ length: 130 }, (_, i) => [`many/f${String(i).padStart(3, '0')}.txt`, ''])));
    const result = await glob({ pattern: 'many/*.txt' });
    const lines = result.content.split('\n');
    expect(lines).toHaveLength(101);
    expect(lines[0]).toBe('many/f000.txt');
    expect(lines[100]).toContain('30 more files not shown');
  });

  it('says when nothing matches and hints at **/', async () => {
    const result = await glob({ pattern: '*.ts' });
    expect(result.content).toContain('No files match "*.ts"');
    expect(result.content).toContain('**/*.ts');
  });

  it('refuses a path outside the workspace', async () => {
    const result = await glob({ pattern: '*', path: '/etc' });
    expect(result).toMatchObject({ isError: true, content: expect.stringContaining('outside the workspace') });
  });
});

describe('Glob in a git repository and outside one', () => {
  it('gives the same answer with git listing the literal directories as with a walk of a plain directory', async () => {
    const files = [
      'a.md',
      'abc.txt',
      'aXc.txt',
      'src/x.ts',
      'src/y.js',
      'src/deep/z.ts',
      'src/deep/b1.js',
      '.hidden/h.ts',
      'docs/a.md',
      'lib/[x].ts',
    ];
    const make = async (git: boolean) => {
      const root = await fs.mkdtemp(path.join(os.tmpdir(), 'glob-same-'));
      for (const f of files) {
        await fs.mkdir(path.dirname(path.join(root, f)), { recursive: true });
        await fs.writeFile(path.join(root, f), 'x\n');
      }
      if (git) {
        // Half tracked, half not: git matches the tracked ones, picomatch the untracked ones.
        execFileSync('git', ['init', '-q'], { cwd: root });
        execFileSync('git', ['add', 'src/x.ts', 'src/deep', 'a.md', 'lib'], { cwd: root });
        execFileSync('git', ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', 'commit', '-qm', 'half'], { cwd: root });
      }
      const ws = await Workspace.open(root);
      return { workspace: ws, signal: new AbortController().signal, env: toolEnvironment(process.env), outputLimit: 30000 };
    };
    const [inGit, plain] = await Promise.all([make(true), make(false)]);
    for (const pattern of [
      '**/*.ts',
      '*.md',
      'src/**/*.{js,ts}',
      'a?c.txt',
      '**/[ab]*.js',
      '.hidden/**',
      '**/*.md',
      'src/*',
      '{src,docs}/**/*',
      'src/deep/*.js',
      'missing/**',
      '+(src|docs)/*',
    ]) {
      expect(await globTool.run({ pattern }, inGit)).toBe(await globTool.run({ pattern }, plain));
    }
  });
});
