import { commentText, Findings, renderBody, suggestionBlock, type Finding } from '../../src/review/findings.js';

function finding(overrides: Partial<Finding> = {}): Finding {
  return { path: 'src/a.ts', line: 10, side: 'RIGHT', body: '**Nit:** x', severity: 'nit', ...overrides };
}

describe('renderBody', () => {
  it('puts the severity label before the text, and block markdown on its own line', () => {
    expect(renderBody(' Leaks the handle. ', 'blocking')).toBe('**Blocking:** Leaks the handle.');
    expect(renderBody('- one\n- two', 'suggestion')).toBe('**Suggestion:**\n\n- one\n- two');
    expect(renderBody('Simpler:', 'nit', 'a()')).toBe('**Nit:** Simpler:\n\n```suggestion\na()\n```');
  });

  it('fences a suggestion that holds backticks with a longer fence, and an empty one as a deletion', () => {
    expect(suggestionBlock('```js\nx\n```\n')).toBe('````suggestion\n```js\nx\n```\n````');
    expect(suggestionBlock('')).toBe('```suggestion\n```');
  });
});

describe('commentText', () => {
  it('leaves out the label, hidden markers, CRLF and trailing spaces', () => {
    expect(commentText('<!-- agent-action -->\r\n**Blocking:** Off  \r\nby one. \r\n')).toBe('Off\nby one.');
    expect(commentText(renderBody('Off by one.', 'nit'))).toBe(commentText(renderBody('Off by one.', 'blocking')));
  });
});

describe('Findings', () => {
  it('counts severities and knows when one blocks', () => {
    const findings = new Findings();
    findings.add(finding({ line: 1, severity: 'nit', body: '**Nit:** a' }));
    findings.add(finding({ line: 2, severity: 'suggestion', body: '**Suggestion:** b' }));
    expect(findings.hasBlocking()).toBe(false);
    findings.add(finding({ line: 3, severity: 'blocking', body: '**Blocking:** c' }));
    findings.add(finding({ line: 4, severity: 'nit', body: '**Nit:** d' }));
    expect(findings.bySeverity()).toEqual({ blocking: 1, suggestion: 1, nit: 2 });
    expect(findings.hasBlocking()).toBe(true);
    expect(findings.size).toBe(4);
  });

  it('drops one already posted or already kept, and ignores outdated earlier comments', () => {
    const findings = new Findings([
      { path: 'src/a.ts', line: 10, body: '**Blocking:** Same.' },
      { path: 'src/a.ts', line: null, body: '**Nit:** Outdated.' },
    ]);
    expect(findings.add(finding({ body: '**Nit:** Same.' }))).toBe('duplicate');
    expect(findings.add(finding({ body: '**Nit:** Outdated.' }))).toBe('added');
    expect(findings.add(finding({ body: '**Blocking:** Outdated.', severity: 'blocking' }))).toBe('duplicate');
    expect(findings.add(finding({ path: 'src/b.ts', body: '**Nit:** Same.' }))).toBe('added');
    expect(findings.bySeverity()).toEqual({ blocking: 0, suggestion: 0, nit: 2 });
  });

  it('lists by path and line whatever order the calls finished in, and hands out copies', () => {
    const findings = new Findings();
    findings.add(finding({ path: 'src/b.ts', line: 5, body: 'b5' }));
    findings.add(finding({ path: 'src/a.ts', line: 30, body: 'a30' }));
    findings.add(finding({ path: 'src/a.ts', line: 7, body: 'a7 first' }));
    findings.add(finding({ path: 'src/a.ts', line: 7, body: 'a7 second' }));
    const list = findings.list();
    expect(list.map((f) => f.body)).toEqual(['a7 first', 'a7 second', 'a30', 'b5']);
    list[0]!.body = 'changed';
    expect(findings.list()[0]?.body).toBe('a7 first');
  });
});
