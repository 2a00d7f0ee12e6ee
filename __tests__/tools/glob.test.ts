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

describe("Glob over git's list, read in place", () => {
  const commit = (cwd: string, ...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', ...args], { cwd, stdio: 'pipe' });

  it('shows what picomatch matches in what git lists, for patterns the ending alone decides and others', async () => {
    const names = [
      '.ts',
      'a/.ts',
      'x.ts/y.ts',
      'x.ts/y.js',
      'weird #1.ts',
      '.dot/.hidden.ts',
      'ü/ñ.ts',
      'a b/c.test.ts',
      'lib/[x].ts',
      'back\\slash.ts',
      'notes.md',
      'deep/er/still/z.md',
      'z.tsx',
    ];
    await put(Object.fromEntries(names.map((n) => [n, 'x\n'])));
    execFileSync('git', ['init', '-q'], { cwd: root });
    commit(root, 'add', '.ts', 'a', 'x.ts', '.dot', 'lib', 'notes.md');
    commit(root, 'commit', '-qm', 'some tracked, some not');
    const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
      .split('\0')
      .filter(Boolean);
    const { default: picomatch } = await import('picomatch');
    for (const pattern of ['**/*.ts', '**/*.{ts,md}', '**/*.test.ts', '**/*s', '**/*.tsx', 'x.ts/*', '**/.*', '*.ts', '**/[ab]*/*']) {
      const expected = listed.filter((p) => picomatch.makeRe(pattern, { dot: true }).test(p)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const result = await glob({ pattern });
      expect({ pattern, shown: result.content.startsWith('No files match') ? [] : result.content.split('\n') }).toEqual({
        pattern,
        shown: expected,
      });
    }
  });

  it('merges untracked and tracked files into one sorted list, and counts the rest past the cap', async () => {
    await put(Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`t/f${String(i * 2).padStart(3, '0')}.txt`, ''])));
    execFileSync('git', ['init', '-q'], { cwd: root });
    commit(root, 'add', 't');
    commit(root, 'commit', '-qm', 'even');
    // Untracked files with odd numbers sit between the tracked ones.
    await put(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`t/f${String(i * 2 + 1).padStart(3, '0')}.txt`, ''])));
    const lines = (await glob({ pattern: 't/*.txt' })).content.split('\n');
    expect(lines.slice(0, 4)).toEqual(['t/f000.txt', 't/f001.txt', 't/f002.txt', 't/f003.txt']);
    // f000-f039 all 40, then the even ones from f040 to f158.
    expect(lines[99]).toBe('t/f158.txt');
    expect(lines[100]).toContain('70 more files not shown');
  });

  it('lists a file left unmerged by a conflict once', async () => {
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root });
    await put({ 'conflict.ts': 'base\n' });
    commit(root, 'add', 'conflict.ts');
    commit(root, 'commit', '-qm', 'base');
    commit(root, 'checkout', '-qb', 'other');
    await put({ 'conflict.ts': 'other\n' });
    commit(root, 'commit', '-qam', 'other');
    commit(root, 'checkout', '-q', 'main');
    await put({ 'conflict.ts': 'main\n' });
    commit(root, 'commit', '-qam', 'main');
    expect(() => commit(root, 'merge', '-q', 'other')).toThrow();
    expect(execFileSync('git', ['ls-files', '--stage', 'conflict.ts'], { cwd: root, encoding: 'utf8' }).trim().split('\n')).toHaveLength(3);
    expect((await glob({ pattern: '**/conflict.ts' })).content).toBe('conflict.ts');
  });

  it("keeps its pathspecs' meaning when the settings' env sets GIT_LITERAL_PATHSPECS or GIT_ICASE_PATHSPECS", async () => {
    execFileSync('git', ['init', '-q'], { cwd: root });
    await put({ '.gitignore': 'dist/\nnode_modules/\n', 'src/UPPER.TS': '' });
    const before = await glob({ pattern: '**/*.ts' });
    expect(before.content).toBe('src/a.ts\nsrc/b.ts\nsrc/deep/c.ts');
    ctx = { ...ctx, env: { ...ctx.env, GIT_LITERAL_PATHSPECS: '1', GIT_ICASE_PATHSPECS: '1' } };
    expect(await glob({ pattern: '**/*.ts' })).toEqual(before);
    expect((await glob({ pattern: 'src/deep/*.ts' })).content).toBe('src/deep/c.ts');
  });
});
