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

export interface AgentDefinition {
  name: string;
  /** When to use the agent: what the parent model reads to pick one. */
  description: string;
  /** The agent's system prompt. */
  prompt: string;
  /** Tool names the agent may use; absent means all of the parent's. Checked by whoever builds its tools. */
  tools?: string[];
  /** A model name or alias; absent (or `inherit` in the file) means the parent's. */
  model?: string;
  /** Where it was defined, for logs and errors: `.claude/agents/x.md (main)`, `agents input`, `built-in`. */
  source: string;
}

/** Claude Code's built-in agent; a file or JSON entry named `general-purpose` replaces it. */
export const GENERAL_PURPOSE: AgentDefinition = {
  name: 'general-purpose',
  description:
    'General-purpose agent for researching complex questions, searching for code, and executing multi-step tasks. ' +
    'When you are searching for a keyword or file and are not confident you will find the right match in the first few tries, ' +
    'use this agent to perform the search for you.',
  prompt: [
    'You are an agent given one task by another agent. Do what it asks using the tools available, completely: ' +
      'do not gold-plate, but do not leave it half done either.',
    'Search broadly when you do not know where something lives; read the code before drawing conclusions about it.',
    'When you are done, reply with a concise report of what you found or did, with the file paths and details the other ' +
      'agent needs: it sees only your final reply, not your tool calls.',
  ].join('\n'),
  source: 'built-in',
};

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

/** The agents of every list by name, a later list's agent replacing an earlier one's in place. */
export function mergeAgents(...lists: readonly (readonly AgentDefinition[])[]): AgentDefinition[] {
  const byName = new Map<string, AgentDefinition>();
  for (const agent of lists.flat()) byName.set(agent.name, agent);
  return [...byName.values()];
}
