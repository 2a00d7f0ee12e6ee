import { parseAllowedDomains } from '../network/hosts.js';
import * as z from '../core/schema.js';
import { describeSettingsError, LoopSettingsSchema } from '../config/loop-settings.js';

/** Text, trimmed; empty when the input is left out. */
const text = (fallback = '') => z._default(z.string().check(z.trim()), fallback);
const choice = <const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) => z._default(z.enum(values), fallback);
const flag = (fallback: boolean) =>
  z._default(
    z.pipe(
      z.enum(['true', 'false']),
      z.transform((v) => v === 'true'),
    ),
    fallback,
  );
const endpoint = () => z._default(z.union([z.literal(''), z.url()]), '');
const list = z.pipe(
  z.string(),
  z.transform((s: string) =>
    s
      .split(/[,\n]/)
      .map((t) => t.trim())
      .filter((t) => t.length > 0),
  ),
);

/** Every input of action.yml, as one validated object. */
export const ActionSettingsSchema = z.extend(LoopSettingsSchema, {
  /** A task; when set the action runs on any event. */
  prompt: z._default(z.string(), ''),
  /** Starts a run when it stands as a word in a comment, review or issue body. */
  triggerPhrase: z._default(z.string().check(z.trim(), z.minLength(1, 'must not be empty')), '/agent'),
  /** A label whose addition starts a run. */
  labelTrigger: text(),
  /** A login whose assignment starts a run. */
  assigneeTrigger: text(),
  /** Anthropic API key (else env ANTHROPIC_API_KEY). */
  anthropicApiKey: text(),
  /** OpenAI-compatible endpoint's key (else env OPENAI_API_KEY), for provider openai. */
  openaiApiKey: text(),
  /** OpenAI-compatible endpoint (else env OPENAI_BASE_URL), for provider openai. */
  openaiBaseUrl: endpoint(),
  /** Anthropic-compatible endpoint (else env ANTHROPIC_BASE_URL). */
  anthropicBaseUrl: endpoint(),
  /** Token for REST calls and push. */
  githubToken: z.string().check(z.trim(), z.minLength(1, 'is required (the default is ${{ github.token }})')),
  /** A GitHub App's id or client id: with its private key, an installation token replaces github-token. */
  githubAppId: text(),
  /** The App's private key (PEM). */
  githubAppPrivateKey: text(),
  /** Prefix of the branches the action creates. */
  branchPrefix: z._default(
    z.string().check(z.trim(), z.regex(/^[A-Za-z0-9._/-]*$/, 'may hold letters, digits, ".", "_", "-" and "/" only')),
    'agent/',
  ),
  /** The base of new branches and their pull requests ('' = the branch the workflow checked out, the default one). */
  baseBranch: z._default(
    z.string().check(z.trim(), z.regex(/^([A-Za-z0-9._/-]*)$/, 'may hold letters, digits, ".", "_", "-" and "/" only')),
    '',
  ),
  /** Open a pull request for work on a new branch: auto, draft or never. */
  pullRequest: choice(['auto', 'draft', 'never'], 'auto'),
  /** Bot logins allowed to trigger a run. */
  allowedBots: z._default(list, []),
  /** Extra instructions for the system prompt. */
  appendSystemPrompt: z._default(z.string(), ''),
  /** Push changes under .github/workflows/ (off: reported in the comment, not pushed). */
  allowWorkflowChanges: flag(false),
  /** Bubblewrap for Bash: auto (use it when it works, say so when not), strict (fail closed), off. */
  sandbox: choice(['auto', 'strict', 'off'], 'auto'),
  /** Network for sandboxed processes: allowlist (only allowed-domains, through a proxy), on or off. */
  network: choice(['allowlist', 'on', 'off'], 'allowlist'),
  /** Hosts the allowlist admits: `+host` entries extend the default list, any other list replaces it. */
  allowedDomains: text(),
  /** `auto`: `/agent review` on a pull request reviews it; `review`: pull request events are reviewed too. */
  mode: choice(['auto', 'review'], 'auto'),
  /** A new request in an issue or pull request where the action ran before carries on that conversation. */
  continueConversation: flag(true),
  /** One tracking comment per issue or pull request across runs, edited by each run. */
  stickyComment: flag(false),
  /** Commits made by GitHub through its Git Data API, which GitHub signs for a bot's or an App's token. */
  commitSigning: flag(false),
  /** Review draft pull requests in mode review. */
  reviewDrafts: flag(false),
  /** The review's event: `comment` always, or `auto` (REQUEST_CHANGES when a blocking comment was made). */
  reviewEvent: choice(['comment', 'auto'], 'comment'),
  /** Whose pull requests mode review reviews unasked: `all` (forks included) or `writers`. */
  reviewAuthors: choice(['all', 'writers'], 'all'),
  /** MCP servers in `.mcp.json` format, as JSON or a workspace path; allowed by being configured. */
  mcpConfig: text(),
  /** Subagents for the Task tool as JSON: {"name": {"description", "prompt", "tools?", "model?"}}. */
  agents: text(),
  /** Claude Code settings (permissions, hooks) as JSON or a workspace path, on top of the repository's. */
  settings: text(),
});
export type ActionSettings = z.infer<typeof ActionSettingsSchema>;

/** Input names as users write them in `with:`, by settings key. */
export const INPUT_NAMES: Readonly<Record<string, string>> = {
  prompt: 'prompt',
  triggerPhrase: 'trigger-phrase',
  labelTrigger: 'label-trigger',
  assigneeTrigger: 'assignee-trigger',
  anthropicApiKey: 'anthropic-api-key',
  anthropicBaseUrl: 'anthropic-base-url',
  model: 'model',
  maxSteps: 'max-steps',
  maxCostUsd: 'max-cost-usd',
  maxRetries: 'max-retries',
  timeoutMinutes: 'timeout-minutes',
  maxParallelAgents: 'max-parallel-agents',
  streamIdleTimeoutSeconds: 'stream-idle-timeout-seconds',
  allowedTools: 'allowed-tools',
  disallowedTools: 'disallowed-tools',
  settings: 'settings',
  verify: 'verify',
  verifyAttempts: 'verify-attempts',
  jsonSchema: 'json-schema',
  provider: 'provider',
  openaiApiKey: 'openai-api-key',
  openaiBaseUrl: 'openai-base-url',
  agents: 'agents',
  mcpConfig: 'mcp-config',
  mode: 'mode',
  continueConversation: 'continue-conversation',
  reviewDrafts: 'review-drafts',
  stickyComment: 'sticky-comment',
  commitSigning: 'commit-signing',
  reviewEvent: 'review-event',
  reviewAuthors: 'review-authors',
  githubToken: 'github-token',
  githubAppId: 'github-app-id',
  githubAppPrivateKey: 'github-app-private-key',
  branchPrefix: 'branch-prefix',
  baseBranch: 'base-branch',
  pullRequest: 'pull-request',
  allowedBots: 'allowed-bots',
  appendSystemPrompt: 'append-system-prompt',
  allowWorkflowChanges: 'allow-workflow-changes',
  sandbox: 'sandbox',
  network: 'network',
  allowedDomains: 'allowed-domains',
  prices: 'prices',
};

export class SettingsError extends Error {
  override name = 'SettingsError';
}

/**
 * Reads every input through getInput (core.getInput in the action). An empty input takes the
 * default, as an input left out of `with:` does.
 */
export function readSettings(getInput: (name: string) => string, env: NodeJS.ProcessEnv = {}): ActionSettings {
  const raw: Record<string, string> = {};
  if (env['AGENT_ACTION_PRICES']) raw['prices'] = env['AGENT_ACTION_PRICES'];
  for (const [key, input] of Object.entries(INPUT_NAMES)) {
    const value = getInput(input);
    if (value !== '') raw[key] = value;
  }
  const parsed = ActionSettingsSchema.safeParse(raw);
  if (!parsed.success) {
    const names = Object.fromEntries(Object.entries(INPUT_NAMES).map(([k, v]) => [k, `input ${v}`]));
    throw new SettingsError(describeSettingsError(parsed.error, names));
  }
  const domains = parseAllowedDomains(parsed.data.allowedDomains);
  if ('error' in domains) throw new SettingsError(`input allowed-domains: ${domains.error}`);
  return parsed.data;
}
