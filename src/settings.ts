import { z } from 'zod';
import { BUILTIN_TOOL_NAMES } from './tools/catalog.js';
import { parseRuleList } from './tools/permissions/rules.js';

/** The model used when none is configured. */
export const DEFAULT_MODEL = 'claude-sonnet-5-5';

/**
 * Tool rules in Claude Code's syntax (`Read`, `Bash(npm test:*)`, `Edit(src/**)`), separated by
 * commas or newlines; a rule that does not parse is a configuration error naming it.
 */
const ToolRulesSchema = z.string().transform((text, ctx) => {
  try {
    return parseRuleList(text, 'this list').map((rule) => rule.text);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
    return z.NEVER;
  }
});

const positiveInt = z.coerce.number().int().positive();

const PriceSchema = z.object({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cacheRead: z.number().nonnegative().optional(),
  cacheWrite: z.number().nonnegative().optional(),
});

/**
 * Price overrides: JSON mapping a model id prefix to USD per million tokens, e.g.
 * `{"claude-sonnet-5-5": {"input": 2, "output": 10, "cacheRead": 0.1}}`. Cache prices default
 * to the usual multiples of the input price (writes 1.25x, reads 0.1x).
 */
export const PricesSchema = z
  .string()
  .trim()
  .transform((text, ctx) => {
    if (text === '') return {};
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be JSON: {"model-prefix": {"input": 2, "output": 10}}' });
      return z.NEVER;
    }
  })
  .pipe(z.record(z.string().min(1), PriceSchema))
  .transform((table) =>
    Object.fromEntries(
      Object.entries(table).map(([model, p]) => [
        model,
        { input: p.input, output: p.output, cacheRead: p.cacheRead ?? p.input * 0.1, cacheWrite: p.cacheWrite ?? p.input * 1.25 },
      ]),
    ),
  );
export type Prices = z.infer<typeof PricesSchema>;

/** Settings of the loop shared by the CLI and the action; each field is documented where users set it. */
export const LoopSettingsSchema = z.object({
  /** Where the model runs: anthropic, bedrock, vertex or openai ('' = from CLAUDE_CODE_USE_BEDROCK/VERTEX, else anthropic). */
  provider: z.enum(['', 'anthropic', 'bedrock', 'vertex', 'openai']).default(''),
  /** Model id. */
  model: z.string().trim().min(1).default(DEFAULT_MODEL),
  /** Model calls per run. */
  maxSteps: positiveInt.default(40),
  /** Spend cap in USD, checked before every model call. */
  maxCostUsd: z.coerce.number().positive().default(5),
  /** Retries of one model call on retryable errors. */
  maxRetries: z.coerce.number().int().min(0).max(20).default(5),
  /** Wall-clock limit of the loop in minutes. */
  timeoutMinutes: z.coerce.number().positive().default(30),
  /** Tools offered to the model. */
  allowedTools: ToolRulesSchema.pipe(z.array(z.string()).min(1, 'name at least one tool')).default([
    ...BUILTIN_TOOL_NAMES,
    'Task',
    'Skill',
  ]),
  /** Tool rules that refuse calls; they win over every allow rule. */
  disallowedTools: ToolRulesSchema.default([]),
  /** max_tokens of each model call. */
  maxOutputTokens: positiveInt.default(16000),
  /** Characters of one tool result kept (head and tail) before the middle is cut. */
  toolOutputLimit: positiveInt.default(30000),
  /** Prompt tokens past which older tool output is cleared from the context. */
  compactAtTokens: positiveInt.default(150000),
  /** A command that decides when the work is done (`npm test`); '' for none. */
  verify: z.string().trim().default(''),
  /** Failed verifications before the run ends as unverified. */
  verifyAttempts: positiveInt.default(3),
  /** Price overrides (see PricesSchema); also read from AGENT_ACTION_PRICES. */
  prices: PricesSchema.default({}),
});
export type LoopSettings = z.infer<typeof LoopSettingsSchema>;

/** A readable account of what is wrong, naming each setting by the name the user wrote. */
export function describeSettingsError(error: z.ZodError, names: Readonly<Record<string, string>>): string {
  return error.issues
    .map((issue) => {
      const key = String(issue.path[0] ?? '');
      return `${names[key] ?? key}: ${issue.message}`;
    })
    .join('\n');
}
