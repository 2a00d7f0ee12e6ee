import {
  loadFrontmatterParser,
  parseSkillFile,
  SKILL_TOOL,
  skillsPromptSection,
  skillToolSet,
  type Skill,
} from '../../src/extensions/index.js';

// The loaders load the YAML parser when they find a file; these tests parse directly.
await loadFrontmatterParser();

const skill = (name: string, description: string): Skill =>
  parseSkillFile(
    `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n\nSteps for ${name}.\n`,
    `.claude/skills/${name}/SKILL.md`,
  );

const signal = new AbortController().signal;

describe('parseSkillFile', () => {
  test('name, description, body and the folder relative to the workspace', () => {
    expect(skill('pdf', 'Fill PDF forms')).toEqual({
      name: 'pdf',
      description: 'Fill PDF forms',
      body: '# pdf\n\nSteps for pdf.',
      dir: '.claude/skills/pdf/',
      source: '.claude/skills/pdf/SKILL.md',
    });
  });

  test('without name and description: the folder names it, the first paragraph describes it, as in Claude Code', () => {
    const skill = parseSkillFile('# Filling PDF forms\nwith pdftk.\n\nStep one: ...', '.claude/skills/pdf-forms/SKILL.md');
    expect(skill).toMatchObject({ name: 'pdf-forms', description: 'Filling PDF forms with pdftk.', dir: '.claude/skills/pdf-forms/' });
    expect(parseSkillFile('---\ndescription: d\n---\nBody', '.claude/skills/x/SKILL.md').name).toBe('x');
  });
});

describe('skillsPromptSection', () => {
  test('empty when there are none', () => {
    expect(skillsPromptSection([])).toBe('');
  });

  test('sorted by name whatever the order, one line each', () => {
    const a = skill('pdf', 'Fill PDF forms');
    const b = parseSkillFile('---\nname: changelog\ndescription: >\n  Write the\n  changelog\n---\nBody', '.claude/skills/cl/SKILL.md');
    const c = skill('Zeta', 'Upper case sorts first');
    const text = skillsPromptSection([a, b, c]);
    expect(text).toBe(skillsPromptSection([c, b, a]));
    expect(text.split('\n').filter((l) => l.startsWith('- '))).toEqual([
      '- Zeta: Upper case sorts first',
      '- changelog: Write the changelog',
      '- pdf: Fill PDF forms',
    ]);
    expect(text).toMatch(/^# Skills\n/);
    expect(text).toContain(SKILL_TOOL);
  });
});

describe('skillToolSet', () => {
  const tools = skillToolSet([skill('pdf', 'Fill PDF forms'), skill('changelog', 'Write the changelog')]);

  test('offers the Skill tool with a JSON schema from zod', () => {
    const [spec, ...rest] = tools.specs();
    expect(rest).toEqual([]);
    expect(spec).toMatchObject({ name: 'Skill', readOnly: true, keyArgument: 'skill' });
    expect(spec?.input_schema).toMatchObject({
      type: 'object',
      properties: { skill: { type: 'string', minLength: 1 } },
      required: ['skill'],
    });
    expect(spec?.input_schema).not.toHaveProperty('$schema');
    expect(tools.isReadOnly('Skill')).toBe(true);
    expect(tools.isReadOnly('Bash')).toBe(false);
  });

  test('a known skill returns its body and folder', async () => {
    const outcome = await tools.execute({ id: '1', name: 'Skill', input: { skill: 'pdf' } }, signal);
    expect(outcome.isError).toBe(false);
    expect(outcome.content).toContain('Steps for pdf.');
    expect(outcome.content).toContain('.claude/skills/pdf/');
    // A slash-command spelling names the same skill.
    expect((await tools.execute({ id: '2', name: 'Skill', input: { skill: '/pdf' } }, signal)).isError).toBe(false);
  });

  test('an unknown skill or bad input is an error listing the names', async () => {
    expect(await tools.execute({ id: '1', name: 'Skill', input: { skill: 'docx' } }, signal)).toEqual({
      isError: true,
      content: 'No skill named "docx". Skills: changelog, pdf.',
    });
    const bad = await tools.execute({ id: '2', name: 'Skill', input: { name: 'pdf' } }, signal);
    expect(bad.isError).toBe(true);
    expect(bad.content).toContain('changelog, pdf');
    expect((await tools.execute({ id: '3', name: 'Read', input: {} }, signal)).isError).toBe(true);
  });

  test('with no skills there is no tool to offer', async () => {
    const none = skillToolSet([]);
    expect(none.specs()).toEqual([]);
    expect(none.isReadOnly('Skill')).toBe(false);
    expect((await none.execute({ id: '1', name: 'Skill', input: { skill: 'pdf' } }, signal)).isError).toBe(true);
  });
});
