/**
 * What to read and how to turn it into extensions, shared by the repository (GitHub API,
 * asynchronous) and local (disk, synchronous) loaders. The plan is a generator that yields
 * each directory it needs listed, so one walk with one set of caps serves both kinds of I/O.
 */
import { GENERAL_PURPOSE, mergeAgents, parseAgentFile, type AgentDefinition } from './agents.js';
import { parseCommandFile, type Command } from './commands.js';
import { ExtensionFileError } from './frontmatter.js';
import { parseSkillFile, type Skill } from './skills.js';

export type Log = (message: string) => void;

export interface Extensions {
  /** The built-in general-purpose agent first, then the files' agents (a file may replace it by name). */
  agents: AgentDefinition[];
  /** Sorted by name. */
  skills: Skill[];
  /** Sorted by name. */
  commands: Command[];
}

export type Kind = 'agents' | 'skills' | 'commands';

/** One entry of a directory listing. `size` is known for files listed through the API. */
export interface Entry {
  name: string;
  type: 'file' | 'dir';
  size?: number;
}

export interface Planned {
  kind: Kind;
  /** Relative to the repository root, `/`-separated. */
  path: string;
}

export type ReadResult = { text: string } | { missing: true } | { problem: string };

/** At most this many files of each kind are read: a trusted branch, but a runaway generator should not cost minutes of API calls. */
export const MAX_FILES = 100;
export const MAX_BYTES = 100 * 1024;
/** `.claude/commands/a/b/c.md` is `a:b:c`; deeper folders are not looked into. */
const MAX_COMMAND_DEPTH = 2;
export const DIRS = { agents: '.claude/agents', skills: '.claude/skills', commands: '.claude/commands' } as const;

const byPath = (a: { path: string }, b: { path: string }): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
const isMarkdown = (e: Entry): boolean => e.type === 'file' && /\.md$/i.test(e.name);

function tooLarge(e: Entry): boolean {
  return e.size !== undefined && e.size > MAX_BYTES;
}

/** Keeps the first MAX_FILES, sorted by path so the same files are kept every run. */
function capped(kind: Kind, files: Planned[], log: Log, label: (path: string) => string): Planned[] {
  files.sort(byPath);
  if (files.length <= MAX_FILES) return files;
  log(`Skipped ${files.length - MAX_FILES} of ${files.length} files in ${label(DIRS[kind])}: at most ${MAX_FILES} are read`);
  return files.slice(0, MAX_FILES);
}

function markdownFiles(kind: Kind, dir: string, entries: Entry[], log: Log, label: (path: string) => string): Planned[] {
  const out: Planned[] = [];
  for (const entry of entries.filter(isMarkdown)) {
    const path = `${dir}/${entry.name}`;
    if (tooLarge(entry)) log(`Skipped ${label(path)}: ${entry.size} bytes, over the ${MAX_BYTES}-byte limit`);
    else out.push({ kind, path });
  }
  return out;
}

function* commandFiles(dir: string, depth: number, log: Log, label: (path: string) => string): Generator<string, Planned[], Entry[]> {
  const entries = yield dir;
  const out = markdownFiles('commands', dir, entries, log, label);
  for (const sub of entries.filter((e) => e.type === 'dir')) {
    if (depth >= MAX_COMMAND_DEPTH)
      log(`Skipped ${label(`${dir}/${sub.name}/`)}: commands are read ${MAX_COMMAND_DEPTH} folders deep at most`);
    else out.push(...(yield* commandFiles(`${dir}/${sub.name}`, depth + 1, log, label)));
  }
  return out;
}

/** The files to read, each kind capped; yields every directory to list and gets its entries ([] when it is missing). */
export function* plan(log: Log, label: (path: string) => string): Generator<string, Planned[], Entry[]> {
  const agents = markdownFiles('agents', DIRS.agents, yield DIRS.agents, log, label);
  const skillDirs: Entry[] = yield DIRS.skills;
  const skills = skillDirs
    .filter((e) => e.type === 'dir')
    .map((e): Planned => ({ kind: 'skills', path: `${DIRS.skills}/${e.name}/SKILL.md` }));
  const commands = yield* commandFiles(DIRS.commands, 0, log, label);
  return [...capped('agents', agents, log, label), ...capped('skills', skills, log, label), ...capped('commands', commands, log, label)];
}

/** Runs the plan against a synchronous lister. */
export function planSync(log: Log, label: (path: string) => string, list: (dir: string) => Entry[]): Planned[] {
  const walk = plan(log, label);
  for (let step = walk.next([]); ; step = walk.next(list(step.value))) if (step.done) return step.value;
}

/** Runs the plan against an asynchronous lister. */
export async function planAsync(log: Log, label: (path: string) => string, list: (dir: string) => Promise<Entry[]>): Promise<Planned[]> {
  const walk = plan(log, label);
  for (let step = walk.next([]); ; step = walk.next(await list(step.value))) if (step.done) return step.value;
}

type Parser<T> = (text: string, path: string, source: string) => T;

/** Why what was read cannot be parsed, if it cannot. */
function readProblem(result: ReadResult): string | undefined {
  if ('missing' in result) return 'not found';
  if ('problem' in result) return result.problem;
  const bytes = Buffer.byteLength(result.text);
  return bytes > MAX_BYTES ? `${bytes} bytes, over the ${MAX_BYTES}-byte limit` : undefined;
}

/** The parsed file, or undefined after logging why it is skipped. */
function parseOne<T>(file: Planned, result: ReadResult, parser: Parser<T>, log: Log, label: (path: string) => string): T | undefined {
  if ('missing' in result && file.kind === 'skills') {
    // A skill is a folder; the folder is what its author looks for.
    log(`Skipped ${label(file.path.replace(/SKILL\.md$/, ''))}: it has no SKILL.md`);
    return undefined;
  }
  const source = label(file.path);
  let problem = readProblem(result);
  if (problem === undefined && 'text' in result) {
    try {
      return parser(result.text, file.path, source);
    } catch (error) {
      if (!(error instanceof ExtensionFileError)) throw error;
      problem = error.problem;
    }
  }
  log(`Skipped ${source}: ${problem ?? 'unreadable'}`);
  return undefined;
}

/** One per name: on a clash the later file (by path) wins, and the log says so. */
function unique<T extends { name: string; source: string }>(items: readonly T[], what: string, log: Log): T[] {
  const byName = new Map<string, T>();
  for (const item of items) {
    const earlier = byName.get(item.name);
    if (earlier) log(`${earlier.source} and ${item.source} both define ${what} "${item.name}"; using ${item.source}`);
    byName.set(item.name, item);
  }
  return [...byName.values()];
}

const byName = <T extends { name: string }>(a: T, b: T): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Parses what was read (in plan order), logging each file skipped and a summary. */
export function build(read: readonly { file: Planned; result: ReadResult }[], log: Log, label: (path: string) => string): Extensions {
  const agents: AgentDefinition[] = [];
  const skills: Skill[] = [];
  const commands: Command[] = [];
  const add = <T>(list: T[], item: T | undefined): void => {
    if (item !== undefined) list.push(item);
  };
  for (const { file, result } of read) {
    if (file.kind === 'agents') add(agents, parseOne(file, result, parseAgentFile, log, label));
    else if (file.kind === 'skills') add(skills, parseOne(file, result, parseSkillFile, log, label));
    else add(commands, parseOne(file, result, parseCommandFile, log, label));
  }
  const fileAgents = unique(agents, 'agent', log);
  const out: Extensions = {
    agents: mergeAgents([GENERAL_PURPOSE], fileAgents),
    skills: unique(skills, 'skill', log).sort(byName),
    commands: unique(commands, 'command', log).sort(byName),
  };
  if (fileAgents.length + out.skills.length + out.commands.length > 0) {
    const counts = `${fileAgents.length} agent(s), ${out.skills.length} skill(s) and ${out.commands.length} command(s)`;
    log(`Read ${counts} from ${label('.claude')}`);
  }
  return out;
}
