/**
 * Request bodies checked against GitHub's official OpenAPI description (`@octokit/openapi`, the
 * api.github.com document), so a client that sends what the real API would refuse or misread is
 * caught by the simulator rather than in production. The spec (13 MB) and ajv are loaded once, on
 * the first request that carries a body, and each operation's validator is compiled on first use.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonRecord = { [key: string]: Json };

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  /** Literal segments of the template: the most specific of several matching templates wins. */
  literals: number;
  schema: Json;
  required: boolean;
  validate?: ValidateFunction;
}

interface Checker {
  operations: Operation[];
  compile: (schema: Json) => ValidateFunction;
}

let loading: Promise<Checker> | null = null;

const isRecord = (v: Json | undefined): v is JsonRecord => typeof v === 'object' && v !== null && !Array.isArray(v);

function pointer(root: JsonRecord, ref: string): Json | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let node: Json | undefined = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = isRecord(node) ? node[key] : undefined;
  }
  return node;
}

/**
 * The schema with every local `$ref` replaced by its target. Request schemas are small, so inlining
 * them is cheaper than teaching ajv the whole document; a reference cycle is cut to `{}` (anything).
 */
function inline(root: JsonRecord, node: Json, seen: ReadonlySet<string> = new Set()): Json {
  if (Array.isArray(node)) return node.map((item) => inline(root, item, seen));
  if (!isRecord(node)) return node;
  const ref = node.$ref;
  if (typeof ref === 'string') {
    const target = pointer(root, ref);
    return target === undefined || seen.has(ref) ? {} : inline(root, target, new Set([...seen, ref]));
  }
  const out: JsonRecord = {};
  for (const [key, value] of Object.entries(node)) out[key] = inline(root, value, seen);
  return out;
}

function templatePattern(template: string): RegExp {
  const escaped = template.replace(/[.*+?^${}()|[\]\\]/g, (c) => (c === '{' || c === '}' ? c : `\\${c}`));
  return new RegExp(`^${escaped.replace(/\{[^/}]+\}/g, '[^/]+')}$`);
}

function operationsOf(spec: JsonRecord): Operation[] {
  const operations: Operation[] = [];
  const paths = isRecord(spec.paths) ? spec.paths : {};
  for (const [template, item] of Object.entries(paths)) {
    if (!isRecord(item)) continue;
    for (const [method, op] of Object.entries(item)) {
      const body = isRecord(op) ? inline(spec, op.requestBody ?? null) : null;
      if (!isRecord(body) || !isRecord(body.content)) continue;
      const media = body.content['application/json'];
      if (!isRecord(media) || media.schema === undefined) continue;
      const literals = template.split('/').filter((seg) => seg !== '' && !seg.startsWith('{')).length;
      const required = body.required === true;
      operations.push({
        method: method.toUpperCase(),
        template,
        pattern: templatePattern(template),
        literals,
        schema: media.schema,
        required,
      });
    }
  }
  return operations;
}

async function load(): Promise<Checker> {
  const require = createRequire(import.meta.url);
  const file = require.resolve('@octokit/openapi/generated/api.github.com.json');
  // Imported here rather than at the top so that the simulator itself still loads with node built-ins only.
  const [{ Ajv }, text] = await Promise.all([import('ajv'), readFile(file, 'utf8')]);
  const spec = JSON.parse(text) as Json;
  if (!isRecord(spec)) throw new Error(`${file} is not an OpenAPI document`);
  // OpenAPI 3.0 schemas carry keywords JSON Schema does not know (example, x-github, discriminator) and
  // formats ajv has no checker for without ajv-formats; strict mode would refuse them all.
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  return { operations: operationsOf(spec), compile: (schema) => ajv.compile(schema as JsonRecord) };
}

function describe(e: ErrorObject): string {
  const where = e.instancePath === '' ? '(body)' : e.instancePath;
  const allowed = e.keyword === 'enum' && isRecord(e.params as Json) ? ` (${JSON.stringify(e.params)})` : '';
  return `${where} ${e.message ?? e.keyword}${allowed}`;
}

/** What is wrong with a request body for its operation, one line each; `[]` when fine or when no operation with a body matches. */
export async function requestSchemaErrors(method: string, path: string, body: unknown): Promise<string[]> {
  loading ??= load();
  const checker = await loading;
  const matching = checker.operations.filter((op) => op.method === method && op.pattern.test(path));
  const match = matching.sort((a, b) => b.literals - a.literals)[0];
  if (!match) return [];
  const label = `${method} ${match.template}`;
  if (body === undefined) return match.required ? [`${label}: a request body is required`] : [];
  match.validate ??= checker.compile(match.schema);
  if (match.validate(body)) return [];
  return (match.validate.errors ?? []).map((e) => `${label}: ${describe(e)}`);
}
