import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { grepTool } from '../../src/tools/builtin/grep.js';
import { toolEnvironment } from '../../src/tools/env.js';
import { executeToolCall, type ToolContext, type ToolResult } from '../../src/tools/tool.js';
import { Workspace } from '../../src/tools/workspace.js';

let root: string;
let ctx: ToolContext;

async function put(files: Record<string, string | Buffer>): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await fs.writeFile(path.join(root, name), content);
  }
}

async function setUp(withGit: boolean): Promise<void> {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'grep-'));
  const workspace = await Workspace.open(root, { runnerTemp: '' });
  ctx = { workspace, signal: new AbortController().signal, env: toolEnvironment(process.env), outputLimit: 100_000 };
  if (withGit) execFileSync('git', ['init', '-q'], { cwd: root });
  await put({
    'src/b.ts': 'export const Alpha = 1;\nconst beta = 2;\nconst alpha2 = 3;\n',
    'src/a.ts': 'line one\nline two\nalpha here\nline four\nline five\n',
    'docs/guide.md': 'Alpha in docs\n',
    'ignored/x.ts': 'alpha ignored\n',
    'blob.bin': Buffer.from('alpha\0binary'),
    '.npmrc': 'alpha=secret\n',
    '.gitignore': 'ignored/\n',
  });
}

const grep = (input: unknown): Promise<ToolResult> => executeToolCall(new Map([['Grep', grepTool]]), 'Grep', input, ctx);

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe.each([
  ['in a git repository', true],
  ['outside git', false],
])('Grep %s', (_label, withGit) => {
  beforeEach(() => setUp(withGit));

  it('lists matching files sorted by default, skipping binary and credential files', async () => {
    const result = await grep({ pattern: 'alpha' });
    const expected = withGit ? 'src/a.ts\nsrc/b.ts' : 'ignored/x.ts\nsrc/a.ts\nsrc/b.ts';
    expect(result).toEqual({ isError: false, content: expected });
  });

  it('matches case-insensitively with -i and filters with glob', async () => {
    expect((await grep({ pattern: 'alpha', '-i': true, glob: '*.md' })).content).toBe('docs/guide.md');
    expect((await grep({ pattern: 'ALPHA', '-i': true, glob: '*.{ts,md}', path: 'src' })).content).toBe('src/a.ts\nsrc/b.ts');
  });

  it('shows path:line:text in content mode, with context lines', async () => {
    const plain = await grep({ pattern: 'alpha\\d', output_mode: 'content', path: 'src' });
    expect(plain.content).toBe('src/b.ts:3:const alpha2 = 3;');
    const context = await grep({ pattern: 'alpha', output_mode: 'content', '-C': 1, glob: 'src/a.ts' });
    expect(context.content).toBe('src/a.ts-2-line two\nsrc/a.ts:3:alpha here\nsrc/a.ts-4-line four');
  });

  it('counts matches per file in count mode', async () => {
    const result = await grep({ pattern: 'alpha', output_mode: 'count', '-i': true, path: 'src' });
    expect(result.content).toBe('src/a.ts:1\nsrc/b.ts:2');
  });

  it('says when nothing matches', async () => {
    const result = await grep({ pattern: 'zebra' });
    expect(result).toEqual({ isError: false, content: 'No matches for "zebra" in the workspace.' });
  });

  it('caps long answers at head_limit and says so', async () => {
    const result = await grep({ pattern: 'line', output_mode: 'content', head_limit: 2 });
    const lines = result.content.split('\n');
    expect(lines.slice(0, 2)).toEqual(['src/a.ts:1:line one', 'src/a.ts:2:line two']);
    expect(lines[2]).toContain('Capped at 2 lines');
  });

  it('searches a single file given as path', async () => {
    const result = await grep({ pattern: 'two', output_mode: 'content', path: 'src/a.ts' });
    expect(result.content).toBe('src/a.ts:2:line two');
  });

  it('searches an ignored directory when it is asked for by path', async () => {
    const result = await grep({ pattern: 'alpha', path: 'ignored' });
    expect(result.content).toBe('ignored/x.ts');
  });

  it('does not follow a symlink out of the workspace', async () => {
    await fs.symlink('/etc/passwd', path.join(root, 'link.txt'));
    const result = await grep({ pattern: 'root', output_mode: 'content' });
    expect(result.content).not.toContain('link.txt');
  });

  it('reports an invalid pattern as an error', async () => {
    const result = await grep({ pattern: '(unclosed' });
    expect(result.isError).toBe(true);
  });
});

describe('Grep outside git, line by line', () => {
  beforeEach(() => setUp(false));

  it('anchors at line ends, strips CR and lets lookarounds see only the line', async () => {
    await put({ 'crlf.txt': 'x\r\nend alpha\r\nalpha start\r\n', 'look.txt': 'q\nalpha\n' });
    const anchored = await grep({ pattern: 'alpha$', output_mode: 'content' });
    expect(anchored.content).toBe('crlf.txt:2:end alpha\nlook.txt:2:alpha');
    const look = await grep({ pattern: '(?<![\\s\\S])alpha', output_mode: 'content', glob: '*.txt' });
    expect(look.content).toBe('crlf.txt:3:alpha start\nlook.txt:2:alpha');
  });

  it('passes over a FIFO without waiting for a writer', async () => {
    execFileSync('mkfifo', [path.join(root, 'src', 'pipe.ts')]);
    const result = await grep({ pattern: 'alpha', path: 'src' });
    expect(result.content).toBe('src/a.ts\nsrc/b.ts');
  });
});
