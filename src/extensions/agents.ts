/**
 * Claude Code's subagents: `.claude/agents/*.md` files (frontmatter `name`, `description`,
 * `tools?`, `model?`; the body is the system prompt) and the `agents` input / `--agents` JSON
 * `{"<name>": {"description", "prompt", "tools?", "model?"}}`. Later sources override earlier
 * ones by name, so the order is: the built-in general-purpose agent, the repository's files,
 * then the JSON the workflow or the user gave.
 */
import {
  checkName,
  ExtensionFileError,
  isRecord,
  optionalList,
  optionalText,
  requiredText,
  splitFrontmatter,
  splitNames,
  type Fail,
} from './frontmatter.js';
import type { AgentDefinition } from '../core/agents.js';

export { GENERAL_PURPOSE, mergeAgents, type AgentDefinition } from '../core/agents.js';

function agentFields(data: Record<string, unknown>, fail: Fail): Pick<AgentDefinition, 'tools' | 'model'> {
  const tools = optionalList(data, 'tools', fail, splitNames);
  const model = optionalText(data, 'model', fail);
  // `inherit` is Claude Code's spelling of "the parent's model", which is what leaving it out means here.
  return { ...(tools ? { tools } : {}), ...(model && model !== 'inherit' ? { model } : {}) };
}

/** One agent file; throws ExtensionFileError naming `path` and the problem. `source` defaults to `path`. */
export function parseAgentFile(text: string, path: string, source = path): AgentDefinition {
  const fail: Fail = (problem) => {
    throw new ExtensionFileError(path, problem);
  };
  const { data, body } = splitFrontmatter(text, path);
  const name = checkName(requiredText(data, 'name', fail), 'name', fail);
  const description = requiredText(data, 'description', fail);
  const prompt = body.trim();
  if (prompt === '') fail('the file has no body: it is the agent system prompt');
  return { name, description, prompt, ...agentFields(data, fail), source };
}

/**
 * The `agents` input or `--agents` flag. Unlike a repository's files, this is the caller's own
 * configuration, given for this run: any problem throws (ExtensionFileError naming `source`)
 * rather than running without an agent they asked for. Empty text means none.
 */
export function agentsFromJson(text: string, source: string): AgentDefinition[] {
  if (text.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ExtensionFileError(source, `not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!isRecord(parsed)) throw new ExtensionFileError(source, 'must be a JSON object of agent name to {"description", "prompt"}');
  return Object.entries(parsed).map(([name, entry]) => {
    const fail: Fail = (problem) => {
      throw new ExtensionFileError(source, `agent ${JSON.stringify(name)}: ${problem}`);
    };
    checkName(name, 'the key', fail);
    if (!isRecord(entry)) return fail('must be an object with "description" and "prompt"');
    const description = requiredText(entry, 'description', fail);
    const prompt = requiredText(entry, 'prompt', fail);
    return { name, description, prompt, ...agentFields(entry, fail), source };
  });
}
