import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ToolCall, ToolOutcome, ToolSet, ToolSpec } from '../../src/core/tools.js';
import type { DiffFile, Hunk } from '../../src/review/diff.js';
import { Findings, type EarlierComment } from '../../src/review/findings.js';
import { REVIEW_COMMENT, reviewCommentTool, withReviewComment } from '../../src/review/review-comment.js';

const ROOT = '/work/repo';

function hunk(oldStart: number, oldLines: number, newStart: number, newLines: number): Hunk {
  return {
    oldStart,
    oldLines,
    newStart,
    newLines,
    right: newLines > 0 ? [newStart, newStart + newLines - 1] : null,
    left: oldLines > 0 ? [oldStart, oldStart + oldLines - 1] : null,
  };
}

const FILES: DiffFile[] = [
  { path: 'src/a.ts', status: 'modified', hunks: [hunk(10, 14, 10, 15), hunk(87, 10, 88, 10)] },
  { path: 'src/new.ts', status: 'added', hunks: [hunk(0, 0, 1, 5)] },
  { path: 'src/gone.ts', status: 'removed', hunks: [hunk(1, 4, 0, 0)] },
  { path: 'src/after.ts', oldPath: 'src/before.ts', status: 'renamed', hunks: [hunk(3, 4, 3, 5)] },
  { path: 'src/only-add.ts', status: 'modified', hunks: [hunk(5, 0, 6, 3)] },
  { path: 'assets/logo.png', status: 'modified', hunks: [], binary: true },
];

function setup(earlier: EarlierComment[] = [], root = ROOT) {
  const findings = new Findings(earlier);
  const tool = reviewCommentTool(FILES, findings, root);
  return { findings, tool, call: (input: unknown): ToolOutcome => tool.execute(input) };
}

function text(outcome: ToolOutcome): string {
  return typeof outcome.content === 'string' ? outcome.content : '';
}

describe('ReviewComment: where a comment may go', () => {
  it('records a comment on a RIGHT line inside a hunk', () => {
    const { call, findings } = setup();
    const outcome = call({ file_path: 'src/a.ts', line: 12, body: '  `count` is never reset.  ' });
    expect(outcome.isError).toBe(false);
    expect(text(outcome)).toBe(
      'Recorded a suggestion comment on src/a.ts line 12 (RIGHT). 1 comment so far (0 blocking, 1 suggestion, 0 nit); ' +
        'they are posted together as one review when you finish.',
    );
    expect(findings.list()).toEqual([
      { path: 'src/a.ts', line: 12, side: 'RIGHT', body: '**Suggestion:** `count` is never reset.', severity: 'suggestion' },
    ]);
  });

  it('refuses a line between two hunks, naming both ranges', () => {
    const { call, findings } = setup();
    const outcome = call({ file_path: 'src/a.ts', line: 50, body: 'Hmm.' });
    expect(outcome.isError).toBe(true);
    expect(text(outcome)).toContain('Line 50 (RIGHT) of src/a.ts is not in the diff');
    expect(text(outcome)).toContain('src/a.ts has these RIGHT-side ranges in the diff: 10-24, 88-97.');
    expect(findings.size).toBe(0);
  });

  it('names the LEFT-side ranges for a LEFT comment outside them', () => {
    const outcome = setup().call({ file_path: 'src/a.ts', line: 97, side: 'LEFT', body: 'Why was this removed?' });
    expect(outcome.isError).toBe(true);
    expect(text(outcome)).toContain('src/a.ts has these LEFT-side ranges in the diff: 10-23, 87-96.');
  });

  it('refuses a start_line in another hunk than line', () => {
    const outcome = setup().call({ file_path: 'src/a.ts', start_line: 20, line: 90, body: 'This block.' });
    expect(outcome.isError).toBe(true);
    expect(text(outcome)).toContain('start_line 20 and line 90 are not in the same hunk');
    expect(text(outcome)).toContain('10-24, 88-97');
  });

  it('refuses start_line after line', () => {
    const outcome = setup().call({ file_path: 'src/a.ts', start_line: 14, line: 12, body: 'x' });
    expect(outcome).toEqual({ isError: true, content: expect.stringContaining('start_line (14) is after line (12)') });
  });

  it('takes start_line equal to line as a one-line comment', () => {
    const { call, findings } = setup();
    expect(call({ file_path: 'src/a.ts', start_line: 12, line: 12, body: 'x' }).isError).toBe(false);
    expect(findings.list()[0]).not.toHaveProperty('startLine');
  });

  it('refuses a path the pull request does not change, listing its files', () => {
    const outcome = setup().call({ file_path: 'src/b.ts', line: 1, body: 'x' });
    expect(outcome.isError).toBe(true);
    expect(text(outcome)).toBe(
      'src/b.ts is not one of the files this pull request changes. Changed files: ' +
        'src/a.ts, src/new.ts, src/gone.ts, src/after.ts, src/only-add.ts, assets/logo.png.',
    );
  });

  it('points from the old name of a renamed file to the new one, whose LEFT side it is', () => {
    const { call } = setup();
    expect(text(call({ file_path: 'src/before.ts', line: 4, body: 'x' }))).toContain('renamed to src/after.ts');
    expect(call({ file_path: 'src/after.ts', line: 4, side: 'LEFT', body: 'x' }).isError).toBe(false);
  });

  it('refuses LEFT on an added file and RIGHT on a deleted one, saying why', () => {
    const { call } = setup();
    const left = call({ file_path: 'src/new.ts', line: 2, side: 'LEFT', body: 'x' });
    expect(left).toEqual({ isError: true, content: expect.stringContaining('src/new.ts is a new file in this pull request') });
    const right = call({ file_path: 'src/gone.ts', line: 2, body: 'x' });
    expect(right).toEqual({ isError: true, content: expect.stringContaining('src/gone.ts is deleted by this pull request') });
    expect(call({ file_path: 'src/gone.ts', line: 2, side: 'LEFT', body: 'x' }).isError).toBe(false);
  });

  it('refuses a side the hunks do not show, naming the other side', () => {
    const outcome = setup().call({ file_path: 'src/only-add.ts', line: 5, side: 'LEFT', body: 'x' });
    expect(outcome.isError).toBe(true);
    expect(text(outcome)).toContain('no LEFT-side lines in the diff: its hunks only add lines');
    expect(text(outcome)).toContain('RIGHT-side ranges in the diff: 6-8.');
  });

  it('refuses a binary file', () => {
    const outcome = setup().call({ file_path: 'assets/logo.png', line: 1, body: 'x' });
    expect(outcome).toEqual({ isError: true, content: expect.stringContaining('assets/logo.png is a binary file') });
  });
});

describe('ReviewComment: what a comment says', () => {
  it('refuses an empty body without a suggestion, but takes a suggestion alone', () => {
    const { call, findings } = setup();
    expect(call({ file_path: 'src/a.ts', line: 12, body: ' \n ' })).toEqual({
      isError: true,
      content: expect.stringContaining('body is empty'),
    });
    expect(call({ file_path: 'src/a.ts', line: 12, body: '', suggestion: 'return 0;' }).isError).toBe(false);
    expect(findings.list()[0]?.body).toBe('**Suggestion:**\n\n```suggestion\nreturn 0;\n```');
  });

  it('renders a suggestion as a ```suggestion block for start_line..line', () => {
    const { call, findings } = setup();
    const input = {
      file_path: 'src/a.ts',
      start_line: 11,
      line: 13,
      body: 'Use a loop.',
      suggestion: 'for (const x of xs) f(x);\n',
      severity: 'nit',
    };
    const outcome = call(input);
    expect(text(outcome)).toContain('Recorded a nit comment on src/a.ts lines 11-13 (RIGHT).');
    expect(findings.list()).toEqual([
      {
        path: 'src/a.ts',
        startLine: 11,
        line: 13,
        side: 'RIGHT',
        body: '**Nit:** Use a loop.\n\n```suggestion\nfor (const x of xs) f(x);\n```',
        severity: 'nit',
      },
    ]);
  });

  it('refuses a suggestion on the LEFT side', () => {
    const outcome = setup().call({ file_path: 'src/a.ts', line: 12, side: 'LEFT', body: 'x', suggestion: 'y' });
    expect(outcome).toEqual({ isError: true, content: expect.stringContaining('needs side RIGHT') });
  });

  it('names the field of an input that does not match the schema', () => {
    const outcome = setup().call({ file_path: 'src/a.ts', line: '12', body: 'x', severity: 'major' });
    expect(outcome.isError).toBe(true);
    expect(text(outcome)).toMatch(/^Invalid input for ReviewComment:\n- line: .+\n- severity: .+\nCall ReviewComment again/);
  });
});

describe('ReviewComment: paths', () => {
  it('normalises an absolute path inside the workspace and a ./ path', () => {
    const { call, findings } = setup();
    expect(call({ file_path: path.join(ROOT, 'src', 'a.ts'), line: 12, body: 'one' }).isError).toBe(false);
    expect(call({ file_path: './src//a.ts', line: 13, body: 'two' }).isError).toBe(false);
    expect(findings.list().map((f) => f.path)).toEqual(['src/a.ts', 'src/a.ts']);
  });

  it('refuses an absolute path outside the workspace, and one climbing out', () => {
    const { call } = setup();
    expect(text(call({ file_path: '/etc/passwd', line: 1, body: 'x' }))).toContain('/etc/passwd is outside the workspace');
    expect(text(call({ file_path: '../repo/src/a.ts', line: 12, body: 'x' }))).toContain('does not name a file inside the repository');
  });

  it('takes the resolved spelling of a workspace reached through a symlink', async () => {
    const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'review-')));
    try {
      await fs.mkdir(path.join(dir, 'real'));
      await fs.symlink(path.join(dir, 'real'), path.join(dir, 'link'));
      const { call } = setup([], path.join(dir, 'link'));
      expect(call({ file_path: path.join(dir, 'real', 'src/a.ts'), line: 12, body: 'x' }).isError).toBe(false);
      expect(call({ file_path: path.join(dir, 'link', 'src/a.ts'), line: 13, body: 'x' }).isError).toBe(false);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('ReviewComment: duplicates', () => {
  it('drops a comment the action already left, whatever its severity label, without an error', () => {
    const { call, findings } = setup([{ path: 'src/a.ts', line: 12, body: '**Blocking:** Off by one.\r\n' }]);
    const outcome = call({ file_path: 'src/a.ts', line: 12, body: 'Off by one.', severity: 'nit' });
    expect(outcome.isError).toBe(false);
    expect(text(outcome)).toMatch(/^Already posted: an identical comment on src\/a.ts line 12 \(RIGHT\)/);
    expect(findings.size).toBe(0);
    expect(call({ file_path: 'src/a.ts', line: 13, body: 'Off by one.' }).isError).toBe(false);
    expect(findings.size).toBe(1);
  });

  it('drops a duplicate within the same run', () => {
    const { call, findings } = setup();
    call({ file_path: 'src/a.ts', line: 12, body: 'Off by one.', severity: 'blocking' });
    const again = call({ file_path: '/work/repo/src/a.ts', line: 12, body: 'Off by one.  ' });
    expect(again.isError).toBe(false);
    expect(text(again)).toContain('Already posted');
    expect(findings.list()).toHaveLength(1);
  });
});

describe('withReviewComment', () => {
  const inner: ToolSpec = { name: 'Read', description: 'r', readOnly: true, input_schema: { type: 'object' } };
  const calls: ToolCall[] = [];
  const base: ToolSet = {
    specs: () => [inner],
    isReadOnly: (name) => name === 'Read',
    execute: async (call) => {
      calls.push(call);
      return { isError: false, content: `ran ${call.name}` };
    },
  };

  it('offers ReviewComment after the inner tools, handles its calls and passes the rest on', async () => {
    const { tool, findings } = setup();
    const set = withReviewComment(base, tool);
    expect(set.specs().map((s) => s.name)).toEqual(['Read', REVIEW_COMMENT]);
    const spec = set.specs()[1];
    expect(spec).toMatchObject({ readOnly: true, keyArgument: 'file_path', input_schema: { type: 'object' } });
    expect(spec?.input_schema['required']).toEqual(['file_path', 'line', 'body']);
    expect(set.isReadOnly(REVIEW_COMMENT)).toBe(true);
    expect(set.isReadOnly('Bash')).toBe(false);
    const signal = new AbortController().signal;
    const read = await set.execute({ id: '1', name: 'Read', input: {} }, signal);
    expect(read).toEqual({ isError: false, content: 'ran Read' });
    const comment = await set.execute({ id: '2', name: REVIEW_COMMENT, input: { file_path: 'src/a.ts', line: 90, body: 'x' } }, signal);
    expect(comment.isError).toBe(false);
    expect(calls.map((c) => c.name)).toEqual(['Read']);
    expect(findings.size).toBe(1);
  });
});
