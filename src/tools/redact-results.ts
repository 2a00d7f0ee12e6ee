import type { ToolOutcome, ToolSet } from '../core/tools.js';
import { afterEach } from './compose.js';

function redactOutcome(outcome: ToolOutcome, redact: (text: string) => string): ToolOutcome {
  if (typeof outcome.content === 'string') return { ...outcome, content: redact(outcome.content) };
  const content = outcome.content.map((part) => (part.type === 'text' ? { ...part, text: redact(part.text) } : part));
  return { ...outcome, content };
}

/**
 * The same tools, with every result's text redacted before the model sees it: a command that
 * prints a credentials file (`cat gha-creds-*.json`, `env`) shows the model masks, not the key,
 * so no request carries it and nothing the model writes can repeat it.
 */
export function redactResults(set: ToolSet, redact: (text: string) => string): ToolSet {
  return afterEach(set, (outcome) => redactOutcome(outcome, redact));
}
