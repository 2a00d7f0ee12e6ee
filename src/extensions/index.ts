/** Claude Code's agents, skills and commands files, read from trusted sources only. */
export { agentsFromJson, GENERAL_PURPOSE, mergeAgents, parseAgentFile, type AgentDefinition } from './agents.js';
export { MAX_BYTES, MAX_FILES } from './collect.js';
export {
  commandName,
  expandCommand,
  fileReferences,
  findCommand,
  parseCommandFile,
  splitArguments,
  type Command,
  type ExpandedCommand,
} from './commands.js';
export { ExtensionFileError, loadFrontmatterParser, splitFrontmatter } from './frontmatter.js';
export { loadLocalExtensions, loadRepoExtensions, type Extensions, type LocalIO, type Log } from './load.js';
export { parseSkillFile, SKILL_TOOL, skillsPromptSection, skillToolSet, type Skill } from './skills.js';
