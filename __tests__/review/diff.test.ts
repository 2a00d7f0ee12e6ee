import { diffFileFromPullFile, parsePatch, parseUnifiedDiff, type DiffFile, type Hunk } from '../../src/review/diff.js';

/** `git diff --cached -M` of a real repository: edits, an added, a deleted, a renamed and a binary file. */
const GIT_DIFF = [
  'diff --git a/docs/my notes.sql b/docs/my notes.sql',
  'index 1983061..b77b4eb 100644',
  '--- a/docs/my notes.sql\t',
  '+++ b/docs/my notes.sql\t',
  '@@ -1,3 +1,2 @@',
  ' x',
  '--- sql comment',
  ' y',
  'diff --git a/logo.png b/logo.png',
  'index 8352675..791c2bb 100644',
  'Binary files a/logo.png and b/logo.png differ',
  'diff --git a/src/added.ts b/src/added.ts',
  'new file mode 100644',
  'index 0000000..0f5248f',
  '--- /dev/null',
  '+++ b/src/added.ts',
  '@@ -0,0 +1,2 @@',
  '+export const added = 1;',
  '+export const two = 2;',
  'diff --git a/src/app.ts b/src/app.ts',
  'index bab081f..cdd5801 100644',
  '--- a/src/app.ts',
  '+++ b/src/app.ts',
  '@@ -1,6 +1,6 @@',
  ' line 1',
  ' line 2',
  '-line 3',
  '+line three',
  ' line 4',
  ' line 5',
  ' line 6',
  '@@ -32,7 +32,8 @@ line 31',
  ' line 32',
  ' line 33',
  ' line 34',
  '-line 35',
  '+line thirty-five',
  '+line 35b',
  ' line 36',
  ' line 37',
  ' line 38',
  'diff --git a/src/util.ts b/src/helpers.ts',
  'similarity index 89%',
  'rename from src/util.ts',
  'rename to src/helpers.ts',
  'index 9debae7..c8d956e 100644',
  '--- a/src/util.ts',
  '+++ b/src/helpers.ts',
  '@@ -3,7 +3,7 @@ util 2',
  ' util 3',
  ' util 4',
  ' util 5',
  '-util 6',
  '+helper 6',
  ' util 7',
  ' util 8',
  ' util 9',
  'diff --git a/src/nonl.txt b/src/nonl.txt',
  'index 1c943a9..6dcce7d 100644',
  '--- a/src/nonl.txt',
  '+++ b/src/nonl.txt',
  '@@ -1,3 +1,3 @@',
  ' a',
  ' b',
  '-c',
  '\\ No newline at end of file',
  '+C',
  'diff --git a/src/old.ts b/src/old.ts',
  'deleted file mode 100644',
  'index fedc263..0000000',
  '--- a/src/old.ts',
  '+++ /dev/null',
  '@@ -1,3 +0,0 @@',
  '-gone 1',
  '-gone 2',
  '-gone 3',
  'diff --git a/src/one.txt b/src/one.txt',
  'index 3367afd..3e75765 100644',
  '--- a/src/one.txt',
  '+++ b/src/one.txt',
  '@@ -1 +1 @@',
  '-old',
  '+new',
].join('\n');

/**
 * A second `git diff --binary`: an empty new file, a GIT binary patch, a pure rename, a mode change,
 * a quoted name, and diff text inside a hunk.
 */
const SECOND_DIFF = [
  'diff --git a/empty.txt b/empty.txt',
  'new file mode 100644',
  'index 0000000..e69de29',
  'diff --git a/logo.png b/logo.png',
  'index 791c2bbc1a53e5f645495d47792986c7cec5739b..00ffac900d2cff292237a83e04efac71be67fa29 100644',
  'GIT binary patch',
  'literal 2',
  'JcmZQz1pojC00sa6',
  '',
  'literal 4',
  'LcmZSJWMT&Z04e|z',
  '',
  'diff --git a/out.diff b/out.diff',
  'new file mode 100644',
  'index 0000000..f64003f',
  '--- /dev/null',
  '+++ b/out.diff',
  '@@ -0,0 +1,5 @@',
  '+diff --git a/x b/x',
  '+--- a/x',
  '++++ b/x',
  '+@@ -1 +1 @@',
  '+-old',
  'diff --git a/src/app.ts b/src/main.ts',
  'similarity index 100%',
  'rename from src/app.ts',
  'rename to src/main.ts',
  'diff --git a/src/one.txt b/src/one.txt',
  'old mode 100644',
  'new mode 100755',
  'diff --git "a/t\\303\\251st.md" "b/t\\303\\251st.md"',
  'new file mode 100644',
  'index 0000000..45b983b',
  '--- /dev/null',
  '+++ "b/t\\303\\251st.md"',
  '@@ -0,0 +1 @@',
  '+hi',
  '',
].join('\n');

function byPath(files: DiffFile[]): Map<string, DiffFile> {
  return new Map(files.map((f) => [f.path, f]));
}

describe('parseUnifiedDiff', () => {
  const files = byPath(parseUnifiedDiff(GIT_DIFF));

  it('finds every file once, in diff order', () => {
    expect([...files.keys()]).toEqual([
      'docs/my notes.sql',
      'logo.png',
      'src/added.ts',
      'src/app.ts',
      'src/helpers.ts',
      'src/nonl.txt',
      'src/old.ts',
      'src/one.txt',
    ]);
  });

  it('reads a modified file with two hunks, each with its RIGHT and LEFT ranges', () => {
    expect(files.get('src/app.ts')).toEqual({
      path: 'src/app.ts',
      status: 'modified',
      hunks: [
        { oldStart: 1, oldLines: 6, newStart: 1, newLines: 6, right: [1, 6], left: [1, 6] },
        { oldStart: 32, oldLines: 7, newStart: 32, newLines: 8, right: [32, 39], left: [32, 38] },
      ],
    });
  });

  it('marks an added file: RIGHT lines only', () => {
    expect(files.get('src/added.ts')).toEqual({
      path: 'src/added.ts',
      status: 'added',
      hunks: [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 2, right: [1, 2], left: null }],
    });
  });

  it('marks a deleted file under its old path: LEFT lines only', () => {
    expect(files.get('src/old.ts')).toEqual({
      path: 'src/old.ts',
      status: 'removed',
      hunks: [{ oldStart: 1, oldLines: 3, newStart: 0, newLines: 0, right: null, left: [1, 3] }],
    });
  });

  it('marks a rename with its old path', () => {
    const file = files.get('src/helpers.ts');
    expect(file).toMatchObject({ path: 'src/helpers.ts', oldPath: 'src/util.ts', status: 'renamed' });
    expect(file?.hunks.map((h) => [h.right, h.left])).toEqual([
      [
        [3, 9],
        [3, 9],
      ],
    ]);
  });

  it('marks a binary file, which has no hunks', () => {
    expect(files.get('logo.png')).toEqual({ path: 'logo.png', status: 'modified', hunks: [], binary: true });
  });

  it('does not count "\\ No newline at end of file" as a line', () => {
    const nonl: Hunk = { oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, right: [1, 3], left: [1, 3] };
    expect(files.get('src/nonl.txt')?.hunks).toEqual([nonl]);
  });

  it('reads omitted counts as 1', () => {
    expect(files.get('src/one.txt')?.hunks).toEqual([{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, right: [1, 1], left: [1, 1] }]);
  });

  it('takes a path with a space from the tab-ended --- and +++ lines, and a deleted "-- x" line as a line', () => {
    expect(files.get('docs/my notes.sql')).toEqual({
      path: 'docs/my notes.sql',
      status: 'modified',
      hunks: [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 2, right: [1, 2], left: [1, 3] }],
    });
  });
});

describe('parseUnifiedDiff, the rarer headers', () => {
  const files = parseUnifiedDiff(SECOND_DIFF);

  it('reads an empty new file, a GIT binary patch, a pure rename, a mode change and a quoted name', () => {
    expect(files).toEqual([
      { path: 'empty.txt', status: 'added', hunks: [] },
      { path: 'logo.png', status: 'modified', hunks: [], binary: true },
      { path: 'out.diff', status: 'added', hunks: [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 5, right: [1, 5], left: null }] },
      { path: 'src/main.ts', oldPath: 'src/app.ts', status: 'renamed', hunks: [] },
      { path: 'src/one.txt', status: 'modified', hunks: [] },
      { path: 'tést.md', status: 'added', hunks: [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 1, right: [1, 1], left: null }] },
    ]);
  });

  it('reads a plain unified diff without diff --git lines, and a binary line naming /dev/null', () => {
    const plain = [
      '--- a/one.c\t2024-01-01 00:00:00',
      '+++ b/one.c\t2024-01-02 00:00:00',
      '@@ -5,0 +6,2 @@',
      '+int x;',
      '+int y;',
      '--- a/two.c',
      '+++ b/two.c',
      '@@ -9,2 +8,0 @@',
      '-int z;',
      '-int w;',
      'diff --git a/pic.gif b/pic.gif',
      'deleted file mode 100644',
      'Binary files a/pic.gif and /dev/null differ',
    ].join('\n');
    expect(parseUnifiedDiff(plain)).toEqual([
      { path: 'one.c', status: 'modified', hunks: [{ oldStart: 5, oldLines: 0, newStart: 6, newLines: 2, right: [6, 7], left: null }] },
      { path: 'two.c', status: 'modified', hunks: [{ oldStart: 9, oldLines: 2, newStart: 8, newLines: 0, right: null, left: [9, 10] }] },
      { path: 'pic.gif', status: 'removed', hunks: [], binary: true },
    ]);
  });

  it('gives nothing for an empty diff', () => {
    expect(parseUnifiedDiff('')).toEqual([]);
  });
});

describe('parsePatch', () => {
  it('reads the patch of a pull request file as GitHub gives it, CRLF lines and all', () => {
    const patch = ['@@ -10,4 +10,5 @@ function a() {', ' a', '-b', '+B', '+C', ' d', ' e', '@@ -40 +41,0 @@', '-gone'].join('\r\n');
    expect(parsePatch(patch)).toEqual([
      { oldStart: 10, oldLines: 4, newStart: 10, newLines: 5, right: [10, 14], left: [10, 13] },
      { oldStart: 40, oldLines: 1, newStart: 41, newLines: 0, right: null, left: [40, 40] },
    ]);
  });

  it('counts a context line whose leading space was trimmed, and stops at a hunk cut short', () => {
    const patch = ['@@ -1,3 +1,3 @@', ' a', '', '-c', '+C', '@@ -20,5 +20,5 @@', ' x', ' y'].join('\n');
    expect(parsePatch(patch).map((h) => [h.right, h.left])).toEqual([
      [
        [1, 3],
        [1, 3],
      ],
      [
        [20, 21],
        [20, 21],
      ],
    ]);
  });
});

describe('diffFileFromPullFile', () => {
  it('maps GitHub file statuses and patches', () => {
    const renamed = { filename: 'b.ts', previous_filename: 'a.ts', status: 'renamed', patch: '@@ -1 +1 @@\n-a\n+b' };
    expect(diffFileFromPullFile(renamed)).toEqual({
      path: 'b.ts',
      oldPath: 'a.ts',
      status: 'renamed',
      hunks: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, right: [1, 1], left: [1, 1] }],
    });
    expect(diffFileFromPullFile({ filename: 'c.ts', previous_filename: 'a.ts', status: 'copied' })).toMatchObject({
      status: 'renamed',
      oldPath: 'a.ts',
    });
    expect(diffFileFromPullFile({ filename: 'big.json', status: 'changed' })).toEqual({ path: 'big.json', status: 'modified', hunks: [] });
  });
});
