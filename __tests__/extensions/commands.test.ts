import {
  commandName,
  expandCommand,
  fileReferences,
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
    expect(expandCommand(cmd('c', 'Fix lint in $ARGUMENTS.'), 'src/ "lib dir"').task).toBe('Fix lint in src/ "lib dir".');
  });

  test('$0, $1 … and $ARGUMENTS[N] are the arguments from 0, split with quotes respected; a missing one is empty', () => {
    const c = cmd('c', 'Fix issue #$0 with priority $1 [$2] ($ARGUMENTS)');
    expect(expandCommand(c, '123 "very high"').task).toBe('Fix issue #123 with priority very high [] (123 "very high")');
    expect(expandCommand(cmd('c', 'PR $ARGUMENTS[0], then $ARGUMENTS[1]'), '7 low').task).toBe('PR 7, then low');
  });

  test('named arguments from the frontmatter, longest name first, and \\$ for a literal dollar', () => {
    const c = { ...cmd('c', 'Review $pr at $priority, costs \\$5 ($prx)'), argumentNames: ['pr', 'priority'] };
    expect(expandCommand(c, '42 high').task).toBe('Review 42 at high, costs $5 ($prx)');
  });

  test('arguments holding placeholders stay as typed', () => {
    expect(expandCommand(cmd('c', '$0 / $1'), '$1 x').task).toBe('$1 / x');
  });

  test('a body without placeholders gets the arguments appended, none when there are none', () => {
    expect(expandCommand(cmd('c', 'Run the tests.'), 'unit').task).toBe('Run the tests.\n\nARGUMENTS: unit');
    expect(expandCommand(cmd('c', 'Run the tests.'), '').task).toBe('Run the tests.');
    expect(expandCommand(cmd('c', 'Check $0.'), '').task).toBe('Check .');
  });

  test('!`command` after a space or at a line start, and ```! blocks, become steps with the arguments substituted', () => {
    const c = cmd('c', 'Status: !`git status $0`\nx!`echo literal`\n```!\necho $ARGUMENTS\n```\nend');
    const expanded = expandCommand(c, 'src', 'n1');
    expect(expanded.shell).toEqual([
      { slot: '[output of step 1 n1]', command: 'git status src' },
      { slot: '[output of step 2 n1]', command: 'echo src' },
    ]);
    expect(expanded.task).toBe('Status: [output of step 1 n1]\nx!`echo literal`\n[output of step 2 n1]\nend');
  });

  test('an argument cannot open a step: only the body is scanned for them', () => {
    const expanded = expandCommand(cmd('c', 'Do $ARGUMENTS'), '!`touch pwned`');
    expect(expanded.shell).toEqual([]);
    expect(expanded.task).toBe('Do !`touch pwned`');
  });

  test('each expansion has slots of its own, which nothing typed can guess', () => {
    const c = cmd('c', 'A !`echo a`');
    expect(expandCommand(c, '').shell[0]!.slot).not.toBe(expandCommand(c, '').shell[0]!.slot);
  });
});

describe('fileReferences', () => {
  test('@path at a line start or after a space, outside code, trailing punctuation dropped, each once', () => {
    const text = 'See @src/a.ts, @docs/ and `@in/code.md`\n```\n@in/block.md\n```\nmail me@example.com @src/a.ts.';
    expect(fileReferences(text)).toEqual(['src/a.ts', 'docs/']);
  });
});
