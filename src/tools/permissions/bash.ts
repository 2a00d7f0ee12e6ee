import { parse } from 'unbash';
import type {
  AndOr,
  Assignment,
  Command,
  CommandNode,
  CompoundList,
  ParameterExpansionPart,
  PipelineNode,
  Redirection,
  Statement,
  Word,
  WordPart,
} from 'unbash';
import { hiddenCommandReason } from './bash-commands.js';
import type { CommandLine, CommandWord, SimpleCommand } from './bash-types.js';

/**
 * Splits a Bash command line into the simple commands it runs, so that each one can be checked
 * against the rules on its own, or says why it will not: anything that can run a command the
 * rules cannot see (substitutions, eval, functions, arithmetic...) or write a file by
 * redirection is refused, and so is anything the parser cannot read. Only loaded when Bash has
 * rules with specifiers; a bare `Bash` rule needs none of this.
 */

/** One word of a simple command, as the shell source spells it. */
export type { CommandLine, CommandWord, SimpleCommand } from './bash-types.js';

type Reason = string | undefined;

/** The simple commands found so far, and the first reason no allow rule can approve the line. */
interface Found {
  readonly commands: SimpleCommand[];
  unapprovable?: string;
}

function unapprovable(out: Found, reason: string): void {
  out.unapprovable ??= reason;
}

function quote(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return `\`${flat.length > 80 ? `${flat.slice(0, 77)}...` : flat}\``;
}

function vetParameter(part: ParameterExpansionPart): Reason {
  // `${!x}` and `${a[i]}` evaluate x's value or i as an arithmetic expression, and bash runs
  // command substitutions found in array subscripts there: `x='a[$(id)]'` is enough.
  if (part.prefix === '!') return `it uses indirect expansion ${quote(part.text)}`;
  if (part.index) return `it uses an array subscript ${quote(part.text)}, which bash evaluates`;
  const op = part.operation;
  if (!op) return undefined;
  switch (op.type) {
    case 'Default':
      if (op.operator === '=' || op.operator === ':=') return `it assigns a variable in ${quote(part.text)}`;
      return vetWord(op.operand);
    case 'Remove':
      return vetWord(op.operand);
    case 'Replace':
      return vetWord(op.pattern) ?? vetWord(op.replacement);
    case 'CaseModification':
      return op.operand ? vetWord(op.operand) : undefined;
    default:
      // Slices are arithmetic (see above); `@P` runs prompt expansion, which can run commands.
      return `it uses the expansion ${quote(part.text)}, which can evaluate code`;
  }
}

function vetParts(parts: readonly WordPart[] | undefined): Reason {
  for (const part of parts ?? []) {
    const reason = vetPart(part);
    if (reason) return reason;
  }
  return undefined;
}

function vetPart(part: WordPart): Reason {
  switch (part.type) {
    case 'Literal':
    case 'SingleQuoted':
    case 'AnsiCQuoted':
    case 'SimpleExpansion':
      return undefined;
    case 'Glob':
      return part.kind === 'bracket' ? vetParts(part.parts) : undefined;
    case 'DoubleQuoted':
    case 'LocaleString':
    case 'ExtendedGlob':
    case 'BraceExpansion':
      return vetParts(part.parts);
    case 'ParameterExpansion':
      return vetParameter(part);
    case 'CommandExpansion':
      return `it uses command substitution ${quote(part.text)}`;
    case 'ProcessSubstitution':
      return `it uses process substitution ${quote(part.text)}`;
    case 'ArithmeticExpansion':
      return `it uses arithmetic expansion ${quote(part.text)}, which can run commands through array subscripts`;
  }
}

function vetWord(word: Word | undefined): Reason {
  return word ? vetParts(word.parts) : undefined;
}

/** The word's value when quote removal alone gives it: no expansion, glob or leading tilde. */
function staticValue(word: Word): string | undefined {
  const parts = word.parts ?? [];
  const literal = parts.every(
    (p) =>
      p.type === 'Literal' ||
      p.type === 'SingleQuoted' ||
      p.type === 'AnsiCQuoted' ||
      (p.type === 'DoubleQuoted' && p.parts.every((c) => c.type === 'Literal')),
  );
  const first = parts[0];
  const tilde = (first === undefined || first.type === 'Literal') && word.text.startsWith('~');
  return literal && !tilde ? word.value : undefined;
}

function vetAssignment(a: Assignment): Reason {
  if (a.index) return `it assigns an array element ${quote(a.text)}, whose subscript bash evaluates`;
  if (a.value.type === 'ArrayValue') {
    for (const element of a.value.elements) {
      const reason = vetWord(element);
      if (reason) return reason;
    }
    return undefined;
  }
  return vetWord(a.value);
}

const FD_TARGET = /^(\d+-?|-)$/;

function vetRedirect(r: Redirection, out: Found): Reason {
  if (r.descriptor?.type === 'FileDescriptorVariable') return 'it assigns a file descriptor to a variable';
  if (r.type === 'HereDoc') {
    unapprovable(out, 'it has a here-document');
    return r.delimiter?.quoted ? undefined : vetParts(r.body.parts);
  }
  if (r.type === 'HereString') return vetWord(r.target);
  const target = r.target;
  if (!target) return 'it has a redirection without a target';
  const reason = vetWord(target);
  if (reason) return reason;
  const value = staticValue(target);
  if (r.operator === '<') return undefined;
  if ((r.operator === '>&' || r.operator === '<&') && value !== undefined && FD_TARGET.test(value)) return undefined;
  if (r.operator !== '<&' && value === '/dev/null') return undefined;
  // A write the allow rules cannot approve: only /dev/null and descriptors pass. The Edit deny
  // rules see it through the sandbox, or without one through bash-paths.ts.
  unapprovable(out, `it writes to ${quote(target.text)} by redirection`);
  return undefined;
}

/**
 * Whether a word takes a variable's value (`$X`, `${X:-default}`), which an allow rule cannot see:
 * `npm test $ARGS` runs with arguments no rule names. (Claude Code 2.1.197 approves a plain `$X`;
 * this stays stricter, as the contract says.)
 */
function expands(parts: readonly WordPart[] | undefined): boolean {
  return (parts ?? []).some(
    (p) =>
      p.type === 'SimpleExpansion' ||
      p.type === 'ParameterExpansion' ||
      ((p.type === 'DoubleQuoted' || p.type === 'LocaleString' || p.type === 'BraceExpansion') && expands(p.parts)),
  );
}

function commandWords(cmd: Command, out: Found): { words: CommandWord[]; reason: Reason; expanding?: string } {
  const items = [...cmd.prefix, ...(cmd.name ? [cmd.name] : []), ...cmd.suffix].sort((a, b) => a.pos - b.pos);
  const words: CommandWord[] = [];
  let expanding: string | undefined;
  for (const item of items) {
    if (item.type === 'Word') {
      const reason = vetWord(item);
      if (reason) return { words, reason };
      if (expanding === undefined && expands(item.parts)) expanding = item.text;
      words.push({ raw: item.text, value: staticValue(item), assignment: false });
    } else if (item.type === 'Assignment') {
      const reason = vetAssignment(item);
      if (reason) return { words, reason };
      if (expanding === undefined && item.value.type === 'Word' && expands(item.value.parts)) expanding = item.text;
      const value = item.value.type === 'Word' ? staticValue(item.value) : undefined;
      const name = `${item.name}${item.append ? '+=' : '='}`;
      words.push({ raw: item.text, value: value === undefined ? undefined : name + value, assignment: true });
    } else {
      const reason = vetRedirect(item, out);
      if (reason) return { words, reason };
    }
  }
  return { words, reason: undefined, ...(expanding !== undefined ? { expanding } : {}) };
}

function visitCommand(cmd: Command, source: string, out: Found): Reason {
  const { words, reason, expanding } = commandWords(cmd, out);
  if (reason) return reason;
  if (words.length === 0) return undefined; // only redirections, all vetted: nothing runs
  const text = source.slice(cmd.pos, cmd.end);
  const hidden = hiddenCommandReason(words);
  if (hidden) return `${hidden} (in ${quote(text)})`;
  out.commands.push({ text, words, ...(expanding !== undefined ? { expands: expanding } : {}) });
  return undefined;
}

function visitList(list: CompoundList | undefined, source: string, out: Found): Reason {
  return list ? visitStatements(list.commands, source, out) : undefined;
}

function visitNode(node: PipelineNode | AndOr | CommandNode, source: string, out: Found): Reason {
  switch (node.type) {
    case 'Command':
      return visitCommand(node, source, out);
    case 'AndOr':
    case 'Pipeline':
      for (const command of node.commands) {
        const reason = visitNode(command, source, out);
        if (reason) return reason;
      }
      return undefined;
    case 'Subshell':
    case 'BraceGroup':
      unapprovable(out, `it runs commands in a ${node.type === 'Subshell' ? 'subshell' : 'command group'}`);
      return visitList(node.body, source, out);
    case 'If':
      return (
        visitList(node.clause, source, out) ??
        visitList(node.then, source, out) ??
        node.elif.reduce<Reason>((r, e) => r ?? visitList(e.clause, source, out) ?? visitList(e.then, source, out), undefined) ??
        visitList(node.else, source, out)
      );
    case 'While':
      return visitList(node.clause, source, out) ?? visitList(node.body, source, out);
    case 'Case':
      return (
        vetWord(node.word) ??
        node.items.reduce<Reason>(
          (r, item) => r ?? item.pattern.reduce<Reason>((p, w) => p ?? vetWord(w), undefined) ?? visitList(item.body, source, out),
          undefined,
        )
      );
    case 'Redirected':
      return node.redirects.reduce<Reason>((r, d) => r ?? vetRedirect(d, out), undefined) ?? visitNode(node.command, source, out);
    case 'Function':
      return 'it defines a function, whose calls the rules cannot follow';
    case 'For':
    case 'Select':
    case 'ArithmeticFor':
      // The loop variable is an assignment (`for PATH in /tmp/evil`), and C-style loops are arithmetic.
      return `it has a ${node.type === 'Select' ? 'select' : 'for'} loop, which assigns a variable`;
    case 'TestCommand':
    case 'ArithmeticCommand':
      return `it uses ${node.type === 'TestCommand' ? '[[ ... ]]' : '(( ... ))'}, which evaluates arithmetic`;
    case 'Coproc':
      return 'it starts a coprocess';
  }
}

function visitStatements(list: readonly Statement[], source: string, out: Found): Reason {
  for (const statement of list) {
    if (statement.background)
      unapprovable(out, `it runs ${quote(source.slice(statement.command.pos, statement.command.end))} in the background`);
    const reason = visitNode(statement.command, source, out);
    if (reason) return reason;
  }
  return undefined;
}

/** The simple commands of a command line, or why it cannot be checked command by command. */
export function splitCommandLine(source: string): CommandLine {
  if (source.includes('\0')) return { ok: false, reason: 'the command contains a NUL byte' };
  const script = parse(source);
  const error = script.errors?.[0];
  if (error) return { ok: false, reason: `the command cannot be parsed (${error.message} at offset ${error.pos})` };
  const found: Found = { commands: [] };
  const reason = visitStatements(script.commands, source, found);
  if (reason) return { ok: false, reason: `the command cannot be checked: ${reason}` };
  const { commands } = found;
  if (commands.length === 0) return { ok: false, reason: 'the command runs nothing a rule could match' };
  return { ok: true, commands, ...(found.unapprovable !== undefined ? { unapprovable: found.unapprovable } : {}) };
}
