import { diffFromPatches, type ListedFile } from '../../src/github/pull-diff.js';
import { parseUnifiedDiff } from '../../src/review/diff.js';

const file = (filename: string, patch: string | undefined, extra: Partial<ListedFile> = {}): ListedFile => ({
  filename,
  status: 'modified',
  additions: 1,
  deletions: 1,
  ...(patch === undefined ? {} : { patch }),
  ...extra,
});

describe('diffFromPatches', () => {
  it('puts the patches together as a unified diff that parses back to the same files and statuses', () => {
    const files = [
      file('a.ts', '@@ -1 +1 @@\n-x\n+y'),
      file('new.ts', '@@ -0,0 +1 @@\n+n', { status: 'added' }),
      file('gone.ts', '@@ -1 +0,0 @@\n-g', { status: 'removed' }),
      file('to.ts', '@@ -1 +1 @@\n-p\n+q', { status: 'renamed', previous_filename: 'from.ts' }),
      file('logo.png', undefined),
    ];
    const { diff, cut } = diffFromPatches(files, 100_000);
    expect(cut).toBe(0);
    expect(diff).not.toContain('logo.png');
    const parsed = parseUnifiedDiff(diff).map((f) => ({ path: f.path, status: f.status, oldPath: f.oldPath }));
    expect(parsed).toEqual([
      { path: 'a.ts', status: 'modified', oldPath: undefined },
      { path: 'new.ts', status: 'added', oldPath: undefined },
      { path: 'gone.ts', status: 'removed', oldPath: undefined },
      { path: 'to.ts', status: 'renamed', oldPath: 'from.ts' },
    ]);
  });

  it('stops at the limit and counts every character left out, so the whole is the full diff', () => {
    const files = Array.from({ length: 50 }, (_, i) => file(`f${i}.ts`, `@@ -1 +1 @@\n-${'a'.repeat(100)}\n+${'b'.repeat(100)}`));
    const full = diffFromPatches(files, Infinity);
    const capped = diffFromPatches(files, 1000);
    expect(capped.diff).toHaveLength(1000);
    expect(full.diff.startsWith(capped.diff)).toBe(true);
    expect(capped.diff.length + capped.cut).toBe(full.diff.length);
  });
});
