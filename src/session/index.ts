import { ruleLists, type InputRules, type TrustedSettings } from '../config/index.js';
import { modelIdOf } from '../config/loop-settings.js';
import { withVariables } from '../core/confine.js';
import type { Model } from '../core/model.js';
import { lazyModel } from '../model/registry.js';
import type { StdioParams } from '../tools/mcp/index.js';
import type { RuleList } from '../tools/permissions/rules.js';
import { mcpNote, startMcp, type McpSource, type StartedMcp } from './mcp.js';
import type { TaskOptions } from './options.js';
import { runTask, type TaskResult } from './run.js';

export type { TaskEvents } from './events.js';
export type { McpSource, StartedMcp } from './mcp.js';
export type { TaskResult } from './run.js';

/** The run's MCP servers: started together before the first request, closed when the run ends. */
export interface SessionMcp {
  sources: readonly McpSource[];
  cwd: string;
  log: (message: string) => void;
  /** How a stdio server starts (in the sandbox, with the trusted ref's files); asked for only when there are servers. */
  launcher?: () => Promise<((p: StdioParams) => StdioParams) | undefined>;
  /** Told once the servers started: their expanded secrets are to be redacted from then on, failures named. */
  onStarted?: (mcp: StartedMcp) => void;
}

/** What an adapter hands the session; the rest of TaskOptions is the session's own to build. */
export interface SessionInput extends Omit<TaskOptions, 'model' | 'modelFor' | 'rules' | 'extraTools' | 'hooks'> {
  /** The run's model: a client already made, or an id made with makeModel on the first request. */
  model: Model | string;
  /** Makes the client of a model id (the run's, a subagent's or a command's), at most once per id. */
  makeModel: (id: string) => Promise<Model>;
  /** The inputs' (or flags') own rules, named as the user wrote them, and the name of the one that configures MCP servers. */
  inputs: InputRules & { mcpSource: string };
  /** Settings, rules and hooks of the trusted sources. */
  trusted: TrustedSettings;
  /** The mode's own tools (ReviewComment in a review), allowed beside the rules. */
  modeRules?: RuleList;
  /** A command's `allowed-tools`: pre-approved beside the rules, as in Claude Code (deny rules still win). */
  commandRules?: RuleList;
  mcp?: SessionMcp;
}

export interface SessionResult extends TaskResult {
  /** The MCP servers that did not start, in a sentence; absent when all did. */
  mcpNote?: string;
}

/** One run of the loop for either adapter: its rules, MCP servers and models, started and closed here. */
export async function runSession(input: SessionInput): Promise<SessionResult> {
  const { model, makeModel, inputs, trusted, modeRules, commandRules, mcp: servers, ...task } = input;
  const made = new Map<string, Model>();
  const client = (id: string): Model => {
    const cached = made.get(id) ?? lazyModel(id, () => makeModel(id));
    made.set(id, cached);
    return cached;
  };
  const runModel = typeof model === 'string' ? client(modelIdOf(model) ?? model) : model;
  // A command's or agent's `model: sonnet` is Claude Code's alias; `inherit` is the run's own model.
  const modelFor = (id: string): Model => {
    const resolved = modelIdOf(id);
    return resolved === undefined ? runModel : client(resolved);
  };
  const variables = trusted.env;
  if (Object.keys(variables).length > 0) {
    // Inside a sandbox a process sees only what the sandbox sets: the settings' variables go with every command.
    task.variables = variables;
    if (task.wrap) task.wrap = task.wrap.then((wrap) => withVariables(wrap, variables));
  }
  const mcp = servers ? await startServers(servers, trusted, task) : null;
  try {
    const rules = ruleLists(inputs, trusted, {
      ...(modeRules ? { mode: modeRules } : {}),
      ...(commandRules ? { command: commandRules } : {}),
      mcp: { source: inputs.mcpSource, rules: mcp?.allow ?? [] },
    });
    const result = await runTask({
      ...task,
      model: runModel,
      modelFor,
      rules,
      hooks: trusted.hooks,
      ...(mcp ? { extraTools: [mcp.tools] } : {}),
    });
    const note = mcpNote(mcp);
    return { ...result, ...(note ? { mcpNote: note } : {}) };
  } finally {
    await mcp?.tools.close();
  }
}

async function startServers(
  servers: SessionMcp,
  trusted: TrustedSettings,
  task: Pick<TaskOptions, 'env' | 'variables' | 'settings' | 'signal'>,
) {
  if (servers.sources.length === 0) return null;
  const launch = await servers.launcher?.();
  const mcp = await startMcp(servers.sources, trusted, {
    env: task.env,
    ...(task.variables ? { variables: task.variables } : {}),
    cwd: servers.cwd,
    outputLimit: task.settings.toolOutputLimit,
    log: servers.log,
    signal: task.signal,
    ...(launch ? { launch } : {}),
  });
  if (mcp) servers.onStarted?.(mcp);
  return mcp;
}
