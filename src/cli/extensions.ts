import { readdirSync, readFileSync, statSync } from 'node:fs';
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
}

const LOCAL_IO = {
  readDir: (path: string) => readdirSync(path),
  readFile: (path: string) => readFileSync(path, 'utf8'),
  isDirectory: (path: string) => statSync(path).isDirectory(),
};

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
  return {
    prompt: expandCommand(command, args),
    agents,
    skills: local.skills,
    ...(command.allowedTools ? { commandRules: { source: `${command.source} allowed-tools`, rules: command.allowedTools } } : {}),
    ...(command.model ? { model: command.model } : {}),
  };
}
