import { importPath, readInstructions } from '../../src/extensions/imports.js';

/** A repository of files; records what was asked for. */
function repo(files: Record<string, string>) {
  const asked: string[] = [];
  return {
    asked,
    read: (path: string) => {
      asked.push(path);
      return Promise.resolve(files[path]);
    },
  };
}

describe('importPath', () => {
  test('relative to the importing file; a leading / is the repository root; nothing outside it or under ~', () => {
    expect(importPath('CLAUDE.md', 'AGENTS.md')).toBe('AGENTS.md');
    expect(importPath('docs/CLAUDE.md', './a/../b.md')).toBe('docs/b.md');
    expect(importPath('docs/x.md', '/top.md')).toBe('top.md');
    expect(importPath('CLAUDE.md', '../outside.md')).toBeNull();
    expect(importPath('docs/x.md', '../../outside.md')).toBeNull();
    expect(importPath('CLAUDE.md', '~/notes.md')).toBeNull();
  });
});

describe('readInstructions', () => {
  test('CLAUDE.md, its imports depth first, then .claude/CLAUDE.md and AGENTS.md unless already imported', async () => {
    const r = repo({
      'CLAUDE.md': 'top @AGENTS.md @docs/a.md',
      'AGENTS.md': 'agents',
      'docs/a.md': 'a @b.md',
      'docs/b.md': 'b',
      '.claude/CLAUDE.md': 'local @../AGENTS.md',
    });
    const found = await readInstructions(r.read, 10_000);
    expect(found?.path).toBe('CLAUDE.md, .claude/CLAUDE.md');
    expect(found?.content).toBe(
      'top @AGENTS.md @docs/a.md' +
        '\n\nContents of AGENTS.md, imported by CLAUDE.md:\n\nagents' +
        '\n\nContents of docs/a.md, imported by CLAUDE.md:\n\na @b.md' +
        '\n\nContents of docs/b.md, imported by docs/a.md:\n\nb' +
        '\n\nContents of .claude/CLAUDE.md:\n\nlocal @../AGENTS.md',
    );
  });

  test('a cycle is read once; five files deep at most; a name that is no file stays prose', async () => {
    const r = repo({
      'CLAUDE.md': '@a.md @someone',
      'a.md': '@b.md @CLAUDE.md',
      'b.md': '@c.md',
      'c.md': '@d.md',
      'd.md': '@e.md',
      'e.md': 'too deep',
    });
    const found = await readInstructions(r.read, 10_000);
    expect(found?.content).toContain('Contents of d.md');
    expect(found?.content).not.toContain('too deep');
    expect(r.asked.filter((p) => p === 'CLAUDE.md')).toHaveLength(1);
    expect(r.asked).not.toContain('e.md');
  });

  test('AGENTS.md alone; none at all; the limit cuts the whole and stops reading', async () => {
    expect((await readInstructions(repo({ 'AGENTS.md': 'only' }).read, 100))?.content).toBe('only');
    expect(await readInstructions(repo({}).read, 100)).toBeUndefined();
    const r = repo({ 'CLAUDE.md': `${'x'.repeat(50)} @a.md @b.md`, 'a.md': 'y'.repeat(100), 'b.md': 'never read' });
    const found = await readInstructions(r.read, 80);
    expect(found?.content).toHaveLength(80);
    expect(r.asked).not.toContain('b.md');
  });
});
