import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { editTool } from '../../src/tools/builtin/edit.js';
import { executeToolCall, type ToolContext, type ToolDefinition, type ToolResult } from '../../src/tools/tool.js';
import { Workspace } from '../../src/tools/workspace.js';
import { writeTool } from '../../src/tools/builtin/write.js';

let root: string;
let ctx: ToolContext;
const tools = new Map<string, ToolDefinition>([
  ['Write', writeTool],
  ['Edit', editTool],
]);

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'edit-'));
  const workspace = await Workspace.open(root, { runnerTemp: '' });
  ctx = { workspace, signal: new AbortController().signal, env: {}, outputLimit: 100_000 };
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const call = (name: string, input: unknown): Promise<ToolResult> => executeToolCall(tools, name, input, ctx);
const contentOf = (name: string): Promise<string> => fs.readFile(path.join(root, name), 'utf8');

describe('Write', () => {
  it('creates parent directories and reports what it wrote', async () => {
    const result = await call('Write', { file_path: 'deep/er/new.txt', content: 'a\nb\n' });
    expect(result).toMatchObject({ isError: false, content: 'Created deep/er/new.txt (4 bytes, 2 lines).' });
    const abs = path.join(root, 'deep/er/new.txt');
    expect(await result.hookResponse?.()).toEqual({
      type: 'create',
      filePath: abs,
      content: 'a\nb\n',
      structuredPatch: [],
      originalFile: null,
      userModified: false,
    });
    const again = await call('Write', { file_path: 'deep/er/new.txt', content: 'a\nc\n' });
    expect(await again.hookResponse?.()).toEqual({
      type: 'update',
      filePath: abs,
      content: 'a\nc\n',
      structuredPatch: [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: [' a', '-b', '+c'] }],
      originalFile: 'a\nb\n',
      userModified: false,
    });
    expect(await contentOf('deep/er/new.txt')).toBe('a\nc\n');
  });

  it('says when it overwrote a file', async () => {
    await fs.writeFile(path.join(root, 'x.txt'), 'old');
    const result = await call('Write', { file_path: 'x.txt', content: 'new' });
    expect(result.content).toContain('Overwrote x.txt');
    expect(await contentOf('x.txt')).toBe('new');
  });

  it('refuses to write a credential file', async () => {
    const result = await call('Write', { file_path: '.npmrc', content: 'x' });
    expect(result.isError).toBe(true);
  });
});

describe('Edit', () => {
  beforeEach(async () => {
    await fs.writeFile(path.join(root, 'f.ts'), 'const a = 1;\nconst b = 2;\nconst a2 = 1;\n');
  });

  it('replaces a unique match and shows the edited lines', async () => {
    const result = await call('Edit', { file_path: 'f.ts', old_string: 'const b = 2;', new_string: 'const b = $&3;' });
    expect(result.isError).toBe(false);
    expect(result.content).toContain(`${String(2).padStart(6)}\tconst b = $&3;`);
    expect(await contentOf('f.ts')).toBe('const a = 1;\nconst b = $&3;\nconst a2 = 1;\n');
    expect(await result.hookResponse?.()).toEqual({
      filePath: path.join(root, 'f.ts'),
      oldString: 'const b = 2;',
      newString: 'const b = $&3;',
      originalFile: 'const a = 1;\nconst b = 2;\nconst a2 = 1;\n',
      structuredPatch: [
        {
          oldStart: 1,
          oldLines: 3,
          newStart: 1,
          newLines: 3,
          lines: [' const a = 1;', '-const b = 2;', '+const b = $&3;', ' const a2 = 1;'],
        },
      ],
      userModified: false,
      replaceAll: false,
    });
  });

  it('refuses an ambiguous match and states the count', async () => {
    const result = await call('Edit', { file_path: 'f.ts', old_string: '= 1;', new_string: '= 9;' });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('occurs 2 times');
    expect(result.content).toContain('replace_all');
    expect(await contentOf('f.ts')).toContain('= 1;');
  });

  it('replaces every match with replace_all', async () => {
    const result = await call('Edit', { file_path: 'f.ts', old_string: '= 1;', new_string: '= 9;', replace_all: true });
    expect(result.content).toContain('Replaced 2 occurrences');
    expect(await contentOf('f.ts')).toBe('const a = 9;\nconst b = 2;\nconst a2 = 9;\n');
  });

  it('reports no match, with a hint when only whitespace differs', async () => {
    const none = await call('Edit', { file_path: 'f.ts', old_string: 'const z', new_string: 'x' });
    expect(none).toMatchObject({ isError: true, content: expect.stringContaining('not found') });
    const loose = await call('Edit', { file_path: 'f.ts', old_string: '  const  b = 2;', new_string: 'x' });
    expect(loose.content).toContain('differing only in whitespace is at line 2');
  });

  it('refuses identical old and new strings', async () => {
    const result = await call('Edit', { file_path: 'f.ts', old_string: 'a', new_string: 'a' });
    expect(result).toMatchObject({ isError: true, content: expect.stringContaining('identical') });
  });

  it('creates a missing file when old_string is empty', async () => {
    const result = await call('Edit', { file_path: 'new/g.ts', old_string: '', new_string: 'hello\n' });
    expect(result.content).toContain('Created new/g.ts');
    expect(await contentOf('new/g.ts')).toBe('hello\n');
    const missing = await call('Edit', { file_path: 'nope.ts', old_string: 'x', new_string: 'y' });
    expect(missing).toMatchObject({ isError: true, content: expect.stringContaining('does not exist') });
  });

  it('matches across lines in a CRLF file', async () => {
    await fs.writeFile(path.join(root, 'w.txt'), 'one\r\ntwo\r\nthree\r\n');
    const result = await call('Edit', { file_path: 'w.txt', old_string: 'one\ntwo', new_string: 'ONE\nTWO' });
    expect(result.isError).toBe(false);
    expect(await contentOf('w.txt')).toBe('ONE\r\nTWO\r\nthree\r\n');
  });
});
