import { findPhrase } from '../../src/untrusted/prose.js';
import { sanitizeUntrusted } from '../../src/untrusted/sanitize.js';

// Trigger detection and sanitizing share one reading of HTML comments: the phrase counts exactly
// when it survives sanitizing, i.e. when a reader of the rendered comment can see it.
describe('HTML comments end where a browser ends them, for both', () => {
  test.each([
    ['<!-- /agent fix -->', false],
    ['<!-- never closed /agent fix', false],
    ['<!-->/agent fix', true],
    ['<!--->/agent fix', true],
    ['<!-- note --!> /agent fix', true],
  ])('%s', (text, visible) => {
    expect(findPhrase(text, '/agent') !== null).toBe(visible);
    expect(sanitizeUntrusted(text).includes('/agent')).toBe(visible);
  });
});

test('the match points into the original text', () => {
  const text = '`/agent` in code, then /agent fix';
  expect(findPhrase(text, '/agent')).toEqual({ start: 23, end: 29 });
});
