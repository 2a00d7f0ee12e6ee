import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';

/** A JSON Schema the final answer must satisfy, compiled once at the start of the run. */
export interface AnswerSchema {
  /** The schema as the model is shown it (compact JSON). */
  text: string;
  /** The validation errors of a value, empty when it satisfies the schema. */
  check(value: unknown): string[];
}

/** A schema that is not JSON, not found, or not valid JSON Schema: named as the user wrote it. */
export class SchemaError extends Error {
  override name = 'SchemaError';
}

/**
 * Reads `json-schema` / `--json-schema`: inline JSON (it starts with `{`), or a file under `base`
 * (the workspace). Empty: no schema. ajv is loaded only when a schema is set.
 */
export async function loadAnswerSchema(value: string, base: string, name: string): Promise<AnswerSchema | null> {
  const raw = value.trim();
  if (raw === '') return null;
  const inline = raw.startsWith('{');
  let text: string;
  try {
    text = inline ? raw : readFileSync(resolve(base, raw), 'utf8');
  } catch (error) {
    throw new SchemaError(`${name}: cannot read ${raw}: ${error instanceof Error ? error.message : String(error)}`);
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    throw new SchemaError(`${name}: not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) throw new SchemaError(`${name}: a JSON Schema is an object`);
  return { text: JSON.stringify(schema), check: describeErrors(await compile(schema as Record<string, unknown>, name)) };
}

/**
 * Draft 2020-12, the meta-schema checked (a misspelt type fails here, not at the end of the run).
 * `format` stays an annotation, as the draft has it by default; unknown keywords are annotations too.
 */
async function compile(schema: Record<string, unknown>, name: string): Promise<ValidateFunction> {
  const ajv = new (await ajv2020())({ strict: false, allErrors: true, validateFormats: false });
  try {
    return ajv.compile(schema);
  } catch (error) {
    throw new SchemaError(`${name}: not a valid JSON Schema (draft 2020-12): ${error instanceof Error ? error.message : String(error)}`);
  }
}

type Ajv2020Class = typeof import('ajv/dist/2020.js').Ajv2020;

/** ajv is CommonJS: Node hands its exports as named ones, a bundle may only as the default (or the default's). */
async function ajv2020(): Promise<Ajv2020Class> {
  const m = (await import('ajv/dist/2020.js')) as unknown as {
    Ajv2020?: Ajv2020Class;
    default?: Ajv2020Class & { Ajv2020?: Ajv2020Class };
  };
  const found = m.Ajv2020 ?? m.default?.Ajv2020 ?? m.default;
  if (typeof found !== 'function') throw new Error('ajv did not load');
  return found;
}

function describeErrors(validate: ValidateFunction): (value: unknown) => string[] {
  return (value) => (validate(value) ? [] : (validate.errors ?? []).map(errorLine));
}

/** `/labels/0 must be equal to one of the allowed values (bug, feature)`: where, then what. */
function errorLine(e: ErrorObject): string {
  const where = e.instancePath === '' ? 'the answer' : e.instancePath;
  const allowed =
    e.keyword === 'enum' ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')})` : '';
  return `${where} ${e.message ?? 'is invalid'}${allowed}`;
}
