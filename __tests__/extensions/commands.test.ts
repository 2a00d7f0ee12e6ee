import {
  commandName,
  expandCommand,
  findCommand,
  loadFrontmatterParser,
  parseCommandFile,
  splitArguments,
  type Command,
} from '../../src/extensions/index.js';

// The loaders load the YAML parser when they find a file; these tests parse directly.
await loadFrontmatterParser();

const FIX_LINT = [
  '---',
  'allowed-tools: Bash(npm run lint:*), Edit',
  'model: claude-haiku-4-5',
  'description: Fix lint errors',
  'argument-hint: <paths>',
  '---',
  'Fix the lint errors in $ARGUMENTS.',
  '',
].join('\n');

const cmd = (name: string, body: string): Command => ({ name, body, source: `${name}.md` });

describe('parseCommandFile', () => {
  test('the name comes from the file, the fields from the frontmatter', () => {
    expect(parseCommandFile(FIX_LINT, '.claude/commands/fix-lint.md', '.claude/commands/fix-lint.md (main)')).toEqual({
      name: 'fix-lint',
      body: 'Fix the lint errors in $ARGUMENTS.',
      allowedTools: ['Bash(npm run lint:*)', 'Edit'],
      model: 'claude-haiku-4-5',
      description: 'Fix lint errors',
      argumentHint: '<paths>',
      source: '.claude/commands/fix-lint.md (main)',
    });
  });

  test('no frontmatter is fine; allowed-tools may be a YAML list', () => {
    expect(parseCommandFile('Run the tests.', '.claude/commands/test.md')).toEqual({
      name: 'test',
      body: 'Run the tests.',
      source: '.claude/commands/test.md',
    });
    const listed = parseCommandFile('---\nallowed-tools:\n  - Read\n  - Bash(git diff:*)\n---\nBody', '.claude/commands/x.md');
    expect(listed.allowedTools).toEqual(['Read', 'Bash(git diff:*)']);
  });

  test('a folder namespaces the name', () => {
    expect(commandName('.claude/commands/frontend/component.md')).toBe('frontend:component');
    expect(parseCommandFile('Body', '.claude/commands/a/b.md').name).toBe('a:b');
  });

  test('a bad rule, an empty body or a bad name is refused naming the file', () => {
    expect(() => parseCommandFile('---\nallowed-tools: Bash(npm test\n---\nBody', '.claude/commands/x.md')).toThrow(
      /^\.claude\/commands\/x\.md: Invalid permission rule "Bash\(npm test"/,
    );
    expect(() => parseCommandFile('---\nmodel: m\n---\n', '.claude/commands/x.md')).toThrow('the file has no body');
    expect(() => parseCommandFile('Body', '.claude/commands/a b.md')).toThrow('is not a name');
  });
});

describe('findCommand', () => {
  const commands = [cmd('fix-lint', 'Fix $ARGUMENTS'), cmd('review', 'Review'), cmd('a:b', 'AB')];

  test('the action: the first word of the task after the trigger phrase names the command', () => {
    expect(findCommand('fix-lint src/ lib/', null, commands)).toEqual({ command: commands[0], args: 'src/ lib/' });
    expect(findCommand('  review', null, commands)).toEqual({ command: commands[1], args: '' });
    expect(findCommand('a:b x', null, commands)?.command.name).toBe('a:b');
    expect(findCommand('fix the bug', null, commands)).toBeNull();
    expect(findCommand('', null, commands)).toBeNull();
  });

  test('with the trigger phrase still on the text', () => {
    expect(findCommand('/agent fix-lint src/\nand more', '/agent', commands)).toEqual({ command: commands[0], args: 'src/\nand more' });
    expect(findCommand('/agentfix-lint src/', '/agent', commands)).toBeNull();
    expect(findCommand('please /agent fix-lint', '/agent', commands)).toBeNull();
  });

  test('the CLI: a prompt starting with /name', () => {
    expect(findCommand('/fix-lint "a b"', null, commands)).toEqual({ command: commands[0], args: '"a b"' });
    expect(findCommand('/fix-lint src/', '/', commands)?.command.name).toBe('fix-lint');
    expect(findCommand('fix-lint src/', '/', commands)).toBeNull();
    expect(findCommand('/nope', null, commands)).toBeNull();
  });
});

describe('splitArguments', () => {
  test('splits as a shell would', () => {
    expect(splitArguments(`a  "b c" 'd "e"' f\\ g "h\\"i" j''k ''`)).toEqual(['a', 'b c', 'd "e"', 'f g', 'h"i', 'jk', '']);
    expect(splitArguments('  ')).toEqual([]);
    expect(splitArguments('"unclosed quote')).toEqual(['unclosed quote']);
  });
});

describe('expandCommand', () => {
  test('$ARGUMENTS is everything after the name', () => {
    expect(expandCommand(cmd('c', 'Fix lint in $ARGUMENTS.'), 'src/ "lib dir"')).toBe('Fix lint in src/ "lib dir".');
  });

  test('$0, $1 … and $ARGUMENTS[N] are the arguments from 0, split with quotes respected; a missing one is empty', () => {
    const c = cmd('c', 'Fix issue #$0 with priority $1 [$2] ($ARGUMENTS)');
    expect(expandCommand(c, '123 "very high"')).toBe('Fix issue #123 with priority very high [] (123 "very high")');
    expect(expandCommand(cmd('c', 'PR $ARGUMENTS[0], then $ARGUMENTS[1]'), '7 low')).toBe('PR 7, then low');
  });

  test('named arguments from the frontmatter, longest name first, and \\$ for a literal dollar', () => {
    const c = { ...cmd('c', 'Review $pr at $priority, costs \\$5 ($prx)'), argumentNames: ['pr', 'priority'] };
    expect(expandCommand(c, '42 high')).toBe('Review 42 at high, costs $5 ($prx)');
  });

  test('arguments holding placeholders stay as typed', () => {
    expect(expandCommand(cmd('c', '$0 / $1'), '$1 x')).toBe('$1 / x');
  });

  test('a body without placeholders gets the arguments appended, none when there are none', () => {
    expect(expandCommand(cmd('c', 'Run the tests.'), 'unit')).toBe('Run the tests.\n\nARGUMENTS: unit');
    expect(expandCommand(cmd('c', 'Run the tests.'), '')).toBe('Run the tests.');
    expect(expandCommand(cmd('c', 'Check $0.'), '')).toBe('Check .');
  });
});
