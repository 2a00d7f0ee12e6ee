import type { ListedFile } from '../../src/github/pull-diff.js';
import { changedFilesList } from '../../src/prompt/file-list.js';

const files = (n: number, dir = (i: number) => `pkg/m${i % 3}`): ListedFile[] =>
  Array.from({ length: n }, (_, i) => ({ filename: `${dir(i)}/f${i}.ts`, status: 'added', additions: 2, deletions: 0 }));

describe('changedFilesList', () => {
  it('lists every file of a small pull request', () => {
    const list = changedFilesList(files(3), 3);
    expect(list.split('\n')).toEqual(['- pkg/m0/f0.ts (added, +2 -0)', '- pkg/m1/f1.ts (added, +2 -0)', '- pkg/m2/f2.ts (added, +2 -0)']);
    expect(changedFilesList([], 0)).toBe('(none)');
  });

  it('lists the first hundred of 3,000 and counts the rest by folder, in a few KB', () => {
    const list = changedFilesList(files(3000), 3000);
    expect(list).toContain('- pkg/m0/f99.ts');
    expect(list).not.toContain('f100.ts');
    expect(list).toContain('[2900 more changed files not listed here (3000 in all), by folder:');
    expect(list).toMatch(/pkg\/m1\/ \(967\)\n {2}- pkg\/m2\/ \(967\)\n {2}- pkg\/m0\/ \(966\)/);
    expect(list.length).toBeLessThan(8_000);
  });

  it('counts files past the 3,000 GitHub lists, and names only the largest folders', () => {
    const list = changedFilesList(
      files(3000, (i) => `d${i}`),
      3500,
    );
    expect(list).toContain('3400 more changed files not listed here (3500 in all)');
    expect(list).toContain('500 past the 3,000 files GitHub lists');
    expect(list).toContain('2860 more folders');
  });
});
