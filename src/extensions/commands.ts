/**
 * Claude Code's custom slash commands: `.claude/commands/<name>.md`, a sub-folder making
 * `<folder>:<name>`. Frontmatter `allowed-tools?` (permission rules the command pre-approves),
 * `model?`, `description?`, `argument-hint?`, `arguments?` (names for the arguments); the body
 * becomes the task, `$ARGUMENTS` replaced by everything after the name, `$ARGUMENTS[0]` or `$0`,
 * `$1`, … (0-based) and `$<name>` by the arguments split as a shell would.
 */
import { randomUUID } from 'node:crypto';
import { parseRuleList } from '../tools/permissions/rules.js';
import { checkName, ExtensionFileError, optionalList, optionalText, splitFrontmatter, type Fail } from './frontmatter.js';

export interface Command {
  /** `fix-lint`, or `frontend:component` for `.claude/commands/frontend/component.md`. */
  name: string;
  /** The template the task is made from. */
  body: string;
  /** Permission rules (`Bash(npm test:*)`, …) as written, one per entry; already checked to parse. */
  allowedTools?: string[];
  model?: string;
  description?: string;
  argumentHint?: string;
  /** Frontmatter `arguments`: the names `$<name>` stands for, in order. */
  argumentNames?: string[];
  /** Where it was read, for logs: `.claude/commands/fix-lint.md (main)`. */
  source: string;
}

const COMMANDS_DIR = '.claude/commands/';

/** `fix-lint` for `.claude/commands/fix-lint.md`, `frontend:component` one folder down. */
export function commandName(path: string): string {
  const at = path.lastIndexOf(COMMANDS_DIR);
  const relative = at === -1 ? (path.split('/').at(-1) ?? path) : path.slice(at + COMMANDS_DIR.length);
  return relative.replace(/\.md$/i, '').split('/').join(':');
}

function allowedTools(data: Record<string, unknown>, source: string, fail: Fail): string[] | undefined {
  const value = data['allowed-tools'];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' && !(Array.isArray(value) && value.every((v) => typeof v === 'string'))) {
    return fail('`allowed-tools` must be a list of rules or one comma-separated string');
  }
  try {
    // Checked now, so that a bad rule skips this command with its file named instead of failing the run that uses it.
    return parseRuleList(value, `${source} allowed-tools`).map((rule) => rule.text);
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
}

/** One command file; throws ExtensionFileError naming `path` and the problem. */
export function parseCommandFile(text: string, path: string, source = path): Command {
  const fail: Fail = (problem) => {
    throw new ExtensionFileError(path, problem);
  };
  const name = commandName(path)
    .split(':')
    .map((part) => checkName(part, 'the command name', fail))
    .join(':');
  const { data, body } = splitFrontmatter(text, path);
  if (body.trim() === '') fail('the file has no body: it is the task the command runs');
  const tools = allowedTools(data, source, fail);
  const model = optionalText(data, 'model', fail);
  const description = optionalText(data, 'description', fail);
  const argumentHint = optionalText(data, 'argument-hint', fail);
  const argumentNames = optionalList(data, 'arguments', fail, (text) => text.split(/[\s,]+/).filter(Boolean));
  return {
    name,
    body: body.trim(),
    ...(tools ? { allowedTools: tools } : {}),
    ...(model ? { model } : {}),
    ...(description ? { description } : {}),
    ...(argumentHint ? { argumentHint } : {}),
    ...(argumentNames?.length ? { argumentNames } : {}),
    source,
  };
}

/** Whether the phrase ends in a word character, so that `@agentfoo` is not `@agent foo`. */
const endsInWord = (phrase: string): boolean => /[\w-]$/.test(phrase);

/**
 * The command a task names, and its arguments (the rest of the text, trimmed), or null.
 * With `phrase` null the text is the task itself (the action's, after its trigger phrase, or the
 * CLI prompt) and its first word names the command, a leading `/` allowed: `fix-lint src/` or
 * `/fix-lint src/`. With a phrase, the text must start with it: `('/agent fix-lint src/', '/agent')`,
 * or `('/fix-lint src/', '/')` for a CLI prompt that must start with a slash.
 */
export function findCommand(text: string, phrase: string | null, commands: readonly Command[]): { command: Command; args: string } | null {
  let rest = text.trimStart();
  if (phrase !== null) {
    if (!rest.startsWith(phrase)) return null;
    rest = rest.slice(phrase.length);
    if (endsInWord(phrase) && rest !== '' && !/^\s/.test(rest)) return null;
    rest = rest.trimStart();
  }
  const match = /^\/?(\S+)/.exec(rest);
  if (!match?.[1]) return null;
  const command = commands.find((c) => c.name === match[1]);
  return command ? { command, args: rest.slice(match[0].length).trim() } : null;
}

/**
 * Splits arguments as a POSIX shell splits words: whitespace separates, single quotes keep
 * everything, double quotes keep all but `\"`, `\\`, `\$` and `` \` `` escapes, a backslash
 * outside quotes escapes the next character. An unclosed quote runs to the end: people type
 * these in comments, and a forgiving reading beats refusing the task.
 */
export function splitArguments(text: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      const stop = end === -1 ? text.length : end;
      word = (word ?? '') + text.slice(i + 1, stop);
      i = stop;
    } else if (c === '"') {
      let quoted = '';
      for (i++; i < text.length && text.charAt(i) !== '"'; i++) {
        const next = text.charAt(i + 1);
        if (text.charAt(i) === '\\' && '"\\$`'.includes(next) && next !== '') quoted += text.charAt(++i);
        else quoted += text.charAt(i);
      }
      word = (word ?? '') + quoted;
    } else if (c === '\\' && i + 1 < text.length) {
      word = (word ?? '') + text.charAt(++i);
    } else word = (word ?? '') + c;
  }
  if (word !== null) words.push(word);
  return words;
}

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A command expanded: the task, and what runs or is read before the model sees it. */
export interface ExpandedCommand {
  /** The task text; each shell step's output goes where its slot stands. */
  task: string;
  /** The body's `` !`command` `` and ```` ```! ```` blocks, arguments substituted, in order. */
  shell: { slot: string; command: string }[];
  /** The `@path` references of the task outside code, in order, each once. */
  files: string[];
}

/**
 * `` !`command` `` at the start of a line or after a space, or a fenced block opened with
 * ```` ```! ````: Claude Code runs it before the model sees the command, and its output stands in
 * its place. Only the body's own: arguments are substituted into them, never scanned for them.
 */
const SHELL = /```!\n([\s\S]*?)\n```|(?<=^|\s)!`([^`\n]+)`/gm;

/** `@path` at the start of a line or after a space, outside code: Claude Code attaches the file. */
export function fileReferences(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, ' ').replace(/`[^`\n]*`/g, ' ');
  const found = [...prose.matchAll(/(?<=^|\s)@([^\s`]+)/gm)].map((m) => (m[1] ?? '').replace(/[.,;:!?)\]]+$/, ''));
  return [...new Set(found.filter((path) => path !== '' && !path.includes('\0')))];
}

/**
 * The task a command runs, as Claude Code expands it: `$<name>` (frontmatter `arguments`),
 * `$ARGUMENTS[N]` and `$N` (0-based) take one argument, `$ARGUMENTS` all of them, a missing one
 * is ''; `\$` keeps a literal `$`. One pass, so arguments that themselves hold `$0` stay as
 * typed. A body that uses none of them gets the arguments appended, so that they are not lost.
 * Shell steps are cut out first, so that an argument cannot open one; each leaves a slot whose
 * name holds `nonce`, which nothing typed can guess.
 */
export function expandCommand(command: Command, args: string, nonce: string = randomUUID()): ExpandedCommand {
  const words = splitArguments(args);
  // Longer names first, so `$file` never eats the start of `$files`.
  const names = [...(command.argumentNames ?? [])].map((name, i) => ({ name, i })).sort((a, b) => b.name.length - a.name.length);
  const named = names.map(({ name }) => `${escapeRegex(name)}(?![\\[\\w])`);
  const pattern = new RegExp(`\\\\\\$|\\$(?:(${named.join('|') || '(?!)'})|ARGUMENTS\\[(\\d+)\\]|(\\d+)(?!\\w)|ARGUMENTS)`, 'g');
  let used = false;
  const substitute = (text: string): string =>
    text.replace(pattern, (match, name: string | undefined, indexed: string | undefined, plain: string | undefined) => {
      if (match === '\\$') return '$';
      used = true;
      if (name !== undefined) return words[names.find((n) => n.name === name)?.i ?? -1] ?? '';
      const index = indexed ?? plain;
      return index !== undefined ? (words[Number(index)] ?? '') : args;
    });
  const shell: ExpandedCommand['shell'] = [];
  let task = '';
  let at = 0;
  for (const match of command.body.matchAll(SHELL)) {
    const slot = `[output of step ${shell.length + 1} ${nonce}]`;
    task += substitute(command.body.slice(at, match.index)) + slot;
    shell.push({ slot, command: substitute(match[1] ?? match[2] ?? '') });
    at = match.index + match[0].length;
  }
  task += substitute(command.body.slice(at));
  if (!used && args.trim() !== '') task = `${task}\n\nARGUMENTS: ${args}`;
  return { task, shell, files: fileReferences(task) };
}
