import os from 'node:os';
import type { BashChecker, Rule, RuleList, RuleLists, Rules } from './rule-types.js';
import { compilePathPattern } from './paths.js';
import { governs, RULE_TOOL_NAMES, ruleTargetOf } from '../catalog.js';

export type { BashChecker, Rule, RuleList, RuleLists, Rules } from './rule-types.js';

export class PermissionRuleError extends Error {
  constructor(
    readonly rule: string,
    readonly source: string,
    problem: string,
  ) {
    super(`Invalid permission rule ${JSON.stringify(rule)} in ${source}: ${problem}`);
    this.name = 'PermissionRuleError';
  }
}

const BUILTIN_TOOLS = new Set(RULE_TOOL_NAMES);

/** Whether a tool's rules name paths (Read, Write, Edit, Glob, Grep), per the catalog. */
export function isPathTool(tool: string): boolean {
  return ruleTargetOf(tool)?.kind === 'path';
}
const MCP_PART = /^[A-Za-z0-9_-]+$/;

/** `mcp__server`, `mcp__server__tool` or `mcp__server__*`: the server and the tool ('' for all). */
export function mcpParts(name: string): { server: string; tool: string } | undefined {
  if (!name.startsWith('mcp__')) return undefined;
  const [, server = '', ...rest] = name.split('__');
  const tool = rest.join('__');
  if (!MCP_PART.test(server) || (tool !== '' && tool !== '*' && !MCP_PART.test(tool))) return undefined;
  if (rest.length > 0 && tool === '') return undefined;
  return { server, tool: tool === '*' ? '' : tool };
}

function knownTool(name: string): boolean {
  return BUILTIN_TOOLS.has(name) || mcpParts(name) !== undefined;
}

/** Claude Code's other names for tools this product has: `Agent` is Task's current name. */
const ALIASES: ReadonlyMap<string, string> = new Map([['Agent', 'Task']]);

/** A tool name as Claude Code spells them: `WebSearch`, `NotebookEdit`, `mcp__x__y`. */
const TOOL_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

/**
 * Splits a list at commas and newlines outside parentheses, so `Bash(git diff a,b)` stays one
 * rule. Inside a Bash specifier, quotes and backslashes are honoured too (`Bash(echo ")")`).
 */
export function splitRuleList(text: string, source: string): string[] {
  const rules: string[] = [];
  let current = '';
  let depth = 0;
  let quote: string | undefined;
  let shell = false;
  const fail = (problem: string): never => {
    throw new PermissionRuleError(current.trim(), source, problem);
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (quote !== undefined) {
      // As in the shell: a backslash escapes inside double quotes only.
      const escaped = quote === '"' && c === '\\';
      current += escaped ? c + text.charAt(++i) : c;
      if (!escaped && c === quote) quote = undefined;
    } else if (depth > 0 && c === '\\') {
      current += c + text.charAt(i + 1);
      i++;
    } else if (depth > 0 && shell && (c === '"' || c === "'")) {
      current += c;
      quote = c;
    } else if (depth === 0 && (c === ',' || c === '\n' || c === '\r')) {
      if (current.trim() !== '') rules.push(current.trim());
      current = '';
    } else {
      if (c === '(' && depth === 0) shell = current.trim() === 'Bash';
      if (c === '(') depth++;
      if (c === ')') depth--;
      current += c;
      if (depth < 0) fail("')' without '('");
    }
  }
  if (quote !== undefined) fail(`unterminated ${quote} quote`);
  if (depth > 0) fail("'(' without ')'");
  if (current.trim() !== '') rules.push(current.trim());
  return rules;
}

function balanced(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length && depth >= 0; i++) {
    const c = text.charAt(i);
    if (c === '\\') i++;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
  }
  return depth === 0;
}

/** Parses one rule, or throws a PermissionRuleError naming it and its source. */
export function parseRule(input: string, source: string): Rule {
  const text = input.trim();
  const fail = (problem: string): never => {
    throw new PermissionRuleError(text, source, problem);
  };
  const open = text.indexOf('(');
  const written = open === -1 ? text : text.slice(0, open);
  const tool = ALIASES.get(written) ?? written;
  if (tool === '') fail('it names no tool');
  if (open !== -1 && !text.endsWith(')')) fail("'(' without a closing ')' at the end");
  if (!knownTool(tool)) {
    // A name only a letter's case away from a tool is a typo, and a deny rule that silently matched nothing would fail open.
    const near = [...BUILTIN_TOOLS].find((known) => known.toLowerCase() === tool.toLowerCase());
    if (near !== undefined || !TOOL_NAME.test(tool) || tool.startsWith('mcp__')) {
      const hint = near !== undefined ? ` (did you mean ${near}?)` : ` (known: ${[...BUILTIN_TOOLS].join(', ')}, mcp__<server>[__<tool>])`;
      fail(`unknown tool ${JSON.stringify(tool)}${hint}`);
    }
    // Claude Code's tools this product lacks (WebSearch, NotebookEdit...): kept, matching nothing, never fatal.
    const specifier = open === -1 ? undefined : text.slice(open + 1, -1).trim();
    return { tool, ...(specifier ? { specifier } : {}), text, source, unknownTool: true };
  }
  if (open === -1) return { tool, text, source };
  const specifier = text.slice(open + 1, -1).trim();
  if (specifier === '') fail(`the specifier is empty (write ${tool} alone to cover every call)`);
  if (!ruleTargetOf(tool)) fail(`${tool} takes no specifier`);
  if (ruleTargetOf(tool)?.kind === 'domain' && !/^domain:\S+$/.test(specifier))
    fail(`${tool} takes domain:<host> (domain:example.com, domain:*.example.com)`);
  // Bash specifiers are checked by the shell parser (compileRules); quotes may hold parentheses.
  if (tool !== 'Bash' && !balanced(specifier)) fail('unbalanced parentheses');
  if (isPathTool(tool)) {
    try {
      compilePathPattern(specifier, os.homedir());
    } catch (error) {
      fail(error instanceof Error ? error.message : String(error));
    }
  }
  return { tool, specifier, text, source };
}

/** The rules of one list: a string is split (see splitRuleList), an array holds one rule each. */
export function parseRuleList(list: string | readonly string[] | undefined, source: string): Rule[] {
  if (list === undefined) return [];
  const texts = typeof list === 'string' ? splitRuleList(list, source) : list.filter((t) => t.trim() !== '');
  return texts.map((text) => parseRule(text, source));
}

/** What bash-pattern.js exports; a type only, so naming it loads nothing. */
export type BashModule = typeof import('./bash-pattern.js');

function needsBash(rules: readonly Rule[]): boolean {
  return rules.some((r) => r.tool === 'Bash' && r.specifier !== undefined);
}

function bashChecker(rules: readonly Rule[], bash: BashModule): BashChecker {
  const patterns = new Map<Rule, ReturnType<BashModule['compileBashSpecifier']>>();
  for (const rule of rules) {
    if (rule.tool !== 'Bash' || rule.specifier === undefined) continue;
    try {
      patterns.set(rule, bash.compileBashSpecifier(rule.specifier));
    } catch (error) {
      throw new PermissionRuleError(rule.text, rule.source, error instanceof Error ? error.message : String(error));
    }
  }
  return {
    split: (command) => bash.splitCommandLine(command),
    matches(rule, command, mode) {
      const pattern = patterns.get(rule);
      if (!pattern) return mode === 'deny'; // not compiled here: refuse rather than guess
      const lists = mode === 'allow' ? bash.allowWordLists(command) : bash.denyWordLists(command);
      return lists.some((words) => bash.matchesBashPattern(pattern, words));
    },
    readOnly: (command, cwd, root) => bash.readOnlyCommand(command, cwd, root),
  };
}

/**
 * Parses and checks every list. `bash` is the shell-parser module, needed (and only then) when
 * a Bash rule has a specifier; loadRules brings it in by itself.
 */
export function compileRules(lists: RuleLists, bash?: BashModule): Rules {
  const allow = (lists.allow ?? []).flatMap((l) => parseRuleList(l.rules, l.source));
  const deny = (lists.deny ?? []).flatMap((l) => parseRuleList(l.rules, l.source));
  if (!needsBash([...allow, ...deny])) return { allow, deny };
  if (!bash) throw new Error('Bash rules with specifiers need the shell parser: build the rules with loadRules');
  return { allow, deny, bash: bashChecker([...allow, ...deny], bash) };
}

/** Whether a rule binds what a file holds or becomes (Read, Edit and what they govern in both modes): Bash must keep to it too. */
function bindsContents(rule: Rule): boolean {
  return rule.tool === 'Read' || rule.tool === 'Edit' || governs('Read', rule.tool, 'allow') || governs('Edit', rule.tool, 'allow');
}

function needsPathCheck(deny: readonly Rule[]): boolean {
  return deny.some((r) => r.specifier !== undefined && bindsContents(r));
}

/** compileRules, loading the shell parser only when a Bash rule or a Read/Edit deny rule needs it. */
export async function loadRules(lists: RuleLists): Promise<Rules> {
  const all = [...(lists.allow ?? []), ...(lists.deny ?? [])].flatMap((l) => parseRuleList(l.rules, l.source));
  const rules = compileRules(lists, needsBash(all) ? await import('./bash-pattern.js') : undefined);
  if (!needsPathCheck(rules.deny)) return rules;
  const check = (await import('./bash-paths.js')).bashPathCheck(rules);
  return check ? { ...rules, bashPaths: check } : rules;
}

/** `Bash(npm test:*) (allowed-tools)`: a rule and where it came from, for messages. */
export function describeRule(rule: Rule): string {
  const ask = /\bask\b/.test(rule.source) ? ', an ask rule: nobody can answer one in CI' : '';
  return `${rule.text} (${rule.source}${ask})`;
}

/** Whether a rule with a specifier limits calls of `tool`: its own, or those its path rules govern (Edit rules cover Write). */
function specifies(rule: Rule, tool: string): boolean {
  return rule.specifier !== undefined && (rule.tool === tool || governs(rule.tool, tool, 'allow'));
}

/**
 * The default allow rules less the bare ones for tools that `limits` name with specifiers: a
 * repository allowing `Bash(npm test:*)` and `Edit(src/**)` gets no bare `Bash`, `Edit` or
 * `Write` from the default. A rule of `limits` that does not parse limits nothing here; it fails
 * where the lists are compiled, naming its source.
 */
export function limitedBy(defaults: readonly string[], limits: readonly RuleList[]): string[] {
  const specific = limits.flatMap((l) => {
    try {
      return parseRuleList(l.rules, l.source).filter((r) => r.specifier !== undefined);
    } catch {
      return [];
    }
  });
  return defaults.filter((text) => {
    const rule = parseRule(text, 'the default');
    return rule.specifier !== undefined || !specific.some((r) => specifies(r, rule.tool));
  });
}
