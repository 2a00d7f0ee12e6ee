/**
 * Claude Code's settings file (`.claude/settings.json` and friends), reduced to the keys this
 * project honours: permission rules, hooks, `env`, and the project MCP server switches. Everything
 * else Claude Code knows (model, statusLine, ...) is accepted and named in one log line, as are
 * hook events and handler types this project does not run, so a repository set up for Claude Code
 * works unchanged while its owner can see what has no effect.
 */
import * as z from '../core/schema.js';
import { HooksSchema, readHooks, type HookSettings } from '../tools/hooks/schema.js';

/** A settings file (or the settings input) that cannot be used; callers map it to conclusion `error` / CLI exit 2. */
export class SettingsFileError extends Error {
  constructor(
    /** Where the settings came from, e.g. `.claude/settings.json (base branch main)`. */
    readonly source: string,
    message: string,
  ) {
    super(message);
    this.name = 'SettingsFileError';
  }
}

const RULES_ERROR = 'expected an array of strings';
// Rule syntax is checked by the permissions module; here a rule only has to be a string.
const Rules = z._default(z.array(z.string({ error: 'expected a string' }), { error: RULES_ERROR }), []);

const HONOURED_PERMISSIONS = ['allow', 'deny', 'ask'] as const;
const HONOURED_KEYS = [
  'permissions',
  'hooks',
  'disableAllHooks',
  'env',
  'enableAllProjectMcpServers',
  'enabledMcpjsonServers',
  'disabledMcpjsonServers',
] as const;
const Names = z._default(z.array(z.string({ error: 'expected a string' }), { error: RULES_ERROR }), []);

/** Loose objects keep unknown keys so that they can be listed in the log line instead of vanishing silently. */
export const ClaudeSettingsSchema = z.looseObject(
  {
    permissions: z._default(z.looseObject({ allow: Rules, deny: Rules, ask: Rules }, { error: 'expected an object' }), {
      allow: [],
      deny: [],
      ask: [],
    }),
    hooks: z._default(HooksSchema, {}),
    disableAllHooks: z.optional(z.boolean({ error: 'expected true or false' })),
    env: z._default(z.record(z.string(), z.string({ error: 'expected a string value' }), { error: 'expected an object of strings' }), {}),
    enableAllProjectMcpServers: z.optional(z.boolean({ error: 'expected true or false' })),
    enabledMcpjsonServers: Names,
    disabledMcpjsonServers: Names,
  },
  { error: 'expected a JSON object' },
);

/** The honoured part of one source's settings. `enableAllProjectMcpServers` stays undefined when unset so merging can tell. */
export interface ClaudeSettings {
  permissions: { allow: string[]; deny: string[]; ask: string[] };
  hooks: HookSettings;
  /** Unset stays undefined, so that merging can tell it from false. */
  disableAllHooks?: boolean;
  /** Variables for Bash, hooks and MCP servers (the settings are trusted). */
  env: Record<string, string>;
  enableAllProjectMcpServers?: boolean;
  enabledMcpjsonServers: string[];
  /** Wins over enableAllProjectMcpServers and enabledMcpjsonServers, as in Claude Code. */
  disabledMcpjsonServers: string[];
}

/** The rules that refuse a call: `ask` ones too, since a headless run has nobody to ask. */
export function denyIncludingAsk(settings: ClaudeSettings): string[] {
  return [...settings.permissions.deny, ...settings.permissions.ask];
}

/**
 * Parses one source's settings text. Unknown and unsupported keys are logged in one line;
 * anything malformed throws a SettingsFileError naming the source, the key path and the problem.
 */
export function parseClaudeSettings(text: string, source: string, log: (m: string) => void): ClaudeSettings {
  const json = parseJson(text, source);
  // The input is reported so that a missing key can be told from one of the wrong type.
  const result = ClaudeSettingsSchema.safeParse(json, { reportInput: true });
  if (!result.success) {
    throw new SettingsFileError(source, result.error.issues.map((issue) => `${source}: ${describeIssue(issue)}`).join('\n'));
  }
  const { permissions, enableAllProjectMcpServers, enabledMcpjsonServers, disabledMcpjsonServers, disableAllHooks, env } = result.data;
  const hooks = readHooks(result.data.hooks);
  if (hooks.problems.length > 0) {
    const lines = hooks.problems.map((p) => `${source}: ${keyPath(['hooks', ...p.path])}: ${p.message.replace(/^Invalid input: /, '')}`);
    throw new SettingsFileError(source, lines.join('\n'));
  }
  const ignored = [...ignoredKeys(result.data), ...hooks.skipped];
  if (ignored.length > 0) log(`${source}: ignoring settings agent-action does not use: ${ignored.join(', ')}`);
  const settings: ClaudeSettings = {
    permissions: { allow: permissions.allow, deny: permissions.deny, ask: permissions.ask },
    hooks: hooks.hooks,
    env,
    enabledMcpjsonServers,
    disabledMcpjsonServers,
  };
  if (enableAllProjectMcpServers !== undefined) settings.enableAllProjectMcpServers = enableAllProjectMcpServers;
  if (disableAllHooks !== undefined) settings.disableAllHooks = disableAllHooks;
  return settings;
}

function parseJson(text: string, source: string): unknown {
  try {
    // Editors on Windows may save a byte order mark, which JSON.parse rejects.
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new SettingsFileError(source, `${source}: not valid JSON: ${withLine(message, text)}`);
  }
}

/** Node 20 reports only a character position; the line is what a person looks for in the file. */
function withLine(message: string, text: string): string {
  if (/\(line \d+/.test(message)) return message;
  const position = /at position (\d+)/.exec(message)?.[1];
  if (position === undefined) return message;
  const line = text.slice(0, Number(position)).split('\n').length;
  return `${message} (line ${line})`;
}

function ignoredKeys(data: Record<string, unknown> & { permissions: Record<string, unknown> }): string[] {
  const top = Object.keys(data).filter((k) => !(HONOURED_KEYS as readonly string[]).includes(k));
  const permissions = Object.keys(data.permissions)
    .filter((k) => !(HONOURED_PERMISSIONS as readonly string[]).includes(k))
    .map((k) => `permissions.${k}`);
  return [...top, ...permissions];
}

/** `hooks.PreToolUse[0].hooks[0].type`: the way a person would point at the key in the file. */
export function keyPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out === '' ? '(top level)' : out;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `${issue.keys.map((k) => keyPath([...issue.path, k])).join(', ')}: unknown key`;
  if (issue.code === 'invalid_type' && issue.input === undefined) return `${keyPath(issue.path)}: required`;
  return `${keyPath(issue.path)}: ${issue.message.replace(/^Invalid input: /, '')}`;
}
