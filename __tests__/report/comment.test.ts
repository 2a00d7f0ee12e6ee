import { COMMENT_LIMIT, MARKER, closeOpenFence, finalComment, progressComment, type FinalReport } from '../../src/report/comment.js';

const RUN = 'https://github.com/o/r/actions/runs/1';

function report(over: Partial<FinalReport> = {}): FinalReport {
  return {
    conclusion: 'success',
    reason: '',
    result: 'Fixed the failing test by correcting the off-by-one.',
    runUrl: RUN,
    steps: 7,
    usage: { input_tokens: 1200, output_tokens: 800, cache_read_input_tokens: 10_000, cache_creation_input_tokens: 500 },
    costUsd: 0.0421,
    durationMs: 62_000,
    diff: 'diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-old\n+new\n',
    diffStat: ' a.txt | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n',
    changedFiles: ['a.txt'],
    pushed: true,
    ...over,
  };
}

function longDiff(lines: number, width = 60): string {
  const body = Array.from({ length: lines }, (_, i) => `+${String(i).padStart(6, '0')} ${'x'.repeat(width)}`).join('\n');
  return `diff --git a/big.txt b/big.txt\n--- /dev/null\n+++ b/big.txt\n@@ -0,0 +1,${lines} @@\n${body}\n`;
}

/** Fence lines outside code, as a markdown reader would toggle them. */
function fenceBalanced(markdown: string): boolean {
  return closeOpenFence(markdown) === markdown;
}

describe('progressComment', () => {
  const base = {
    runUrl: RUN,
    task: 'Fix the\nfailing test',
    currentStep: 'Bash: npm test',
    steps: 3,
    costUsd: 0.0123,
    startedAt: 1_000,
    now: 63_000,
  };

  it('starts with the marker and shows run link, steps, cost and time', () => {
    const body = progressComment({ ...base, todos: [] });
    expect(body.startsWith(MARKER)).toBe(true);
    expect(body).toContain(`[View run](${RUN})`);
    expect(body).toContain('3 steps');
    expect(body).toContain('$0.0123');
    expect(body).toContain('1m02s');
    expect(body).toContain('> Fix the failing test');
    expect(body).toContain('→ Bash: npm test');
  });

  it('renders the TodoWrite checklist, the active item bold with its activeForm', () => {
    const body = progressComment({
      ...base,
      todos: [
        { content: 'Read the test', status: 'completed' },
        { content: 'Fix the bug', status: 'in_progress', activeForm: 'Fixing the bug' },
        { content: 'Run the tests', status: 'pending' },
        { content: 'No active form', status: 'in_progress' },
      ],
    });
    expect(body).toContain('- [x] Read the test\n- [ ] **Fixing the bug**\n- [ ] Run the tests\n- [ ] **No active form**');
  });

  it('keeps untrusted items on one line and without raw HTML', () => {
    const body = progressComment({ ...base, todos: [{ content: 'a\n- [x] forged\n<!-- hide -->', status: 'pending' }], currentStep: null });
    expect(body).toContain('- [ ] a - [x] forged &lt;!-- hide -->');
    expect(body).not.toContain('→');
  });
});

describe('finalComment', () => {
  it('starts with the marker and holds status, text, links, diff and stats', () => {
    const body = finalComment(
      report({
        commit: { sha: 'abcdef1234567890', url: 'https://github.com/o/r/commit/abcdef1' },
        branch: 'agent/issue-1-fix',
        pr: { url: 'https://github.com/o/r/pull/2', number: 2 },
      }),
    );
    expect(body.startsWith(MARKER)).toBe(true);
    expect(body).toContain('✅ Success');
    expect(body).toContain('Fixed the failing test');
    expect(body).toContain('Commit [`abcdef1`](https://github.com/o/r/commit/abcdef1)');
    expect(body).toContain('Branch `agent/issue-1-fix`');
    expect(body).toContain('Pull request [#2](https://github.com/o/r/pull/2)');
    expect(body).toContain('```diff\ndiff --git a/a.txt b/a.txt');
    expect(body).not.toContain('<details>');
    expect(body).toContain('7 steps · 12k input tokens (10k cached), 800 output tokens · $0.0421 · 1m02s');
    expect(body).toContain(`[View run](${RUN})`);
  });

  it('says why a run stopped, and shows the note', () => {
    const body = finalComment(
      report({
        conclusion: 'max-steps',
        reason: 'reached 40 steps',
        note: 'fork PR: not pushed, apply the diff below',
        pushed: false,
        branch: 'feature',
      }),
    );
    expect(body).toContain('⚠️ Stopped (max-steps):** reached 40 steps');
    expect(body).toContain('> **Note:** fork PR: not pushed, apply the diff below');
    expect(body).toContain('Branch `feature` (not pushed)');
  });

  it('folds a diff longer than 40 lines into <details>', () => {
    const body = finalComment(report({ diff: longDiff(60), diffStat: ' big.txt | 60 +\n 1 file changed, 60 insertions(+)\n' }));
    expect(body).toMatch(/<details>\n<summary>Diff: 1 file changed, 60 insertions\(\+\)<\/summary>\n\n```diff\n/);
    expect(body).toMatch(/```\n\n<\/details>/);
  });

  it('cuts a 200k-character diff to fit under the limit, with a note pointing to the job summary', () => {
    const diff = longDiff(3000);
    expect(diff.length).toBeGreaterThan(200_000);
    const body = finalComment(report({ diff }));
    expect(body.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(body.length).toBeGreaterThan(COMMENT_LIMIT - 2000);
    expect(body).toMatch(/Diff cut to fit a comment: \d+ of 3,?00[0-9] lines shown\. The full diff is in the \[job summary\]/);
    expect(body).toContain('Fixed the failing test');
    expect(body).toContain('7 steps');
    expect(body.trimEnd().endsWith('</sub>')).toBe(true);
    expect(fenceBalanced(body)).toBe(true);
  });

  it('fits a lower limit when the caller appends to the body', () => {
    const body = finalComment(report({ diff: longDiff(3000) }), COMMENT_LIMIT - 100);
    expect(body.length).toBeLessThanOrEqual(COMMENT_LIMIT - 100);
    expect(body).toContain('Diff cut to fit a comment');
  });

  it('cuts the text after the diff when the text alone is too long', () => {
    const result = `Start.\n${'word '.repeat(30_000)}\nEND-MARK`;
    const body = finalComment(report({ result, diff: longDiff(3000) }));
    expect(body.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(body).toContain('Start.');
    expect(body).not.toContain('END-MARK');
    expect(body).toContain('Text cut to fit a comment; the full text is in the [job summary]');
    expect(body).toContain('is too long for a comment; it is in the [job summary]');
    expect(body).not.toContain('```diff');
    expect(body.trimEnd().endsWith('</sub>')).toBe(true);
  });

  it('uses a longer fence when the diff itself contains ```', () => {
    const diff = 'diff --git a/README.md b/README.md\n@@ -1 +1,3 @@\n+```js\n+code\n+```\n+````\n';
    const body = finalComment(report({ diff }));
    expect(body).toContain('`````diff\n');
    expect(body).toContain('+````\n`````');
    expect(fenceBalanced(body)).toBe(true);
  });

  it('keeps the fence safe when a long diff with ``` is cut', () => {
    const diff = `+\`\`\`\`\`\`\n${longDiff(3000)}`;
    const body = finalComment(report({ diff }));
    expect(body.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(body).toContain('```````diff\n');
    expect(fenceBalanced(body)).toBe(true);
  });

  it('closes a code fence the model left open, so links and stats still render', () => {
    const body = finalComment(report({ result: 'Here:\n```ts\nconst x = 1;' }));
    expect(body).toContain('const x = 1;\n```');
    expect(fenceBalanced(body)).toBe(true);
  });

  it('omits the diff section when nothing changed', () => {
    const body = finalComment(report({ diff: '', diffStat: '', changedFiles: [], note: 'nothing changed' }));
    expect(body).not.toContain('```');
    expect(body).toContain('> **Note:** nothing changed');
  });
});

describe('the stats line', () => {
  it('names its units, leaving out the cached part when nothing was read from cache', () => {
    const usage = { input_tokens: 950, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
    const body = finalComment(report({ steps: 1, usage, costUsd: 0.002, durationMs: 3_000 }));
    expect(body).toContain('<sub>1 step · 950 input tokens, 1 output token · $0.0020 · 3.0s · [View run]');
  });
});
