import type { AgentDefinition } from '../core/agents.js';
import type { TranscriptWriter } from '../agent/transcript.js';
import type { Message } from '../core/messages.js';
import type { Model } from '../core/model.js';
import type { ToolSet } from '../core/tools.js';
import type { LoopSettings } from '../config/loop-settings.js';
import type { TaskEvents } from './events.js';
import type { HookSettings } from '../tools/hooks/index.js';
import type { CommandWrap } from '../core/confine.js';
import type { HookContext } from '../tools/hooks/index.js';
import type { RuleLists } from '../tools/permissions/rules.js';
import type { CredentialFileRules } from '../tools/workspace.js';
import type { Skill } from '../extensions/index.js';
import type { CommandSteps } from './command-steps.js';
import type { AnswerSchema } from '../structured/schema.js';

export interface TaskOptions {
  settings: LoopSettings;
  model: Model;
  cwd: string;
  /** The environment the tools' own is built from (an allowlist of it, never its secrets). */
  env: NodeJS.ProcessEnv;
  /** The trusted settings' `env`: set for Bash, hooks, verify and MCP servers, over the allowlisted environment. */
  variables?: Readonly<Record<string, string>>;
  /** Refused to the tools as a whole: the runner keeps job credentials there. */
  runnerTemp?: string;
  /** Credentials files the tools refuse (those the environment names, gha-creds-*.json, text holding a key). */
  credentials?: CredentialFileRules;
  /** The conversation to send: a new task, or one rebuilt from a transcript. */
  messages: Message[];
  mode: 'action' | 'cli' | 'review';
  appendSystemPrompt?: string;
  transcript?: TranscriptWriter;
  /** Messages before this index are already in the transcript (a resume appending to its own file). */
  recordMessagesFrom?: number;
  signal: AbortSignal;
  events?: TaskEvents;
  /** Started at; the deadline counts from here. */
  startedAt?: number;
  /** Turns each Bash command's argv into the one that runs it (the sandbox); may still be in preparation. */
  wrap?: Promise<CommandWrap>;
  /**
   * Resolves once the workspace may be used (a checkout still under way): the first request does
   * not wait for it, the tools, hooks and the changes' baseline do. If it fails, the run stops and
   * runTask rejects with its error.
   */
  ready?: Promise<unknown>;
  /** Shapes the tools inside the permission rules (a mode's choice of tools). */
  tools?: (base: ToolSet) => ToolSet;
  /** Allow and deny rules with their sources; by default the settings' allowed and disallowed tools. */
  rules?: RuleLists;
  /** Claude Code hooks from the trusted settings. */
  hooks?: HookSettings;
  /** A hook's command as it runs: on a pull request run, with the trusted ref's files (trusted-code/). */
  launchHook?: HookContext['launch'];
  /** Folders outside the workspace the read-only tools may read too (the trusted copies of skills' folders). */
  readOnlyRoots?: readonly string[];
  /** Subagent types the Task tool can start besides general-purpose (a later one of a name wins). */
  agents?: readonly AgentDefinition[];
  /** The model of a subagent whose definition names one. */
  modelFor?: (id: string) => Model;
  /** Skills the Skill tool offers and the system prompt lists. */
  skills?: readonly Skill[];
  /** More tools beside the built-in ones (MCP servers'), already started; the caller closes them. */
  extraTools?: readonly ToolSet[];
  /** A command's `` !`command` `` steps and `@path` references, run and read before the first request (command-steps.ts). */
  commandSteps?: CommandSteps;
  /** The hosts of allowed-domains (WebFetch's, with its domain rules); default: the default list. */
  allowedDomains?: readonly string[];
  /** The provider runs the API's web search, so WebSearch may be offered (webSearchOffered in model/registry.ts). */
  webSearch?: boolean;
  /** json-schema: the final answer must be JSON satisfying it. */
  answerSchema?: AnswerSchema;
}

/** The rules of the settings alone, named as the inputs that hold them. */
export function defaultRules(settings: LoopSettings): RuleLists {
  return {
    allow: [{ source: 'allowed-tools', rules: settings.allowedTools }],
    deny: [{ source: 'disallowed-tools', rules: settings.disallowedTools }],
  };
}
