import os from 'node:os';
import path from 'node:path';
import type { ToolCall } from '../../core/tools.js';
import { compilePathPattern, locate, matchesPath, type PathCandidate, type PathPattern } from './paths.js';
import { governs, ruleTargetOf } from '../catalog.js';
import { describeRule, isPathTool, mcpParts, type Rule, type Rules } from './rules.js';

/**
 * Whether a tool is offered and whether a call may run. Deny rules are tried first, then allow
 * rules; a call runs only when an allow rule matches it and no deny rule does. Whatever cannot
 * be evaluated (a missing path, an unresolvable symlink, an unknown key argument) matches every
 * deny rule and no allow rule.
 */
export type Decision = { allowed: true } | { allowed: false; reason: string };

export interface DecideOptions {
  /** Resolves symlinks, so a link inside `src/` cannot reach `.github/`; lexical only without it. */
  readonly realPath?: (absolute: string) => string | undefined;
  /** For `~/` patterns; os.homedir() by default. */
  readonly home?: string;
  /** Bash runs without a sandbox that enforces the path deny rules: its commands' words are checked. */
  readonly bashUnconfined?: boolean;
}

const ALLOWED: Decision = { allowed: true };
const compiled = new WeakMap<Rule, { home: string; mode: 'allow' | 'deny'; pattern: PathPattern }>();

function refuse(reason: string): Decision {
  return { allowed: false, reason };
}

function code(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return `\`${flat.length > 120 ? `${flat.slice(0, 117)}...` : flat}\``;
}

function listRules(rules: readonly Rule[]): string {
  const shown = rules.slice(0, 8).map(describeRule).join(', ');
  return rules.length > 8 ? `${shown} and ${rules.length - 8} more` : shown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function field(input: unknown, name: string): unknown {
  return isRecord(input) && Object.hasOwn(input, name) ? input[name] : undefined;
}

/** Whether a rule is about calls of this tool: by name, by MCP server, or as Edit covering Write. */
export function namesTool(rule: Rule, tool: string, mode: 'allow' | 'deny'): boolean {
  if (rule.tool === tool) return true;
  const mcp = mcpParts(rule.tool);
  if (mcp) return mcp.tool === '' && tool.startsWith(`mcp__${mcp.server}__`);
  return rule.specifier !== undefined && governs(rule.tool, tool, mode);
}

/** Whether the model is told about a tool: some allow rule names it and no bare deny rule does. */
export function offered(toolName: string, rules: Rules): boolean {
  return (
    rules.allow.some((r) => namesTool(r, toolName, 'allow')) &&
    !rules.deny.some((r) => r.specifier === undefined && namesTool(r, toolName, 'deny'))
  );
}

interface Target {
  /** What the call is about, for messages. */
  readonly subject: string;
  /** Path tools: where the path points (lexically, then resolved); undefined when unknown. */
  readonly candidates?: readonly PathCandidate[] | undefined;
  /** Other tools: the key argument's value, when it is a string. */
  readonly key?: string | undefined;
  /** WebFetch: the URL's host and port. */
  readonly host?: { name: string; port: number } | undefined;
}

function callPath(call: ToolCall): string | undefined {
  const target = ruleTargetOf(call.name);
  if (target?.kind !== 'path') return undefined;
  const value = field(call.input, target.field);
  if (target.absent !== undefined && (value === undefined || value === null || value === '')) return target.absent;
  return typeof value === 'string' && value !== '' && !value.includes('\0') ? value : undefined;
}

function pathTarget(call: ToolCall, root: string, options: DecideOptions): Target {
  const p = callPath(call);
  if (p === undefined) return { subject: 'a call without a usable path' };
  const lexical = locate(p, root);
  const outside = lexical.relative === undefined ? ' (outside the workspace)' : '';
  const subject = `${code(p)}${outside}`;
  if (!options.realPath) return { subject, candidates: [lexical] };
  const real = options.realPath(lexical.absolute);
  const realRoot = options.realPath(path.resolve(root));
  if (real === undefined || realRoot === undefined) return { subject: `${subject}, whose real path is unknown` };
  const resolved = locate(real, realRoot);
  const via = resolved.relative === lexical.relative ? '' : ` (it resolves to ${code(real)})`;
  return { subject: subject + via, candidates: [lexical, resolved] };
}

/** The host a URL field names, for `domain:` rules; undefined when it is no http(s) URL. */
function domainTarget(call: ToolCall, fieldName: string): Target {
  const value = field(call.input, fieldName);
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return { subject: `a ${call.name} call without an http(s) URL` };
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  return { subject: `the host ${code(url.host)}`, host: { name: url.hostname.replace(/^\[(.*)\]$/, '$1'), port } };
}

/** A `domain:` specifier or target as Claude Code compares them: lower case, no trailing dot. */
const normalDomain = (text: string): string => text.toLowerCase().replace(/(?<=[^*.])\.+(?=(:\d+)?$)/, '');

/** A domain pattern's text as a regular expression: `*` stands for part of one label. */
const domainPattern = (text: string): string =>
  text
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^.:]*');

/**
 * Claude Code's matching of `WebFetch(domain:...)` against a URL's host name (the port plays no
 * part): `domain:example.com` that host alone, `domain:*.example.com` its subdomains at any depth
 * (not example.com itself), `domain:*` every host, and a `*` inside a label part of that label.
 */
export function domainRuleMatches(specifier: string, host: { name: string; port: number }): boolean {
  if (!specifier.startsWith('domain:')) return false;
  const rule = normalDomain(specifier.slice('domain:'.length));
  const name = normalDomain(host.name.includes(':') ? `[${host.name}]` : host.name);
  if (!rule.includes('*')) return rule === name;
  if (rule === '*') return true;
  const source = rule.startsWith('*.') ? `^(?:[^.:]+\\.)+${domainPattern(rule.slice(2))}$` : `^${domainPattern(rule)}$`;
  return new RegExp(source, 'i').test(name);
}

function keyTarget(call: ToolCall): Target {
  const target = ruleTargetOf(call.name);
  if (target?.kind === 'domain') return domainTarget(call, target.field);
  const key = target?.kind === 'key' ? target.field : undefined;
  const value = key === undefined ? undefined : field(call.input, key);
  if (key === undefined || typeof value !== 'string') return { subject: `a ${call.name} call whose key argument is unknown` };
  return { subject: `${key} ${code(value)}`, key: value };
}

function pathPattern(rule: Rule, home: string, mode: 'allow' | 'deny'): PathPattern {
  const cached = compiled.get(rule);
  if (cached?.home === home && cached.mode === mode) return cached.pattern;
  const pattern = compilePathPattern(rule.specifier ?? '', home, mode);
  compiled.set(rule, { home, mode, pattern });
  return pattern;
}

function specifierMatches(rule: Rule, target: Target, mode: 'allow' | 'deny', home: string): boolean {
  if (isPathTool(rule.tool)) {
    const candidates = target.candidates;
    if (!candidates) return mode === 'deny';
    const pattern = pathPattern(rule, home, mode);
    // Allow needs every spelling of the path inside and matched; deny needs any one matched.
    if (mode === 'deny') return candidates.some((c) => matchesPath(pattern, c));
    return candidates.every((c) => c.relative !== undefined && matchesPath(pattern, c));
  }
  if (ruleTargetOf(rule.tool)?.kind === 'domain') {
    return target.host === undefined ? mode === 'deny' : domainRuleMatches(rule.specifier ?? '', target.host);
  }
  if (target.key === undefined) return mode === 'deny';
  return target.key === rule.specifier;
}

function decideBash(call: ToolCall, allows: readonly Rule[], denies: readonly Rule[], rules: Rules, root: string): Decision {
  const specific = [...allows, ...denies].filter((r) => r.specifier !== undefined);
  if (specific.length === 0) return ALLOWED; // only bare allow rules, no deny rule for Bash
  const command = field(call.input, 'command');
  if (typeof command !== 'string') return refuse('the Bash call has no command to check');
  const bash = rules.bash;
  if (!bash) return refuse(`the Bash rules ${listRules(specific)} need the shell parser, which was not loaded`);
  const line = bash.split(command);
  if (!line.ok) return refuse(`${line.reason}. That is refused while Bash has rules with specifiers: ${listRules(specific)}`);
  for (const simple of line.commands) {
    const deny = denies.find((rule) => bash.matches(rule, simple, 'deny'));
    if (deny) return refuse(`the deny rule ${describeRule(deny)} matches ${code(simple.text)}`);
  }
  if (allows.some((r) => r.specifier === undefined)) return ALLOWED;
  // Read-only commands (`tail`, `echo`, `cd` inside the workspace...) need no rule of their own.
  const top = path.resolve(root);
  let cwd = top;
  for (const simple of line.commands) {
    const readOnly = bash.readOnly(simple, cwd, top);
    if (readOnly) {
      cwd = readOnly.cwd;
      continue;
    }
    if (allows.some((rule) => bash.matches(rule, simple, 'allow'))) continue;
    if (simple.expands !== undefined) {
      return refuse(`no allow rule can approve ${code(simple.text)}: ${code(simple.expands)} takes a variable's value`);
    }
    const each = line.commands.length > 1 ? ' (each command of a list or pipeline needs an allow rule, or must be read-only)' : '';
    return refuse(`no allow rule matches the command ${code(simple.text)}${each}; Bash is allowed only by ${listRules(allows)}`);
  }
  if (line.unapprovable !== undefined) {
    return refuse(`no allow rule can approve ${code(command)}: ${line.unapprovable}; Bash is allowed only by ${listRules(allows)}`);
  }
  return ALLOWED;
}

/** Without a sandbox: refused when the command names a path a Read or Edit deny rule covers. */
function decideBashPaths(call: ToolCall, rules: Rules, root: string): Decision {
  const command = field(call.input, 'command');
  if (!rules.bashPaths || typeof command !== 'string') return ALLOWED;
  const found = rules.bashPaths(command, root);
  if (!found) return ALLOWED;
  if ('unparsable' in found)
    return refuse(`the command cannot be parsed (${found.unparsable}), so it cannot be checked for paths the deny rules cover`);
  return refuse(
    `the deny rule ${describeRule(found.rule)} matches ${code(found.word)} in the command ${code(command)} ` +
      '(without the sandbox, a command that names a denied path is refused)',
  );
}

/** Whether one call may run, and if not, why (naming the rule that refused it). */
export function decide(call: ToolCall, rules: Rules, workspaceRoot: string, options: DecideOptions = {}): Decision {
  const tool = call.name;
  const denies = rules.deny.filter((r) => namesTool(r, tool, 'deny'));
  const bare = denies.find((r) => r.specifier === undefined);
  if (bare) return refuse(`the deny rule ${describeRule(bare)} refuses every ${tool} call`);
  const allows = rules.allow.filter((r) => namesTool(r, tool, 'allow'));
  if (allows.length === 0) return refuse(`no allow rule names the tool ${tool}`);
  if (tool === 'Bash') {
    const decision = decideBash(call, allows, denies, rules, workspaceRoot);
    return decision.allowed && options.bashUnconfined ? decideBashPaths(call, rules, workspaceRoot) : decision;
  }
  // No deny rule names the tool (a bare one refused above) and a bare allow rule does: whatever the
  // call names, it runs, so its path is not resolved (two realpath calls a call) for nothing.
  if (denies.length === 0 && allows.some((r) => r.specifier === undefined)) return ALLOWED;
  const home = options.home ?? os.homedir();
  const target = isPathTool(tool) ? pathTarget(call, workspaceRoot, options) : keyTarget(call);
  const deny = denies.find((rule) => specifierMatches(rule, target, 'deny', home));
  if (deny) return refuse(`the deny rule ${describeRule(deny)} matches ${target.subject}`);
  if (allows.some((r) => r.specifier === undefined)) return ALLOWED;
  if (allows.some((rule) => specifierMatches(rule, target, 'allow', home))) return ALLOWED;
  return refuse(`no allow rule matches ${target.subject}; ${tool} is allowed only by ${listRules(allows)}`);
}
