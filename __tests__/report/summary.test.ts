import { closeOpenFence, type FinalReport } from '../../src/report/comment.js';
import { formatCount } from '../../src/report/format.js';
import { SUMMARY_LIMIT, jobSummary } from '../../src/report/summary.js';

function report(over: Partial<FinalReport & { trigger: string }> = {}): FinalReport & { trigger: string } {
  return {
    trigger: 'issue_comment on #12 by @octocat',
    conclusion: 'success',
    reason: '',
    result: 'All done.',
    runUrl: 'https://github.com/o/r/actions/runs/1',
    steps: 12,
    usage: { input_tokens: 1234, output_tokens: 567, cache_read_input_tokens: 89_000, cache_creation_input_tokens: 4321 },
    costUsd: 1.5,
    durationMs: 125_000,
    diff: 'diff --git a/a b/a\n@@ -1 +1 @@\n-x\n+y\n',
    diffStat: ' a | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n',
    changedFiles: ['a', 'docs/a|b.md'],
    pushed: true,
    ...over,
  };
}

describe('jobSummary', () => {
  it('has the table, the final text and the full diff', () => {
    const md = jobSummary(
      report({ commit: { sha: '0123456789abcdef', url: 'https://x/commit/0123456' }, pr: { url: 'https://x/pull/3', number: 3 } }),
    );
    expect(md).toContain('| Trigger | issue_comment on #12 by @octocat |');
    expect(md).toContain('| Conclusion | ✅ `success` |');
    expect(md).toContain('| Steps | 12 |');
    expect(md).toContain('| Tokens | 1,234 uncached input · 567 output · 89,000 cache read · 4,321 cache write |');
    expect(md).toContain('| Cost | $1.50 |');
    expect(md).toContain('| Time | 2m05s |');
    expect(md).toContain('| Files changed | 2 |');
    expect(md).toContain('| Commit | [`0123456`](https://x/commit/0123456) |');
    expect(md).toContain('| Pull request | [#3](https://x/pull/3) |');
    expect(md).toContain('### Result\n\nAll done.');
    expect(md).toContain('- `docs/a\\|b.md`');
    expect(md).toContain('```diff\ndiff --git a/a b/a\n@@ -1 +1 @@\n-x\n+y\n```');
  });

  it('keeps table cells on one line', () => {
    const md = jobSummary(report({ conclusion: 'error', reason: 'model said\n| no | way |' }));
    expect(md).toContain('| Conclusion | ⚠️ `error`: model said \\| no \\| way \\| |');
  });

  it('caps a huge diff near 1,000,000 characters with a note', () => {
    const line = `+${'y'.repeat(99)}\n`;
    const md = jobSummary(report({ diff: `diff --git a/b b/b\n${line.repeat(20_000)}` }));
    expect(md.length).toBeLessThanOrEqual(SUMMARY_LIMIT);
    expect(md.length).toBeGreaterThan(SUMMARY_LIMIT - 5_000);
    expect(md).toMatch(/Diff cut to fit the job summary: [\d,]+ of 20,001 lines shown/);
    expect(closeOpenFence(md)).toBe(md);
  });
});

describe('formatCount', () => {
  it('groups thousands with commas, as en-US does', () => {
    for (const n of [0, 7, 999, 1000, 65_536, 1_000_000, 1_234_567_890, -4321]) expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
  });
});

describe('jobSummary: delivery', () => {
  it('lists what reached GitHub and what did not, and says where an unpushed commit is', () => {
    const md = jobSummary({
      ...report({
        conclusion: 'undelivered',
        commit: { sha: 'abcdef0123456', url: 'https://x/commit/abcdef0' },
        pushed: false,
        branch: 'b',
      }),
      undelivered: ['the push to `b`: rejected', 'the final comment: 401 Bad credentials'],
      commentUrl: 'https://x/issues/1#issuecomment-5',
    });
    const part = md.slice(md.indexOf('### Delivery'), md.indexOf('### Result'));
    expect(part).toContain('- ✅ [Tracking comment](https://x/issues/1#issuecomment-5)');
    expect(part).toContain('- ❌ Not delivered: the push to `b`: rejected');
    expect(part).toContain('- ❌ Not delivered: the final comment: 401 Bad credentials');
    expect(part).toContain("`abcdef0` is in the runner's workspace");
    expect(part).not.toContain('pushed to');
    expect(md).toContain('## agent-action: ⚠️ undelivered');
    expect(md).toContain('+y');
  });

  it('names a pushed commit and the pull request as delivered', () => {
    const md = jobSummary({
      ...report({ commit: { sha: 'abcdef0123456', url: 'https://x/c' }, branch: 'agent/x', pr: { url: 'https://x/pull/3', number: 3 } }),
      undelivered: [],
    });
    expect(md).toContain('- ✅ Commit [`abcdef0`](https://x/c) pushed to `agent/x`');
    expect(md).toContain('- ✅ Pull request [#3](https://x/pull/3)');
    expect(md).not.toContain('Not delivered');
  });
});
