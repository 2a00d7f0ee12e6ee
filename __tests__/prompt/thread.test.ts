import type { ThreadComment } from '../../src/github/context.js';
import { estimateTokens, threadSection } from '../../src/prompt/thread.js';

const comment = (i: number, body: string): ThreadComment => ({
  author: `u${i}`,
  body,
  createdAt: `2026-01-01T00:${String(i).padStart(2, '0')}:00Z`,
});

describe('threadSection', () => {
  it('keeps a short thread whole, in order, with no note', () => {
    const text = threadSection([comment(1, 'first'), comment(2, 'second')], 1000);
    expect(text.indexOf('first')).toBeLessThan(text.indexOf('second'));
    expect(text).not.toContain('left out');
  });

  it('keeps the newest comments that fit, by size: one long old comment goes before many short new ones', () => {
    const comments = [comment(0, 'L'.repeat(20_000)), ...Array.from({ length: 50 }, (_, i) => comment(i + 1, `short-${i + 1}`))];
    const text = threadSection(comments, 3000);
    expect(text).toMatch(/^\[1 older comments left out to keep the task within the context window; the newest 50 follow\]/);
    expect(text).not.toContain('LLLL');
    expect(text).toContain('short-1\n');
    expect(estimateTokens(text)).toBeLessThanOrEqual(3000 + 50);
  });

  it('keeps the beginning of a newest comment that alone is over the budget', () => {
    const text = threadSection([comment(0, 'ancient-comment'), comment(1, `START ${'x'.repeat(100_000)}`)], 1000);
    expect(text).toContain('START');
    expect(text).toMatch(/comment cut: \d+ more characters/);
    expect(text).not.toContain('ancient-comment');
    expect(estimateTokens(text)).toBeLessThanOrEqual(1000);
  });
});
