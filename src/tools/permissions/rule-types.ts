import type { CommandLine, SimpleCommand } from './bash-types.js';

/**
 * Permission rules in Claude Code's syntax: `Tool` or `Tool(specifier)`, in lists separated by
 * commas or newlines. Allow rules come from `allowed-tools` and `permissions.allow`; deny rules
 * from `disallowed-tools`, `permissions.deny` and `permissions.ask` (nobody can be asked in CI,
 * so asking is refusing). Every rule keeps the source it came from, so errors and refusals can
 * say where to fix it.
 */
export interface Rule {
  readonly tool: string;
  readonly specifier?: string;
  /** The rule as written (trimmed). */
  readonly text: string;
  /** Where it came from, e.g. 'allowed-tools' or '.claude/settings.json permissions.deny'. */
  readonly source: string;
  /** Set when the rule names a tool this product does not have (`WebSearch`): kept, it allows and denies nothing. */
  readonly unknownTool?: true;
}

/** One list of rules and its source: a string to split, or an array of one rule per entry. */
export interface RuleList {
  readonly source: string;
  readonly rules: string | readonly string[] | undefined;
}

export interface RuleLists {
  readonly allow?: readonly RuleList[];
  readonly deny?: readonly RuleList[];
}

/** Checks Bash commands against Bash rules with specifiers; needs the shell parser. */
export interface BashChecker {
  split(command: string): CommandLine;
  matches(rule: Rule, command: SimpleCommand, mode: 'allow' | 'deny'): boolean;
  /** A read-only command that needs no allow rule, and where the next one runs (see bash-approve.ts); undefined otherwise. */
  readOnly(command: SimpleCommand, cwd: string, root: string): { cwd: string } | undefined;
}

export interface Rules {
  readonly allow: readonly Rule[];
  readonly deny: readonly Rule[];
  /** Present when some Bash rule has a specifier: the parser is loaded only then. */
  readonly bash?: BashChecker;
  /** Present when a Read or Edit deny rule has a path: what Bash commands name is checked without a sandbox. */
  readonly bashPaths?: BashPathCheck;
}

export interface PathHit {
  readonly rule: Rule;
  /** The word that named the path, as written. */
  readonly word: string;
}

export type BashPathCheck = (command: string, root: string) => PathHit | { unparsable: string } | undefined;
