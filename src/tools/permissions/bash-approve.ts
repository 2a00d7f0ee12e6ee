import path from 'node:path';
import type { CommandWord, SimpleCommand } from './bash-types.js';

/**
 * How an allow rule sees a simple command, as Claude Code does: leading assignments of variables
 * that only tune a toolchain's output (`NODE_ENV=test`, `CI=true`) and wrappers that run their
 * command unchanged (`timeout 60`, `nice -n 5`, `nohup`, `time`, `stdbuf -o0`) are set aside, so
 * `Bash(npm test:*)` approves `CI=true timeout 60 npm test`; and the read-only commands Claude
 * Code runs without a rule (`echo`, `head`, `tail`, `wc`, `cat`, `grep`, `ls`, `pwd`, `cd` inside
 * the workspace...) pass on their own. The lists are a subset of Claude Code's: whatever Claude
 * Code would refuse stays refused.
 */

/** Variables Claude Code lets stand before an approved command. */
export const SAFE_VARIABLES: ReadonlySet<string> = new Set([
  'GOEXPERIMENT',
  'GOOS',
  'GOARCH',
  'CGO_ENABLED',
  'GO111MODULE',
  'RUST_BACKTRACE',
  'RUST_LOG',
  'NODE_ENV',
  'PYTHONUNBUFFERED',
  'PYTHONDONTWRITEBYTECODE',
  'PYTEST_DISABLE_PLUGIN_AUTOLOAD',
  'PYTEST_DEBUG',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'LC_TIME',
  'CHARSET',
  'TERM',
  'COLORTERM',
  'NO_COLOR',
  'FORCE_COLOR',
  'TZ',
  'COLUMNS',
  'LINES',
  'CI',
  'DEBIAN_FRONTEND',
  'GIT_TERMINAL_PROMPT',
]);

const SAFE_VALUE = /^[A-Za-z0-9_./:-]+$/;
const DURATION = /^\d+(?:\.\d+)?[smhd]?$/;
const TIMEOUT_VALUE = /^[A-Za-z0-9_.+-]+$/;

const valueOf = (w: CommandWord | undefined): string | undefined => w?.value;

/** `timeout [options] DURATION`: how many words the wrapper takes, or -1 when it is not a plain one. */
function timeoutLength(words: readonly CommandWord[]): number {
  let i = 1;
  for (;;) {
    const word = valueOf(words[i]);
    const next = valueOf(words[i + 1]);
    if (word === undefined) return -1;
    if (word === '--foreground' || word === '--preserve-status' || word === '--verbose' || word === '-v') i++;
    else if (/^--(?:kill-after|signal)=[A-Za-z0-9_.+-]+$/.test(word) || /^-[ks][A-Za-z0-9_.+-]+$/.test(word)) i++;
    else if ((word === '--kill-after' || word === '--signal' || word === '-k' || word === '-s') && next && TIMEOUT_VALUE.test(next)) i += 2;
    else if (word === '--') {
      i++;
      break;
    } else if (word.startsWith('-')) return -1;
    else break;
  }
  return DURATION.test(valueOf(words[i]) ?? '') ? i + 1 : -1;
}

/** How many leading words are a wrapper that runs the rest unchanged; 0 when there is none. */
function wrapperLength(words: readonly CommandWord[]): number {
  const [first, second, third] = [valueOf(words[0]), valueOf(words[1]), valueOf(words[2])];
  const dashes = (n: number) => (valueOf(words[n]) === '--' ? n + 1 : n);
  switch (first) {
    case 'time':
    case 'nohup':
      return dashes(1);
    case 'timeout':
      return Math.max(0, timeoutLength(words));
    case 'nice':
      if (second === '-n' && third !== undefined && /^-?\d+$/.test(third)) return dashes(3);
      if (second !== undefined && /^-\d+$/.test(second)) return dashes(2);
      return dashes(1);
    case 'stdbuf': {
      let i = 1;
      while (/^-[ioe][LN0-9]+$/.test(valueOf(words[i]) ?? '')) i++;
      return i > 1 ? dashes(i) : 0;
    }
    default:
      return 0;
  }
}

/**
 * The words an allow rule is matched against besides the command as written: safe assignments
 * and wrappers set aside, repeatedly (`CI=1 timeout 5 nice npm test` is `npm test`). Undefined
 * when there is nothing to set aside.
 */
export function approvalWords(words: readonly CommandWord[]): readonly CommandWord[] | undefined {
  let rest = words;
  for (;;) {
    const before = rest;
    while (rest[0]?.assignment) {
      const value = rest[0].value;
      const eq = value?.indexOf('=') ?? -1;
      if (value === undefined || eq <= 0 || !SAFE_VARIABLES.has(value.slice(0, eq)) || !SAFE_VALUE.test(value.slice(eq + 1))) {
        return rest === words ? undefined : rest;
      }
      rest = rest.slice(1);
    }
    const wrapper = wrapperLength(rest);
    if (wrapper > 0 && wrapper < rest.length) rest = rest.slice(wrapper);
    if (rest === before) return rest === words ? undefined : rest;
  }
}

/** Options of the read-only commands that never write nor run anything; others need a rule. */
/** `flags` absent: the command takes no options, every argument is an operand. */
const READ_ONLY: ReadonlyMap<string, { flags?: RegExp; valued?: RegExp; operands: 'paths' | 'any' | 'none' }> = new Map([
  ['echo', { flags: /^-[neE]+$/, operands: 'any' }],
  ['pwd', { flags: /^-[LP]$/, operands: 'none' }],
  ['true', { operands: 'none' }],
  ['false', { operands: 'none' }],
  ['cat', { flags: /^-[nbAEsTv]+$/, operands: 'paths' }],
  ['head', { flags: /^-(?:\d+|[qv]+)$|^-[nc]-?\d+[kKmM]?$/, valued: /^-[nc]$/, operands: 'paths' }],
  ['tail', { flags: /^-(?:\d+|[qvr]+)$|^-[nc][+-]?\d+[kKmM]?$/, valued: /^-[nc]$/, operands: 'paths' }],
  ['wc', { flags: /^-[lwcmL]+$|^--(?:lines|words|bytes|chars)$/, operands: 'paths' }],
  ['ls', { flags: /^-[A-Za-z1]+$|^--(?:all|almost-all|long|human-readable|recursive|reverse)$/, operands: 'paths' }],
  ['basename', { flags: /^-[as]$/, operands: 'any' }],
  ['dirname', { operands: 'any' }],
]);
const GREP = {
  flags:
    /^-[iInlLcvrRwxoshHqEFz]+$|^-[ABCm]\d+$|^--(?:include|exclude|exclude-dir|color|colour)=.+$|^--(?:count|ignore-case|line-number|files-with-matches|recursive)$/,
  valued: /^-[eABCm]$/,
};

function insideWorkspace(operand: string, cwd: string, root: string): string | undefined {
  if (operand.startsWith('~') || operand.startsWith('-')) return undefined;
  const absolute = path.resolve(cwd, operand);
  const rel = path.relative(root, absolute);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel)) ? absolute : undefined;
}

/** A read-only command's operands: each a static word, and where they are paths, inside the workspace. */
function operandsOk(kind: 'paths' | 'any' | 'none', operands: readonly (string | undefined)[], cwd: string, root: string): boolean {
  if (kind === 'none') return operands.length === 0;
  return operands.every((o) => o !== undefined && (kind === 'any' || insideWorkspace(o, cwd, root) !== undefined));
}

function splitOptions(args: readonly (string | undefined)[], flags: RegExp, valued: RegExp | undefined) {
  const operands: (string | undefined)[] = [];
  let ended = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!ended && arg === '--') ended = true;
    else if (!ended && arg !== undefined && arg.startsWith('-') && arg !== '-') {
      if (valued?.test(arg)) {
        // The option's value (a count, grep's -e pattern) must be a static word too.
        if (args[i + 1] === undefined) return undefined;
        i++;
      } else if (!flags.test(arg)) return undefined;
    } else operands.push(arg);
  }
  return operands;
}

/**
 * Whether a simple command is one of the read-only commands that need no allow rule, and the
 * directory the next command of the line runs in (`cd src` moves it, only inside the workspace).
 */
export function readOnlyCommand(command: SimpleCommand, cwd: string, root: string): { cwd: string } | undefined {
  const words = command.words;
  if (words.some((w) => w.assignment)) return undefined;
  const name = valueOf(words[0]);
  const args = words.slice(1).map((w) => w.value);
  if (name === 'cd') {
    if (args.length > 1 || args.some((a) => a === undefined)) return undefined;
    const target = args[0] === undefined ? undefined : insideWorkspace(args[0], cwd, root);
    return target === undefined ? undefined : { cwd: target };
  }
  if (name === 'grep' || name === 'egrep' || name === 'fgrep') {
    const operands = splitOptions(args, GREP.flags, GREP.valued);
    if (!operands) return undefined;
    // The pattern comes first unless -e gave it; what follows are files.
    const hasE = args.includes('-e');
    const files = hasE ? operands : operands.slice(1);
    if (!hasE && operands[0] === undefined) return undefined;
    return operandsOk('paths', files, cwd, root) ? { cwd } : undefined;
  }
  const spec = name === undefined ? undefined : READ_ONLY.get(name);
  if (!spec) return undefined;
  const operands = spec.flags ? splitOptions(args, spec.flags, spec.valued) : args;
  if (!operands) return undefined;
  return operandsOk(spec.operands, operands, cwd, root) ? { cwd } : undefined;
}
