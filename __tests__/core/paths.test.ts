import path from 'node:path';
import { isInside, relativePath } from '../../src/core/paths.js';

describe('relativePath', () => {
  const froms = ['/', '/w', '/w/ws', '/w/ws/', '/w//ws', '/w/./ws', '/w/ws/..', 'w/ws', '', '.', '/w/w'];
  const tos = [
    '/',
    '/w',
    '/w/ws',
    '/w/ws/',
    '/w/ws/a.ts',
    '/w/ws/src/.env',
    '/w/ws/.github/x',
    '/w/ws/..foo',
    '/w/ws/../x',
    '/w/ws/./a',
    '/w/ws//a',
    '/w/wsx/a',
    '/w/ws/a/.',
    '/w/ws/a/..',
    '/other/a',
    'rel/a',
    '',
  ];

  it('answers as path.relative for every pair, resolved or not', () => {
    for (const from of froms) for (const to of tos) expect([from, to, relativePath(from, to)]).toEqual([from, to, path.relative(from, to)]);
  });

  it('isInside keeps its meaning', () => {
    expect(isInside('/w/ws/a', '/w/ws')).toBe(true);
    expect(isInside('/w/ws', '/w/ws')).toBe(true);
    expect(isInside('/w/wsx', '/w/ws')).toBe(false);
    expect(isInside('/w/ws/../x', '/w/ws')).toBe(false);
    expect(isInside('/w', '/w/ws')).toBe(false);
    expect(isInside('/anything', '/')).toBe(true);
  });
});
