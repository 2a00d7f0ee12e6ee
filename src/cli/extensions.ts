import { readdirSync, readFileSync, statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { INSTRUCTIONS_CHARS, readInstructions, type ReadInstructions } from '../extensions/imports.js';
import { resolve } from 'node:path';
import {
  agentsFromJson,
  expandCommand,
  findCommand,
  loadLocalExtensions,
  mergeAgents,
  type AgentDefinition,
  type Skill,
} from '../extensions/index.js';
import type { CliOptions } from './args.js';
import type { CommandSteps } from '../session/command-steps.js';

/** What the repository's agents, skills and commands make of a CLI run. */
export interface CliExtensions {
  /** The prompt, or the body of the command it names (`/name args`). */
  prompt: string;
  agents: AgentDefinition[];
  skills: Skill[];
  /** The command's `allowed-tools`: rules it pre-approves beside the run's. */
  commandRules?: { source: string; rules: string[] };
  /** The command's `model`. */
  model?: string;
  /** What the command runs and reads before the first request. */
  steps?: CommandSteps;
}

const LOCAL_IO = {
  readDir: (path: string) => readdirSync(path),
  readFile: (path: string) => readFileSync(path, 'utf8'),
  isDirectory: (path: string) => statSync(path).isDirectory(),
};

/** A file of --cwd by its relative path, undefined when it is not a regular file there. */
function localFile(root: string): ReadInstructions {
  return async (path) => {
    const full = resolve(root, path);
    const info = await stat(full).catch(() => null);
    return info?.isFile() ? readFile(full, 'utf8') : undefined;
  };
}

/**
 * The system prompt's repository section: CLAUDE.md with its imports, .claude/CLAUDE.md and
 * AGENTS.md of --cwd, unless --setting-sources none; then --append-system-prompt.
 */
export async function cliSystemAppend(
  options: Pick<CliOptions, 'cwd' | 'settingSources' | 'appendSystemPrompt'>,
): Promise<string | undefined> {
  const found = options.settingSources === 'none' ? undefined : await readInstructions(localFile(resolve(options.cwd)), INSTRUCTIONS_CHARS);
  const section = found ? `# Repository instructions (${found.path})\n\n${found.content}` : '';
  const text = [section, options.appendSystemPrompt ?? ''].filter((t) => t.trim() !== '').join('\n\n');
  return text === '' ? undefined : text;
}

/** `.claude/agents`, `skills` and `commands` of --cwd (the user's own checkout) unless --setting-sources none, then --agents. */
export async function cliExtensions(options: CliOptions, log: (m: string) => void): Promise<CliExtensions> {
  const local =
    options.settingSources === 'none'
      ? { agents: [], skills: [], commands: [] }
      : await loadLocalExtensions(resolve(options.cwd), LOCAL_IO, log);
  const agents = mergeAgents(local.agents, options.agents ? agentsFromJson(options.agents, '--agents') : []);
  const found = options.prompt ? findCommand(options.prompt, '/', local.commands) : null;
  if (!found) return { prompt: options.prompt, agents, skills: local.skills };
  const { command, args } = found;
  log(`running the command /${command.name} (${command.source})`);
  const expanded = expandCommand(command, args);
  return {
    prompt: expanded.task,
    ...(expanded.shell.length + expanded.files.length > 0 ? { steps: { shell: expanded.shell, files: expanded.files } } : {}),
    agents,
    skills: local.skills,
    ...(command.allowedTools ? { commandRules: { source: `${command.source} allowed-tools`, rules: command.allowedTools } } : {}),
    ...(command.model ? { model: command.model } : {}),
  };
}
