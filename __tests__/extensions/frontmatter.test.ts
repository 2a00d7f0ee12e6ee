import { ExtensionFileError, loadFrontmatterParser, parseAgentFile, splitFrontmatter } from '../../src/extensions/index.js';

// The loaders load the YAML parser when they find a file; these tests parse directly.
await loadFrontmatterParser();

describe('splitFrontmatter', () => {
  test('a file without frontmatter is all body', () => {
    expect(splitFrontmatter('# Title\n\nText')).toEqual({ data: {}, body: '# Title\n\nText' });
    // A `---` later in the file is a Markdown rule, not frontmatter.
    expect(splitFrontmatter('Text\n---\nname: x\n---\n').data).toEqual({});
  });

  test('reads the YAML between the leading fences', () => {
    const { data, body } = splitFrontmatter('---\nname: a\ndescription: "x: y"\n---\nBody\n');
    expect(data).toEqual({ name: 'a', description: 'x: y' });
    expect(body).toBe('Body\n');
  });

  test('tolerates a BOM, CRLF line ends and an empty block', () => {
    expect(splitFrontmatter('\uFEFF---\r\nname: a\r\n---\r\nBody')).toEqual({ data: { name: 'a' }, body: 'Body' });
    expect(splitFrontmatter('---\n---\nBody')).toEqual({ data: {}, body: 'Body' });
  });

  test('bad YAML, an unclosed block or a non-mapping throws naming the file', () => {
    const problem = (text: string): string => {
      try {
        splitFrontmatter(text, 'x.md');
      } catch (error) {
        if (error instanceof ExtensionFileError) return `${error.path}: ${error.problem}`;
        throw error;
      }
      return 'no error';
    };
    expect(problem('---\nname: a\nname: b\n---\nBody')).toMatch(/^x\.md: the frontmatter is not valid YAML \(Map keys must be unique/);
    expect(problem('---\nname: a\nBody')).toMatch(/^x\.md: .*never closed/);
    expect(problem('---\n- a\n- b\n---\nBody')).toBe('x.md: the frontmatter must be a mapping of keys to values, not a list');
    expect(problem('---\nname: a\nname: b\n---\nBody')).toMatch(/not valid YAML.*unique/i);
  });
});

describe('frontmatter that is not YAML, read as Claude Code reads it', () => {
  test('values with special characters are taken as text', () => {
    expect(
      splitFrontmatter('---\ndescription: Use when: always\nargument-hint: [pr] [priority]\nallowed-tools: [Read, Grep]\n---\nBody').data,
    ).toEqual({
      description: 'Use when: always',
      'argument-hint': '[pr] [priority]',
      'allowed-tools': ['Read', 'Grep'],
    });
  });

  test('valid YAML is read as it is', () => {
    expect(splitFrontmatter("---\nargument-hint: '[pr]'\nn: 3\n---\nBody").data).toEqual({ 'argument-hint': '[pr]', n: 3 });
  });
});

describe('tools in frontmatter', () => {
  const agent = (tools: string): readonly string[] | undefined =>
    parseAgentFile(`---\nname: a\ndescription: d\n${tools}---\nPrompt`, '.claude/agents/a.md').tools;

  test('a comma-separated string, a YAML list, or nothing (all of the parent tools)', () => {
    expect(agent('tools: Read, Grep,Glob\n')).toEqual(['Read', 'Grep', 'Glob']);
    expect(agent('tools:\n  - Read\n  - Bash\n')).toEqual(['Read', 'Bash']);
    expect(agent('tools: [Read, Edit]\n')).toEqual(['Read', 'Edit']);
    expect(agent('tools: Read, Bash(git diff a,b)\n')).toEqual(['Read', 'Bash(git diff a,b)']);
    expect(agent('')).toBeUndefined();
  });

  test('anything else is refused', () => {
    expect(() => agent('tools: {a: 1}\n')).toThrow('.claude/agents/a.md: `tools` must be a list of names or one comma-separated string');
    expect(() => agent('tools: [Read, 3]\n')).toThrow(ExtensionFileError);
  });
});
