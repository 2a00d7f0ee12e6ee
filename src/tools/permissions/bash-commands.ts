import { approvalWords } from './bash-approve.js';
import type { CommandWord, SimpleCommand } from './bash-types.js';

/**
 * What a simple command really runs, as far as words can tell: the commands that run a string
 * as code (refused whenever Bash has rules with specifiers, like `$(...)`), and the wrappers
 * that run their arguments as a command (seen through for deny rules, so `sudo rm` is `rm`).
 */

/** Builtins that run a string (or a file) as shell code, hiding its commands from the rules. */
const RUNS_CODE = new Set(['eval', 'source', '.', 'trap', 'let', 'fc']);

/** Shells: `sh -c '...'` and a shell reading standard input (`... | sh`) are eval in disguise. */
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'yash']);

/** Builtins that evaluate array subscripts in their arguments, running `$(...)` found there. */
const EVALUATES_SUBSCRIPTS = new Set([
  'declare',
  'typeset',
  'local',
  'export',
  'readonly',
  'unset',
  'printf',
  'read',
  'mapfile',
  'readarray',
  'test',
  '[',
]);

/** Commands that run the rest of their arguments as a command. */
const WRAPPERS = new Set([
  'command',
  'builtin',
  'exec',
  'nohup',
  'time',
  'env',
  'sudo',
  'doas',
  'nice',
  'ionice',
  'xargs',
  'timeout',
  'setsid',
  'stdbuf',
  'busybox',
]);

function basename(value: string): string {
  const slash = value.lastIndexOf('/');
  return slash === -1 ? value : value.slice(slash + 1);
}

/** The words from the command name on: leading `NAME=value` assignments dropped. */
function fromName(words: readonly CommandWord[]): readonly CommandWord[] {
  const at = words.findIndex((w) => !w.assignment);
  return at === -1 ? [] : words.slice(at);
}

/** The command as written, and each command a wrapper in front of it may run. */
function runnable(words: readonly CommandWord[]): (readonly CommandWord[])[] {
  const named = fromName(words);
  const first = named[0]?.value;
  if (first === undefined || !WRAPPERS.has(basename(first))) return [named];
  // Which words are the wrapper's options (`sudo -u root`) is not known, so every tail is a
  // candidate: broader than the truth, which only ever makes a refusal more likely.
  return [named, ...named.slice(1).map((_, i) => named.slice(i + 1))];
}

function shellRunsString(args: readonly CommandWord[]): boolean {
  const operands = args.filter((w) => w.value === undefined || !w.value.startsWith('-'));
  const commandOption = args.some((w) => w.value !== undefined && /^-[A-Za-z]*c[A-Za-z]*$/.test(w.value));
  return commandOption || operands.length === 0 || args.some((w) => w.value === '-' || w.value === '-s');
}

/**
 * Why the command hides what it runs, or undefined. Its name must be a literal word: `$CMD`
 * could be anything, `eval` included.
 */
export function hiddenCommandReason(words: readonly CommandWord[]): string | undefined {
  const named = fromName(words);
  if (named.length === 0) return undefined; // only assignments: matched against the rules as words
  if (named[0]?.value === undefined) return `its command name ${named[0]?.raw ?? ''} is not a literal word`;
  for (const candidate of runnable(words)) {
    const name = candidate[0]?.value;
    if (name === undefined) continue;
    const base = basename(name);
    if (RUNS_CODE.has(base)) return `it runs \`${base}\`, which runs a string as commands the rules cannot see`;
    if (SHELLS.has(base) && shellRunsString(candidate.slice(1))) {
      return `it runs the shell \`${base}\` on a command string or standard input, which the rules cannot see`;
    }
    const args = candidate.slice(1);
    if (EVALUATES_SUBSCRIPTS.has(base) && args.some((w) => /\[.*(\$|`)/s.test(w.value ?? w.raw))) {
      return `it passes \`${base}\` an array subscript with an expansion, which bash evaluates`;
    }
  }
  return undefined;
}

/**
 * The word lists a deny rule is tried against: as written, with quotes removed, without leading
 * assignments, with `/usr/bin/rm` as `rm`, and whatever a wrapper runs. Deny rules on Bash stay
 * best-effort (`find -exec rm`, `python -c` get past them); the allow rules are the boundary.
 */
export function denyWordLists(command: SimpleCommand): string[][] {
  const lists: string[][] = [command.words.map((w) => w.raw), command.words.map((w) => w.value ?? w.raw)];
  for (const candidate of runnable(command.words)) {
    const values = candidate.map((w) => w.value ?? w.raw);
    lists.push(
      candidate.map((w) => w.raw),
      values,
    );
    const first = values[0];
    if (first !== undefined && first.includes('/')) lists.push([basename(first), ...values.slice(1)]);
  }
  return lists;
}

/**
 * The word lists an allow rule may match: exactly as written, assignments included, and with
 * safe variables and wrappers set aside (see bash-approve.ts). None when a word takes a
 * variable's value: `npm test $ARGS` runs with arguments no rule can see.
 */
export function allowWordLists(command: SimpleCommand): string[][] {
  if (command.expands !== undefined) return [];
  const stripped = approvalWords(command.words);
  return [command.words.map((w) => w.raw), ...(stripped ? [stripped.map((w) => w.raw)] : [])];
}
