/**
 * Claude Code's skills: `.claude/skills/<name>/SKILL.md` (frontmatter `name`, `description`, both
 * optional as in Claude Code: the folder's name, the body's first paragraph; the body is the skill). Only names and descriptions go into the system prompt; the model
 * calls the Skill tool for a body when a task needs it, so unused skills cost a line each.
 */
import { isAbsolute, posix, resolve } from 'node:path';
import * as z from '../core/schema.js';
import type { ToolOutcome, ToolSet, ToolSpec } from '../core/tools.js';
import { toolSetOf } from '../tools/compose.js';
import { schemaJson } from '../tools/tool.js';
import { checkName, ExtensionFileError, optionalText, splitFrontmatter, type Fail } from './frontmatter.js';

export interface Skill {
  name: string;
  description: string;
  /** The instructions, returned by the Skill tool. */
  body: string;
  /** The skill's folder relative to the workspace, ending in `/` (e.g. `.claude/skills/pdf/`): its other files are read from there. */
  dir: string;
  /** Where it was read, for logs: `.claude/skills/pdf/SKILL.md (main)`. */
  source: string;
}

export const SKILL_TOOL = 'Skill';

/** One SKILL.md at `path` (relative to the workspace); throws ExtensionFileError naming it and the problem. */
export function parseSkillFile(text: string, path: string, source = path): Skill {
  const fail: Fail = (problem) => {
    throw new ExtensionFileError(path, problem);
  };
  const { data, body } = splitFrontmatter(text, path);
  if (body.trim() === '') fail('the file has no body: it is what the Skill tool returns');
  const folder = posix.basename(posix.dirname(path));
  const name = checkName(optionalText(data, 'name', fail) || folder, 'name', fail);
  const description = optionalText(data, 'description', fail) || firstParagraph(body);
  return { name, description, body: body.trim(), dir: `${posix.dirname(path)}/`, source };
}

/** The body's first paragraph of text, headings' marks dropped: what a skill without a description is listed by. */
function firstParagraph(body: string): string {
  const paragraph = body.trim().split(/\n\s*\n/)[0] ?? '';
  return paragraph
    .replace(/^#+\s*/gm, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 300);
}

function sortedByName(skills: readonly Skill[]): Skill[] {
  // Code-unit order, not localeCompare: the prompt must not change with the runner's locale.
  return [...skills].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** One line: a multi-line YAML description must not break the list apart. */
const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

/**
 * The system prompt's list of skills, sorted by name so the same skills give the same text
 * (and the prompt cache holds) whatever order they were read in. Empty when there are none.
 */
export function skillsPromptSection(skills: readonly Skill[]): string {
  if (skills.length === 0) return '';
  return [
    '# Skills',
    '',
    `Skills are instructions for particular kinds of task, kept in the repository. When a task matches a skill's description, ` +
      `call the ${SKILL_TOOL} tool with its name before starting, then follow what it returns.`,
    '',
    ...sortedByName(skills).map((s) => `- ${s.name}: ${oneLine(s.description)}`),
  ].join('\n');
}

const skillInput = z.object({
  skill: z.string().check(z.minLength(1), z.describe('The name of the skill, as the Skills section of the system prompt lists it.')),
});

function skillSpec(): ToolSpec {
  // Read-only: a call only returns text already in memory, so it may run alongside a turn's reads.
  return {
    name: SKILL_TOOL,
    description:
      'Loads a skill: the instructions for a kind of task, listed by name in the Skills section of the system prompt. ' +
      'Returns the instructions and the folder holding the files they refer to (read those with Read).',
    readOnly: true,
    input_schema: schemaJson(skillInput),
    keyArgument: 'skill',
  };
}

/** The body with `${CLAUDE_SKILL_DIR}` expanded (as Claude Code does), and where its folder is. */
function load(skill: Skill, root: string): string {
  const dir = resolve(root, skill.dir);
  // An absolute folder is the trusted ref's copy of it (a pull request run), outside the workspace.
  const where = isAbsolute(skill.dir)
    ? `(Skill "${skill.name}": its folder is ${skill.dir}, the copy of the trusted branch's; read the files it mentions from there.)`
    : `(Skill "${skill.name}": its folder is ${skill.dir}, relative to the workspace; read the files it mentions from there.)`;
  return `${skill.body.replaceAll('${CLAUDE_SKILL_DIR}', dir.replace(/\/$/, ''))}\n\n${where}`;
}

function run(byName: ReadonlyMap<string, Skill>, input: unknown, root: string): ToolOutcome {
  const parsed = skillInput.safeParse(input);
  const names = [...byName.keys()].sort().join(', ');
  if (!parsed.success) return { isError: true, content: `Invalid input for ${SKILL_TOOL}: give {"skill": "<name>"}, one of: ${names}.` };
  // The model may write the name as a slash command (`/pdf`); the name is the same.
  const name = parsed.data.skill.trim().replace(/^\//, '');
  const skill = byName.get(name);
  if (!skill) return { isError: true, content: `No skill named "${name}". Skills: ${names}.` };
  return { isError: false, content: load(skill, root) };
}

/** The Skill tool over `skills` (folders relative to `root`); with no skills it offers nothing, as there would be nothing to load. */
export function skillToolSet(skills: readonly Skill[], root = '.'): ToolSet {
  const byName = new Map(sortedByName(skills).map((s) => [s.name, s]));
  if (skills.length === 0) return toolSetOf();
  return toolSetOf({ spec: skillSpec(), execute: (call) => Promise.resolve(run(byName, call.input, root)) });
}
