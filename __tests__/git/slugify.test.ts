import { slugify } from '../../src/git/repo.js';

describe('slugify', () => {
  it.each([
    ['Fix the failing test!', 'fix-the-failing-test'],
    ['  Ünïcödé   çase  ', 'unicode-case'],
    ['$(id) && rm -rf /', 'id-rm-rf'],
    ['', ''],
    ['a'.repeat(50), 'a'.repeat(40)],
    ['please refactor the authentication module into smaller pieces', 'please-refactor-the-authentication'],
  ])('%j -> %j', (input, expected) => {
    expect(slugify(input)).toBe(expected);
  });
});
