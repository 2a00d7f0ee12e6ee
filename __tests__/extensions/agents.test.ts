import {
  agentsFromJson,
  ExtensionFileError,
  GENERAL_PURPOSE,
  loadFrontmatterParser,
  mergeAgents,
  parseAgentFile,
} from '../../src/extensions/index.js';

// The loaders load the YAML parser when they find a file; these tests parse directly.
await loadFrontmatterParser();

const FILE = '---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep\nmodel: sonnet\n---\n\nYou review code.\n';

describe('parseAgentFile', () => {
  test('frontmatter fields and the body as the prompt', () => {
    expect(parseAgentFile(FILE, '.claude/agents/reviewer.md', '.claude/agents/reviewer.md (main)')).toEqual({
      name: 'reviewer',
      description: 'Reviews code',
      prompt: 'You review code.',
      tools: ['Read', 'Grep'],
      model: 'sonnet',
      source: '.claude/agents/reviewer.md (main)',
    });
  });

  test('`model: inherit` is the parent model, as leaving it out is', () => {
    const agent = parseAgentFile('---\nname: a\ndescription: d\nmodel: inherit\n---\nP', 'a.md');
    expect(agent).not.toHaveProperty('model');
    expect(agent.source).toBe('a.md');
  });

  test.each([
    ['---\ndescription: d\n---\nP', '`name` is missing or empty'],
    ['---\nname: a\n---\nP', '`description` is missing or empty'],
    ['---\nname: a b\ndescription: d\n---\nP', 'name "a b" is not a name'],
    ['---\nname: a\ndescription: d\n---\n\n', 'the file has no body'],
    ['You review code.', '`name` is missing or empty'],
  ])('refuses %j', (text, problem) => {
    expect(() => parseAgentFile(text, 'x.md')).toThrow(ExtensionFileError);
    expect(() => parseAgentFile(text, 'x.md')).toThrow(`x.md: ${problem}`);
  });
});

describe('agentsFromJson', () => {
  test('the --agents shape, tools as a list or a string', () => {
    const json = JSON.stringify({
      reviewer: { description: 'Reviews', prompt: 'You review.', tools: ['Read'] },
      fixer: { description: 'Fixes', prompt: 'You fix.', tools: 'Read, Edit', model: 'opus' },
    });
    expect(agentsFromJson(json, 'agents input')).toEqual([
      { name: 'reviewer', description: 'Reviews', prompt: 'You review.', tools: ['Read'], source: 'agents input' },
      { name: 'fixer', description: 'Fixes', prompt: 'You fix.', tools: ['Read', 'Edit'], model: 'opus', source: 'agents input' },
    ]);
    expect(agentsFromJson('  ', 'agents input')).toEqual([]);
  });

  test('the caller’s own configuration: any problem throws, naming the source', () => {
    expect(() => agentsFromJson('{', '--agents')).toThrow(/^--agents: not valid JSON/);
    expect(() => agentsFromJson('[]', '--agents')).toThrow('--agents: must be a JSON object');
    expect(() => agentsFromJson('{"a": {"description": "d"}}', '--agents')).toThrow('--agents: agent "a": `prompt` is missing or empty');
    expect(() => agentsFromJson('{"a": "x"}', '--agents')).toThrow('--agents: agent "a": must be an object');
  });
});

describe('mergeAgents', () => {
  test('later sources override earlier ones by name; general-purpose is built in', () => {
    const file = parseAgentFile(FILE, 'reviewer.md');
    const fromFile = parseAgentFile('---\nname: general-purpose\ndescription: Ours\n---\nOur prompt', 'gp.md');
    const json = agentsFromJson(
      '{"reviewer": {"description": "JSON reviewer", "prompt": "P"}, "new": {"description": "N", "prompt": "P"}}',
      'json',
    );
    const merged = mergeAgents([GENERAL_PURPOSE], [file, fromFile], json);
    expect(merged.map((a) => [a.name, a.source])).toEqual([
      ['general-purpose', 'gp.md'],
      ['reviewer', 'json'],
      ['new', 'json'],
    ]);
    expect(GENERAL_PURPOSE.tools).toBeUndefined();
    expect(GENERAL_PURPOSE.description).toMatch(/multi-step tasks/);
  });
});
