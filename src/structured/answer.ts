import type { LoopHooks } from '../agent/config.js';
import type { Stop } from '../agent/limits.js';
import type { AnswerSchema } from './schema.js';

/** Invalid answers sent back to the model before the run ends as an error. */
export const SCHEMA_RETRIES = 2;

/** What the final text says as JSON: the whole text, or its one fenced `json` block. */
export function readAnswer(text: string): { value: unknown } | { error: string } {
  const trimmed = text.trim();
  const fences = [...trimmed.matchAll(/```json[ \t]*\r?\n([\s\S]*?)\r?\n?```/g)];
  const candidate = fences.length === 1 && !startsLikeJson(trimmed) ? fences[0]![1]! : trimmed;
  if (fences.length > 1 && !startsLikeJson(trimmed)) return { error: 'the answer holds more than one ```json block; give exactly one' };
  try {
    return { value: JSON.parse(candidate) as unknown };
  } catch (error) {
    return { error: `the answer is not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
}

function startsLikeJson(text: string): boolean {
  return /^[[{"\d-]|^(true|false|null)\b/.test(text);
}

/** The answer's problems against the schema: why it does not parse, or its validation errors. */
export function answerErrors(schema: AnswerSchema, text: string): string[] {
  const read = readAnswer(text);
  return 'error' in read ? [read.error] : schema.check(read.value);
}

/** The value of a final text that satisfies the schema; undefined otherwise. */
export function structuredValue(schema: AnswerSchema, text: string): unknown {
  const read = readAnswer(text);
  return 'value' in read && schema.check(read.value).length === 0 ? read.value : undefined;
}

/** The system prompt's part: the model knows from the start what its final answer must be. */
export function answerInstructions(schema: AnswerSchema): string {
  return [
    'Your final answer must be one JSON value that satisfies this JSON Schema (draft 2020-12), and nothing else:',
    'no prose around it (a single ```json fenced block is accepted). Do the work first; the final message is the JSON.',
    schema.text,
  ].join('\n');
}

/**
 * The end hook: an answer that is not valid goes back with its errors, up to SCHEMA_RETRIES times;
 * then the run ends as an error naming them. Each retry is a model call, so the limits bound it too.
 */
export function answerCheck(schema: AnswerSchema): NonNullable<LoopHooks['onEnd']> {
  let sentBack = 0;
  return (text): Promise<string | Stop | null> => {
    const errors = answerErrors(schema, text);
    if (errors.length === 0) return Promise.resolve(null);
    if (sentBack >= SCHEMA_RETRIES) {
      return Promise.resolve({
        conclusion: 'error',
        reason: `the final answer does not satisfy json-schema after ${sentBack} corrections: ${errors.join('; ')}`,
      });
    }
    sentBack++;
    const list = errors.map((e) => `- ${e}`).join('\n');
    return Promise.resolve(`Your final answer does not satisfy the JSON Schema:\n${list}\nAnswer again with only the corrected JSON.`);
  };
}
