import {
  decideHookResult,
  matcherMatches,
  matchingHooks,
  parseHookStdout,
  type HookProcessResult,
} from '../../../src/tools/hooks/index.js';

const result = (over: Partial<HookProcessResult>): HookProcessResult => ({
  exitCode: 0,
  exitSignal: null,
  stdout: '',
  stderr: '',
  timedOut: false,
  cancelled: false,
  ms: 1,
  ...over,
});

describe('matcherMatches', () => {
  it.each([
    [undefined, 'Read', true],
    ['', 'Read', true],
    ['*', 'mcp__x__y', true],
    ['Write', 'Write', true],
    ['Edit', 'NotebookEdit', false],
    ['Edit|Write', 'Write', true],
    ['Edit|Write', 'Read', false],
    ['mcp__.*', 'mcp__github__create_issue', true],
    ['mcp__.*', 'Read', false],
    ['^Notebook', 'NotebookEdit', true],
    ['Notebook.*', 'Edit', false],
    ['Edit, Write', 'Write', true],
    ['Edit,Write', 'Edit', true],
    ['Edit, Write', 'MultiEdit', false],
    ['Agent', 'Task', true],
    ['Task', 'Task', true],
    ['Agent|Bash', 'Task', true],
    ['^Age', 'Task', true],
    ['Bash(', 'Bash', true],
    ['Bash(', 'Read', true],
  ])('%s against %s is %s', (matcher, tool, expected) => {
    expect(matcherMatches(matcher, tool)).toBe(expected);
  });

  it.each([
    ['SessionStart', 'startup', 'startup', true],
    ['SessionStart', 'resume|compact', 'startup', false],
    ['SessionStart', 'startup, clear', 'startup', true],
    ['SessionEnd', 'other', 'other', true],
    ['SessionEnd', 'logout', 'other', false],
    ['PreCompact', 'manual', 'auto', false],
    ['Stop', 'anything', 'whatever', false],
  ] as const)('%s: %s against %s is %s', (event, matcher, query, expected) => {
    expect(matcherMatches(matcher, query, event)).toBe(expected);
  });
});

describe('matchingHooks', () => {
  const cmd = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command' as const, command, ...extra });

  it('runs identical handlers once, in settings order, keeping ones that differ by if or args', () => {
    const settings = {
      PreToolUse: [
        { matcher: 'Bash', hooks: [cmd('a'), cmd('b')] },
        { matcher: '*', hooks: [cmd('a'), cmd('a', { if: 'Bash(git *)' }), cmd('a', { args: ['x'] })] },
        { matcher: 'Read', hooks: [cmd('c')] },
      ],
    };
    expect(matchingHooks(settings, 'PreToolUse', 'Bash')).toEqual([
      cmd('a'),
      cmd('b'),
      cmd('a', { if: 'Bash(git *)' }),
      cmd('a', { args: ['x'] }),
    ]);
  });

  it('a session event without a query runs every group', () => {
    const settings = { Stop: [{ matcher: 'x', hooks: [cmd('a')] }, { hooks: [cmd('b')] }] };
    expect(matchingHooks(settings, 'Stop')).toEqual([cmd('a'), cmd('b')]);
  });
});

describe('parseHookStdout', () => {
  it('reads JSON only when stdout starts with {', () => {
    expect(parseHookStdout('  hello\n')).toEqual({ kind: 'plain', text: 'hello' });
    expect(parseHookStdout('{"continue":true,"unknownField":1}')).toEqual({ kind: 'json', output: { continue: true } });
    expect(parseHookStdout('{oops')).toMatchObject({ kind: 'invalid', why: expect.stringMatching(/^printed invalid JSON/) });
    expect(parseHookStdout('{"decision":"maybe"}')).toMatchObject({
      kind: 'invalid',
      why: expect.stringMatching(/wrong shape \(decision: /),
    });
  });
});

describe('decideHookResult', () => {
  it('exit 2 blocks only events that can be blocked', () => {
    expect(decideHookResult('PreToolUse', result({ exitCode: 2, stderr: 'no\n' }), 1000)).toEqual({ outcome: 'blocked', reason: 'no' });
    expect(decideHookResult('SessionEnd', result({ exitCode: 2, stderr: 'no' }), 1000)).toEqual({ outcome: 'ok', notice: 'no' });
  });

  it('ignores stdout JSON unless the exit code is 0', () => {
    const stdout = '{"decision":"block","reason":"x"}';
    expect(decideHookResult('Stop', result({ exitCode: 1, stdout }), 1000)).toMatchObject({ outcome: 'failed' });
    expect(decideHookResult('Stop', result({ exitCode: 0, stdout }), 1000)).toEqual({ outcome: 'blocked', reason: 'x' });
  });

  it('reads permission decisions, the deprecated "approve", updated input and context for PreToolUse', () => {
    const json = (value: unknown) => result({ stdout: JSON.stringify(value) });
    const allow = { hookSpecificOutput: { permissionDecision: 'allow', updatedInput: { a: 1 }, additionalContext: 'c' } };
    expect(decideHookResult('PreToolUse', json(allow), 1000)).toEqual({
      outcome: 'ok',
      permission: 'allow',
      updatedInput: { a: 1 },
      additionalContext: 'c',
    });
    expect(decideHookResult('PreToolUse', json({ decision: 'approve' }), 1000)).toEqual({ outcome: 'ok', permission: 'allow' });
    const ask = { hookSpecificOutput: { permissionDecision: 'ask', permissionDecisionReason: 'r' } };
    expect(decideHookResult('PreToolUse', json(ask), 1000)).toEqual({ outcome: 'blocked', permission: 'ask', reason: 'r' });
    // Fields that mean nothing for an event are left out rather than acted on.
    expect(decideHookResult('PostToolUse', json(allow), 1000)).toEqual({ outcome: 'ok', additionalContext: 'c' });
  });

  it('describes failures', () => {
    expect(decideHookResult('PreToolUse', result({ exitCode: null, timedOut: true }), 1500).reason).toBe(
      'did not finish within 1.5 s and was killed',
    );
    expect(decideHookResult('PreToolUse', result({ exitCode: null, exitSignal: 'SIGSEGV' }), 1000).reason).toBe(
      'was killed by signal SIGSEGV',
    );
    expect(decideHookResult('PreToolUse', result({ exitCode: 3, stderr: 'bad' }), 1000).reason).toBe('failed with exit code 3: bad');
    expect(decideHookResult('PreToolUse', result({ exitCode: null, cancelled: true }), 1000).reason).toBe('was cancelled');
  });
});
