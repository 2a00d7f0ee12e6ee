import { parseAllowedDomains } from '../network/hosts.js';
import { parseArgs } from 'node:util';
import { describeSettingsError, LoopSettingsSchema, type LoopSettings } from '../config/loop-settings.js';

export const USAGE = `Usage: agent-action [options] "PROMPT"

Runs the agent on the repository in --cwd: edits files in place, commits nothing,
prints progress on stderr.

Options:
  --cwd DIR               workspace the tools are confined to (default: .)
  --provider NAME         anthropic (default), bedrock, vertex or openai (OPENAI_API_KEY, OPENAI_BASE_URL)
  --model ID              model id (default: claude-sonnet-5-5)
  --max-steps N           model calls at most (default: 40)
  --max-cost-usd X        spend cap in USD (default: 5)
  --max-retries N         retries of one model call on retryable errors (default: 5)
  --timeout-minutes M     wall-clock deadline for the loop (default: 30)
  --max-parallel-agents N subagents running at once; the others wait (default: 4)
  --stream-idle-timeout S seconds a model response may stay silent before the attempt is retried
                          (default: 60, also AGENT_ACTION_STREAM_IDLE_TIMEOUT)
  --allowed-tools RULES   tools offered and calls allowed, in Claude Code's rule syntax:
                          Read,Edit(src/**),Bash(npm test:*) (default: every built-in tool)
  --disallowed-tools RULES
                          calls refused whatever allows them, e.g. Bash(curl:*)
  --settings FILE|JSON    Claude Code settings (permissions, hooks) on top of the files below
  --mcp-config FILE|JSON  MCP servers in .mcp.json format (repeatable); .mcp.json in --cwd counts
                          when the settings enable it
  --agents JSON           subagents for the Task tool: {"name": {"description", "prompt", "tools?", "model?"}}
  --setting-sources all|none
                          read .claude/settings.json and .claude/settings.local.json in --cwd
                          (default: all), or none of them
  --append-system-prompt  extra instructions for the model
  --prices JSON           price overrides, USD per million tokens by model prefix
                          (also AGENT_ACTION_PRICES), e.g. '{"my-model": {"input": 1, "output": 5}}'
  --sandbox MODE          run Bash under bubblewrap: off (default), auto, strict
  --network MODE          network for sandboxed commands, hooks and MCP servers: allowlist (only
                          --allowed-domains, through a proxy; the default when the sandbox runs),
                          on (the default without a sandbox), off
  --allowed-domains LIST  hosts the allowlist admits (commas): example.com, *.example.com, host:port;
                          all +host: the default list (package registries, GitHub) and these
  --verify CMD            when the model ends, CMD decides whether it is done (exit 0); on a failure the
                          model goes on, up to --verify-attempts N (default 3)
  --json-schema FILE|JSON the final answer must be JSON valid for this JSON Schema (draft 2020-12);
                          an invalid one goes back to the model twice at most; --json prints it as
                          structured_output
  --transcript FILE       append every message as JSONL
  --resume FILE           continue a transcript (PROMPT optional)
  -c, --continue          continue this workspace's last run (its transcript is kept under
                          $XDG_STATE_HOME/agent-action, default ~/.local/state; PROMPT optional)
  --json                  print one JSON object on stdout at the end
  -q, --quiet             no streamed text on stderr, only tool lines and the summary
  -h, --help              this text
  -v, --version           the version

Environment: ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL; for the other providers their own (see the README).
Exit code: 0 on success, 2 for bad usage or configuration, 1 otherwise.`;

export interface CliOptions {
  settings: LoopSettings;
  prompt: string;
  cwd: string;
  transcript?: string;
  resume?: string;
  /** --continue: resume the workspace's last transcript. */
  continue: boolean;
  appendSystemPrompt?: string;
  json: boolean;
  quiet: boolean;
  sandbox: 'auto' | 'strict' | 'off';
  /** Absent: allowlist when the sandbox runs, on otherwise. */
  network?: 'allowlist' | 'on' | 'off';
  /** --allowed-domains, parsed (the default list when absent). */
  allowedDomains: string[];
  /** --settings: a file or inline JSON, read after the files of --cwd. */
  settingsFile?: string;
  settingSources: 'all' | 'none';
  /** --agents: subagent definitions as JSON. */
  agents?: string;
  /** --mcp-config, repeatable: `.mcp.json`-style JSON or files. */
  mcpConfigs: string[];
}

export type ParsedCli = { kind: 'run'; options: CliOptions } | { kind: 'help' } | { kind: 'version' } | { kind: 'error'; message: string };

const OPTION_NAMES: Readonly<Record<string, string>> = {
  model: '--model',
  provider: '--provider',
  maxSteps: '--max-steps',
  maxCostUsd: '--max-cost-usd',
  maxRetries: '--max-retries',
  timeoutMinutes: '--timeout-minutes',
  maxParallelAgents: '--max-parallel-agents',
  streamIdleTimeoutSeconds: '--stream-idle-timeout / AGENT_ACTION_STREAM_IDLE_TIMEOUT',
  allowedTools: '--allowed-tools',
  disallowedTools: '--disallowed-tools',
  verify: '--verify',
  verifyAttempts: '--verify-attempts',
  jsonSchema: '--json-schema',
  prices: '--prices / AGENT_ACTION_PRICES',
};

const OPTIONS = {
  cwd: { type: 'string' },
  model: { type: 'string' },
  provider: { type: 'string' },
  'max-steps': { type: 'string' },
  'max-cost-usd': { type: 'string' },
  'max-retries': { type: 'string' },
  'timeout-minutes': { type: 'string' },
  'max-parallel-agents': { type: 'string' },
  'stream-idle-timeout': { type: 'string' },
  'allowed-tools': { type: 'string' },
  'disallowed-tools': { type: 'string' },
  settings: { type: 'string' },
  agents: { type: 'string' },
  'mcp-config': { type: 'string', multiple: true },
  verify: { type: 'string' },
  'verify-attempts': { type: 'string' },
  'json-schema': { type: 'string' },
  'setting-sources': { type: 'string', default: 'all' },
  'append-system-prompt': { type: 'string' },
  prices: { type: 'string' },
  sandbox: { type: 'string', default: 'off' },
  network: { type: 'string' },
  'allowed-domains': { type: 'string' },
  transcript: { type: 'string' },
  resume: { type: 'string' },
  continue: { type: 'boolean', short: 'c', default: false },
  json: { type: 'boolean', default: false },
  quiet: { type: 'boolean', short: 'q', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'v', default: false },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true; strict: true }>>['values'];

export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv = {}): ParsedCli {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: OPTIONS });
  } catch (error) {
    return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  const prompt = positionals.join(' ').trim();
  if (values.resume !== undefined && values.continue) return { kind: 'error', message: '--resume and --continue exclude each other' };
  if (prompt === '' && !values.resume && !values.continue)
    return { kind: 'error', message: 'a PROMPT is required (or --resume FILE, --continue)' };
  return runOptions(values, prompt, env);
}

/** The options of a run, each checked and named as the user wrote it when wrong. */
function runOptions(values: Values, prompt: string, env: NodeJS.ProcessEnv): ParsedCli {
  const settings = LoopSettingsSchema.safeParse({
    model: values.model,
    provider: values.provider,
    maxSteps: values['max-steps'],
    maxCostUsd: values['max-cost-usd'],
    maxRetries: values['max-retries'],
    timeoutMinutes: values['timeout-minutes'],
    maxParallelAgents: values['max-parallel-agents'],
    streamIdleTimeoutSeconds: values['stream-idle-timeout'] ?? env['AGENT_ACTION_STREAM_IDLE_TIMEOUT'],
    allowedTools: values['allowed-tools'],
    disallowedTools: values['disallowed-tools'],
    verify: values.verify,
    verifyAttempts: values['verify-attempts'],
    jsonSchema: values['json-schema'],
    prices: values.prices ?? env['AGENT_ACTION_PRICES'],
  });
  if (!settings.success) return { kind: 'error', message: describeSettingsError(settings.error, OPTION_NAMES) };
  const sandbox = values.sandbox;
  if (sandbox !== 'auto' && sandbox !== 'strict' && sandbox !== 'off')
    return { kind: 'error', message: `--sandbox: expected auto, strict or off, got "${sandbox}"` };
  const settingSources = values['setting-sources'];
  if (settingSources !== 'all' && settingSources !== 'none') {
    return { kind: 'error', message: `--setting-sources: expected all or none, got "${settingSources}"` };
  }
  const network = values.network;
  if (network !== undefined && network !== 'allowlist' && network !== 'on' && network !== 'off') {
    return { kind: 'error', message: `--network: expected allowlist, on or off, got "${network}"` };
  }
  if (network === 'allowlist' && sandbox === 'off') {
    return { kind: 'error', message: '--network allowlist needs the sandbox (--sandbox auto or strict), which enforces it' };
  }
  const domains = parseAllowedDomains(values['allowed-domains']);
  if ('error' in domains) return { kind: 'error', message: `--allowed-domains: ${domains.error}` };
  return {
    kind: 'run',
    options: {
      settings: settings.data,
      prompt,
      cwd: values.cwd ?? process.cwd(),
      json: values.json,
      quiet: values.quiet,
      continue: values.continue,
      sandbox,
      ...(network !== undefined ? { network } : {}),
      allowedDomains: domains.entries,
      settingSources,
      ...(values.settings !== undefined ? { settingsFile: values.settings } : {}),
      ...(values.agents !== undefined ? { agents: values.agents } : {}),
      mcpConfigs: values['mcp-config'] ?? [],
      ...(values.transcript !== undefined ? { transcript: values.transcript } : {}),
      ...(values.resume !== undefined ? { resume: values.resume } : {}),
      ...(values['append-system-prompt'] !== undefined ? { appendSystemPrompt: values['append-system-prompt'] } : {}),
    },
  };
}
