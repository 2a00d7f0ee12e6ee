import * as z from '../core/schema.js';
import { DEFAULT_TOOL_NAMES } from '../tools/catalog.js';
import { parseRuleList } from '../tools/permissions/rules.js';

/** The model used when none is configured. */
export const DEFAULT_MODEL = 'claude-sonnet-5-5';

/**
 * Claude Code's model aliases, as commands and agents write them (`model: sonnet`): each the
 * newest model of its family; `inherit` (and `default`) is the run's own model.
 */
export const MODEL_ALIASES: Readonly<Record<string, string>> = {
  sonnet: DEFAULT_MODEL,
  opus: 'claude-opus-5-5',
  haiku: 'claude-haiku-5-5',
};
const RUN_MODEL_ALIASES = new Set(['inherit', 'default']);

/** The model id an alias stands for, or the id itself; undefined for the run's own model. */
export function modelIdOf(id: string): string | undefined {
  const key = id.trim().toLowerCase();
  if (RUN_MODEL_ALIASES.has(key)) return undefined;
  return MODEL_ALIASES[key] ?? id;
}

/** `allowed-tools` / `--allowed-tools` when left out: every built-in tool, bare (see config/rules.ts for what narrows it). */
export const DEFAULT_ALLOWED_TOOLS: readonly string[] = DEFAULT_TOOL_NAMES;

/**
 * Tool rules in Claude Code's syntax (`Read`, `Bash(npm test:*)`, `Edit(src/**)`), separated by
 * commas or newlines; a rule that does not parse is a configuration error naming it.
 */
const ToolRulesSchema = z.pipe(
  z.string(),
  z.transform((text, ctx) => {
    try {
      return parseRuleList(text, 'this list').map((rule) => rule.text);
    } catch (error) {
      ctx.issues.push({ code: 'custom', message: error instanceof Error ? error.message : String(error), input: text });
      return z.NEVER;
    }
  }),
);

const positiveInt = z.coerce.number().check(z.int(), z.positive());
const price = z.number().check(z.nonnegative());

const PriceSchema = z.object({ input: price, output: price, cacheRead: z.optional(price), cacheWrite: z.optional(price) });

const pricesJson = z.pipe(
  z.string().check(z.trim()),
  z.transform((text, ctx) => {
    if (text === '') return {};
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.issues.push({ code: 'custom', message: 'must be JSON: {"model-prefix": {"input": 2, "output": 10}}', input: text });
      return z.NEVER;
    }
  }),
);

/**
 * Price overrides: JSON mapping a model id prefix to USD per million tokens, e.g.
 * `{"claude-sonnet-5-5": {"input": 2, "output": 10, "cacheRead": 0.1}}`. Cache prices default
 * to the usual multiples of the input price (writes 1.25x, reads 0.1x).
 */
export const PricesSchema = z.pipe(
  z.pipe(pricesJson, z.record(z.string().check(z.minLength(1)), PriceSchema)),
  z.transform((table) =>
    Object.fromEntries(
      Object.entries(table).map(([model, p]) => [
        model,
        { input: p.input, output: p.output, cacheRead: p.cacheRead ?? p.input * 0.1, cacheWrite: p.cacheWrite ?? p.input * 1.25 },
      ]),
    ),
  ),
);
export type Prices = z.infer<typeof PricesSchema>;

/** Settings of the loop shared by the CLI and the action; each field is documented where users set it. */
export const LoopSettingsSchema = z.object({
  /** Where the model runs: anthropic, bedrock, vertex or openai ('' = from CLAUDE_CODE_USE_BEDROCK/VERTEX, else anthropic). */
  provider: z._default(z.enum(['', 'anthropic', 'bedrock', 'vertex', 'openai']), ''),
  /** Model id. */
  model: z._default(z.string().check(z.trim(), z.minLength(1)), DEFAULT_MODEL),
  /** Model calls per run. */
  maxSteps: z._default(positiveInt, 40),
  /** Spend cap in USD, checked before every model call. */
  maxCostUsd: z._default(z.coerce.number().check(z.positive()), 5),
  /** Retries of one model call on retryable errors. */
  maxRetries: z._default(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(20)), 5),
  /** Subagents (Task calls of one turn) running at once; the others wait for a slot. */
  maxParallelAgents: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(64)), 4),
  /** Seconds a model response may go without sending anything (before its headers too) before the attempt is retried. */
  streamIdleTimeoutSeconds: z._default(z.coerce.number().check(z.positive(), z.maximum(3600)), 60),
  /** Wall-clock limit of the loop in minutes. */
  timeoutMinutes: z._default(z.coerce.number().check(z.positive()), 30),
  /** Tools offered to the model. */
  allowedTools: z._default(z.pipe(ToolRulesSchema, z.array(z.string()).check(z.minLength(1, 'name at least one tool'))), [
    ...DEFAULT_ALLOWED_TOOLS,
  ]),
  /** Tool rules that refuse calls; they win over every allow rule. */
  disallowedTools: z._default(ToolRulesSchema, []),
  /** max_tokens of each model call. */
  maxOutputTokens: z._default(positiveInt, 16000),
  /** Characters of one tool result kept (head and tail) before the middle is cut. */
  toolOutputLimit: z._default(positiveInt, 30000),
  /** Prompt tokens past which older tool output is cleared from the context. */
  compactAtTokens: z._default(positiveInt, 150000),
  /** A command that decides when the work is done (`npm test`); '' for none. */
  verify: z._default(z.string().check(z.trim()), ''),
  /** Failed verifications before the run ends as unverified. */
  verifyAttempts: z._default(positiveInt, 3),
  /** A JSON Schema (inline JSON or a workspace path) the final answer must satisfy; '' for none. */
  jsonSchema: z._default(z.string().check(z.trim()), ''),
  /** Price overrides (see PricesSchema); also read from AGENT_ACTION_PRICES. */
  prices: z._default(PricesSchema, {}),
});
export type LoopSettings = z.infer<typeof LoopSettingsSchema>;

/** A readable account of what is wrong, naming each setting by the name the user wrote. */
export function describeSettingsError(error: z.core.$ZodError, names: Readonly<Record<string, string>>): string {
  return error.issues
    .map((issue) => {
      const key = String(issue.path[0] ?? '');
      return `${names[key] ?? key}: ${issue.message}`;
    })
    .join('\n');
}
