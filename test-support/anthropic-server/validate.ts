/**
 * Strict validation of a Messages request: headers, top-level fields, tools and system prompt, with
 * the real API's statuses and error texts.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { invalid, isRecord, Rejection } from './common.js';
import { checkCacheControl, checkMessages, checkText, type ValidationContext } from './validate-messages.js';

const MAX_CACHE_CONTROL = 4;
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const API_VERSIONS = ['2023-01-01', '2023-06-01', '2026-10-21'];
// API version 2026-10-21 removed the sampling parameters: sending any of them is a 400.
const REMOVED_IN_2026_10_21 = ['temperature', 'top_p', 'top_k'];

/** Checks the key and the API version; answers the version the body is then validated against. */
export function checkHeaders(headers: IncomingHttpHeaders, requireApiKey: string | undefined): string {
  // SDKs since 1.0 (API version 2026-10-21) send the key as a bearer token; older clients and curl use x-api-key.
  const bearer = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];
  const headerKey = headers['x-api-key'];
  const apiKey = typeof headerKey === 'string' && headerKey !== '' ? headerKey : bearer;
  if (apiKey === undefined) throw new Rejection(401, 'authentication_error', 'x-api-key header is required');
  if (requireApiKey !== undefined && apiKey !== requireApiKey) {
    throw new Rejection(401, 'authentication_error', 'invalid x-api-key');
  }
  const version = headers['anthropic-version'];
  if (typeof version !== 'string' || version === '') invalid('anthropic-version: header is required');
  if (!API_VERSIONS.includes(version)) invalid(`anthropic-version: "${version}" is not a valid version`);
  return version;
}

function checkSystem(system: unknown, ctx: ValidationContext): void {
  if (system === undefined || typeof system === 'string') return;
  if (!Array.isArray(system)) invalid('system: Input should be a valid string or a list of text blocks');
  system.forEach((block, i) => {
    const path = `system.${i}`;
    if (!isRecord(block) || block.type !== 'text') invalid(`${path}.type: Input should be 'text'`);
    checkText(block, path);
    checkCacheControl(block, path, ctx);
  });
}

function checkTools(tools: unknown, ctx: ValidationContext): Set<string> {
  const names = new Set<string>();
  if (tools === undefined) return names;
  if (!Array.isArray(tools)) invalid('tools: Input should be a valid list');
  tools.forEach((tool, i) => {
    const path = `tools.${i}`;
    if (!isRecord(tool)) invalid(`${path}: Input should be a valid dictionary`);
    if (typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name)) {
      invalid(`${path}.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`);
    }
    if (names.has(tool.name)) invalid('tools: Tool names must be unique.');
    names.add(tool.name);
    // Server and client-defined tools (`bash_20250124`, `web_search_…`) carry no schema.
    const custom = tool.type === undefined || tool.type === null || tool.type === 'custom';
    if (custom) {
      if (!isRecord(tool.input_schema)) invalid(`${path}.input_schema: Field required`);
      if (tool.input_schema.type !== 'object') invalid(`${path}.input_schema.type: Input should be 'object'`);
    } else if (typeof tool.type !== 'string') {
      invalid(`${path}.type: Input should be a valid string`);
    }
    checkCacheControl(tool, path, ctx);
  });
  return names;
}

function checkToolChoice(choice: unknown, toolNames: ReadonlySet<string>, hasTools: boolean): void {
  if (choice === undefined) return;
  if (!isRecord(choice) || !['auto', 'any', 'tool', 'none'].includes(String(choice.type))) {
    invalid("tool_choice.type: Input should be 'auto', 'any', 'tool' or 'none'");
  }
  if (!hasTools && choice.type !== 'none' && choice.type !== 'auto') {
    invalid('tool_choice: tool_choice may only be specified while providing tools');
  }
  if (choice.type === 'tool' && (typeof choice.name !== 'string' || !toolNames.has(choice.name))) {
    invalid(`tool_choice.name: Tool '${String(choice.name)}' not found in provided tools`);
  }
}

function checkThinkingConfig(thinking: unknown, maxTokens: number): void {
  if (thinking === undefined) return;
  if (!isRecord(thinking) || !['enabled', 'disabled', 'adaptive'].includes(String(thinking.type))) {
    invalid("thinking.type: Input should be 'enabled', 'disabled' or 'adaptive'");
  }
  if (thinking.type !== 'enabled') return;
  const budget = thinking.budget_tokens;
  if (typeof budget !== 'number' || !Number.isInteger(budget) || budget < 1024) {
    invalid('thinking.enabled.budget_tokens: Input should be greater than or equal to 1024');
  }
  if (budget >= maxTokens) invalid('`max_tokens` must be greater than `thinking.budget_tokens`');
}

export function validateBody(
  raw: unknown,
  version: string,
  signatures: ValidationContext['signatures'],
  searchResults?: ValidationContext['searchResults'],
): void {
  if (!isRecord(raw)) invalid('body: Input should be a valid dictionary');
  if (typeof raw.model !== 'string' || raw.model === '') invalid('model: Field required');
  const maxTokens = raw.max_tokens;
  if (maxTokens === undefined) invalid('max_tokens: Field required');
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens)) invalid('max_tokens: Input should be a valid integer');
  if (maxTokens < 1) invalid('max_tokens: Input should be greater than or equal to 1');
  if (raw.stream !== true) invalid('stream: this fake only serves streaming requests; send stream: true');
  if (version === '2026-10-21') {
    for (const name of REMOVED_IN_2026_10_21) {
      if (raw[name] !== undefined) invalid(`${name}: Extra inputs are not permitted (removed in API version 2026-10-21)`);
    }
  } else if (raw.temperature !== undefined && (typeof raw.temperature !== 'number' || raw.temperature < 0 || raw.temperature > 1)) {
    invalid('temperature: Input should be a number between 0 and 1');
  }

  const ctx: ValidationContext = { version, cacheControls: 0, signatures, ...(searchResults ? { searchResults } : {}) };
  const toolNames = checkTools(raw.tools, ctx);
  checkToolChoice(raw.tool_choice, toolNames, toolNames.size > 0);
  checkThinkingConfig(raw.thinking, maxTokens);
  checkSystem(raw.system, ctx);
  checkMessages(raw.messages, ctx);
  if (ctx.cacheControls > MAX_CACHE_CONTROL) {
    invalid(`A maximum of ${MAX_CACHE_CONTROL} blocks with cache_control may be provided. Found ${ctx.cacheControls}.`);
  }
}
