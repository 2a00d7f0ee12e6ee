import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readTool } from '../../src/tools/builtin/read.js';
import { executeToolCall, type ToolContext, type ToolResult } from '../../src/tools/tool.js';
import { Workspace } from '../../src/tools/workspace.js';

let root: string;
let ctx: ToolContext;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'read-'));
  const workspace = await Workspace.open(root, { runnerTemp: '' });
  ctx = { workspace, signal: new AbortController().signal, env: {}, outputLimit: 1_000_000 };
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

function read(input: unknown): Promise<ToolResult> {
  return executeToolCall(new Map([['Read', readTool]]), 'Read', input, ctx);
}

const numbered = (n: number, text: string): string => `${String(n).padStart(6)}\t${text}`;

describe('Read', () => {
  it('numbers lines past the first ten thousand and past six digits as cat -n does', async () => {
    const lines = (count: number) => Array.from({ length: count }, (_, i) => `l${i + 1}`).join('\n');
    // Under a megabyte (read at once), then over it (streamed).
    await fs.writeFile(path.join(root, 'small.txt'), lines(10_003));
    await fs.writeFile(path.join(root, 'big.txt'), lines(1_000_003));
    const near = await read({ file_path: 'small.txt', offset: 9_998, limit: 4 });
    expect(near.content).toContain([9_998, 9_999, 10_000, 10_001].map((n) => numbered(n, `l${n}`)).join('\n'));
    const far = await read({ file_path: 'big.txt', offset: 999_999, limit: 5 });
    expect(far.content).toBe([999_999, 1_000_000, 1_000_001, 1_000_002, 1_000_003].map((n) => numbered(n, `l${n}`)).join('\n'));
  });

  it('numbers lines like cat -n', async () => {
    await fs.writeFile(path.join(root, 'a.txt'), 'one\ntwo\r\nthree\n');
    const result = await read({ file_path: 'a.txt' });
    expect(result).toMatchObject({ isError: false, content: [numbered(1, 'one'), numbered(2, 'two'), numbered(3, 'three')].join('\n') });
    expect(await result.hookResponse?.()).toEqual({
      type: 'text',
      file: { filePath: path.join(root, 'a.txt'), content: 'one\ntwo\r\nthree\n', numLines: 4, startLine: 1, totalLines: 4 },
    });
  });

  it('starts at offset, stops at limit and says how to continue', async () => {
    const lines = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`);
    await fs.writeFile(path.join(root, 'long.txt'), lines.join('\n'));
    const result = await read({ file_path: path.join(root, 'long.txt'), offset: 10, limit: 5 });
    expect(result.content.split('\n').slice(0, 5)).toEqual([10, 11, 12, 13, 14].map((n) => numbered(n, `line ${n}`)));
    expect(result.content).toContain('Call Read with offset 15 to continue');
  });

  it('reads the last line without a note when the file ends', async () => {
    await fs.writeFile(path.join(root, 'b.txt'), 'a\nb\nc');
    const result = await read({ file_path: 'b.txt', offset: 2, limit: 2 });
    expect(result.content).toBe([numbered(2, 'b'), numbered(3, 'c')].join('\n'));
  });

  it('reads 2000 lines by default', async () => {
    await fs.writeFile(path.join(root, 'big.txt'), 'x\n'.repeat(2500));
    const result = await read({ file_path: 'big.txt' });
    expect(result.content).toContain(numbered(2000, 'x'));
    expect(result.content).not.toContain(numbered(2001, 'x'));
    expect(result.content).toContain('offset 2001');
  });

  it('cuts lines longer than 2000 characters with a marker', async () => {
    await fs.writeFile(path.join(root, 'wide.txt'), `${'y'.repeat(5000)}\nshort\n`);
    const result = await read({ file_path: 'wide.txt' });
    expect(result.content).toContain(`${numbered(1, 'y'.repeat(2000))} [... 3000 more characters on this line]`);
    expect(result.content).toContain(numbered(2, 'short'));
  });

  it('refuses binary files by content and by extension', async () => {
    await fs.writeFile(path.join(root, 'data.txt'), Buffer.from([0x41, 0x00, 0x42]));
    await fs.writeFile(path.join(root, 'image.png'), 'not really');
    const byContent = await read({ file_path: 'data.txt' });
    const byName = await read({ file_path: 'image.png' });
    expect(byContent.isError).toBe(true);
    expect(byContent.content).toContain('binary');
    expect(byName.isError).toBe(true);
    expect(byName.content).toContain('binary file (.png)');
  });

  it('refuses directories and points to Glob', async () => {
    await fs.mkdir(path.join(root, 'src'));
    const result = await read({ file_path: 'src' });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('is a directory. Use Glob');
  });

  it('says when a file is empty, missing, or the offset is past the end', async () => {
    await fs.writeFile(path.join(root, 'empty.txt'), '');
    await fs.writeFile(path.join(root, 'two.txt'), 'a\nb\n');
    expect((await read({ file_path: 'empty.txt' })).content).toContain('empty');
    expect((await read({ file_path: 'two.txt', offset: 9 })).content).toContain('has 2 lines; offset 9 is past the end');
    const missing = await read({ file_path: 'nope.txt' });
    expect(missing).toMatchObject({ isError: true, content: expect.stringContaining('does not exist') });
  });

  it('stops at the output limit and says where to continue', async () => {
    ctx.outputLimit = 100;
    await fs.writeFile(path.join(root, 'c.txt'), 'abcdefghij\n'.repeat(50));
    const result = await read({ file_path: 'c.txt' });
    expect(result.content).toContain('Output limit reached');
    expect(result.content.length).toBeLessThan(300);
  });

  it('reads a file past 1 MB (streamed) line for line as a small one (read whole)', async () => {
    // CRLF endings, a line cut at 2000 characters, and no final newline, in both sizes.
    const lines = (n: number) => Array.from({ length: n }, (_, i) => (i % 7 === 3 ? 'x'.repeat(2500) : `line ${i}\r`));
    const small = lines(40).join('\n');
    const big = lines(3000).join('\n');
    expect(Buffer.byteLength(big)).toBeGreaterThan(1 << 20);
    await fs.writeFile(path.join(root, 'small.txt'), small);
    await fs.writeFile(path.join(root, 'big.txt'), big);
    for (const input of [{ limit: 40 }, { offset: 5, limit: 12 }, { offset: 30, limit: 11 }]) {
      const a = await read({ file_path: 'small.txt', ...input });
      const b = await read({ file_path: 'big.txt', ...input });
      expect(a.isError).toBe(false);
      expect(b.content.startsWith(a.content)).toBe(true);
      expect(b.content.split('\n')[input.limit]).toBe('');
      expect(a.content.startsWith(numbered(input.offset ?? 1, `line ${(input.offset ?? 1) - 1}\n`))).toBe(true);
      expect(a.content).not.toContain('\r');
    }
    expect((await read({ file_path: 'small.txt', offset: 41 })).content).toBe(
      'small.txt has 40 lines; offset 41 is past the end. Use a smaller offset.',
    );
    expect((await read({ file_path: 'big.txt', offset: 2991 })).content.split('\n')).toHaveLength(10);
  });

  it('refuses paths outside the workspace', async () => {
    const result = await read({ file_path: '/etc/hostname' });
    expect(result).toMatchObject({ isError: true, content: expect.stringContaining('outside the workspace') });
  });
});
