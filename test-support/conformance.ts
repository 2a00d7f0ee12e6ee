// Side by side: the same scripted model drives the Claude Code CLI and agent-action's CLI through
// the same tool calls, with the same settings files and rule flags, each in a fresh repository and
// HOME. Whether a call ran is told by its effect (a stub command's log line, a token that only
// running or reading could produce in the result the model got back, a file's content), never by
// what either CLI says about it.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startAnthropicServer, type RecordedRequest, type ScriptedReply } from './anthropic-server.js';
import { runClaudeCode, trustProject } from './claude-code.js';
import { childEnv, cleanHome, makeRepo, runCli, type ProcessResult } from './cli-process.js';

export type Side = 'claudeCode' | 'agentAction';
export const SIDES: readonly Side[] = ['claudeCode', 'agentAction'];

/** A tool call; in its strings `{repo}` becomes the side's repository (Claude Code's file tools take absolute paths). */
export interface ConformanceCall {
  name: string;
  input: Record<string, unknown>;
}

/** How a case tells that its call ran. */
export type Evidence =
  /** A stub command (npm, make, curl, probe) logged a line with this word. */
  | { logged: string }
  /** The result the model got back holds this text, which only running or reading produces. */
  | { output: string }
  /** After the run, the file (relative to the repository) holds this text. */
  | { file: string; contains: string };

export interface Case {
  /** Short and unique in its group; tool_use ids and stub log lines carry it. */
  id: string;
  call: ConformanceCall;
  ran: Evidence;
}

export interface Group {
  name: string;
  files?: Record<string, string>;
  /** `.claude/settings.json`. */
  settings?: unknown;
  /** `--allowedTools` / `--allowed-tools`. */
  allow?: string[];
  /** `--disallowedTools` / `--disallowed-tools`. */
  deny?: string[];
  cases: Case[];
}

export interface SideRun {
  process: ProcessResult;
  /** Every request the side's model server got. */
  requests: RecordedRequest[];
  /** Case id -> whether its call ran, and the result text the model got. */
  outcomes: Map<string, { ran: boolean; result: string | undefined }>;
  /** Whether the side went through every call of the script and asked for the final answer. */
  complete: boolean;
  repo: string;
  home: string;
}

const KEY = 'sk-ant-conformance';
const STUBS = ['npm', 'make', 'curl', 'probe'];

function substitute(value: unknown, repo: string): unknown {
  if (typeof value === 'string') return value.replaceAll('{repo}', repo);
  if (Array.isArray(value)) return value.map((v) => substitute(v, repo));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, repo)]));
  return value;
}

function toolResults(req: RecordedRequest): { id: string; text: string }[] {
  return req.body.messages.flatMap((m) =>
    Array.isArray(m.content)
      ? m.content.flatMap((b) => {
          if (b.type !== 'tool_result') return [];
          const content = b['content'];
          const text = typeof content === 'string' ? content : JSON.stringify(content ?? '');
          return [{ id: String(b['tool_use_id']), text }];
        })
      : [],
  );
}

/** One tool call per turn, in order; the step is the number of results the request carries. */
function script(cases: readonly Case[], repo: string) {
  return (req: RecordedRequest): ScriptedReply => {
    if (!(req.body.tools ?? []).length) return { content: [{ type: 'text', text: 'ok' }] };
    const step = toolResults(req).length;
    const next = cases[step];
    if (!next) return { content: [{ type: 'text', text: 'done' }] };
    const input = substitute(next.call.input, repo) as Record<string, unknown>;
    return { content: [{ type: 'tool_use', id: `toolu_${next.id}`, name: next.call.name, input }] };
  };
}

/** Stub commands on PATH: each logs its name and arguments, and git logs then runs the real git. */
function installStubs(home: string): string {
  const bin = join(home, 'bin');
  mkdirSync(bin, { recursive: true });
  const log = join(home, 'ran.log');
  for (const name of STUBS) {
    writeFileSync(join(bin, name), `#!/bin/sh\necho "${name} $*" >> '${log}'\necho "stub ${name} finished"\n`);
    chmodSync(join(bin, name), 0o755);
  }
  const git = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "git $*" >> '${log}'\nexec '${git}' "$@"\n`);
  chmodSync(join(bin, 'git'), 0o755);
  return bin;
}

function ranBy(evidence: Evidence, result: string | undefined, repo: string, log: string[]): boolean {
  if ('logged' in evidence) return log.some((line) => line.split(/\s+/).includes(evidence.logged));
  if ('output' in evidence) return result?.includes(evidence.output) ?? false;
  const file = join(repo, evidence.file);
  return existsSync(file) && readFileSync(file, 'utf8').includes(evidence.contains);
}

async function runSide(side: Side, group: Group): Promise<SideRun> {
  const home = await cleanHome();
  const files: Record<string, string> = { 'README.md': 'conformance\n', ...group.files };
  if (group.settings !== undefined) files['.claude/settings.json'] = JSON.stringify(group.settings, null, 2);
  const repo = await makeRepo(files, home);
  const bin = installStubs(home);
  const server = await startAnthropicServer({ requireApiKey: KEY, script: script(group.cases, repo) });
  try {
    const env = childEnv(home, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url, PATH: `${bin}:${process.env['PATH'] ?? ''}` });
    let run: ProcessResult;
    if (side === 'claudeCode') {
      await trustProject(home, repo);
      const flags = [
        ...(group.allow?.length ? ['--allowedTools', ...group.allow] : []),
        ...(group.deny?.length ? ['--disallowedTools', ...group.deny] : []),
      ];
      run = await runClaudeCode(['-p', 'go', '--permission-mode', 'default', '--output-format', 'json', ...flags], env, repo);
    } else {
      const flags = [
        ...(group.allow?.length ? ['--allowed-tools', group.allow.join(',')] : []),
        ...(group.deny?.length ? ['--disallowed-tools', group.deny.join(',')] : []),
      ];
      run = await runCli(['--cwd', repo, '--json', '--quiet', '--max-steps', '200', ...flags, 'go'], env);
    }
    const requests = [...server.requests];
    const results = new Map(requests.flatMap(toolResults).map((r) => [r.id, r.text]));
    const logFile = join(home, 'ran.log');
    const log = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n') : [];
    const outcomes = new Map(
      group.cases.map((c) => {
        const result = results.get(`toolu_${c.id}`);
        return [c.id, { ran: ranBy(c.ran, result, repo, log), result }];
      }),
    );
    const complete = requests.some((r) => (r.body.tools ?? []).length > 0 && toolResults(r).length >= group.cases.length);
    return { process: run, requests, outcomes, complete, repo, home };
  } finally {
    await server.close();
  }
}

export type GroupRun = Record<Side, SideRun>;

/** Both CLIs through the group's calls, at the same time. */
export async function runGroup(group: Group): Promise<GroupRun> {
  const [claudeCode, agentAction] = await Promise.all([runSide('claudeCode', group), runSide('agentAction', group)]);
  return { claudeCode, agentAction };
}

/** Runs the groups, at most `parallel` at once. */
export async function runGroups(groups: readonly Group[], parallel = 2): Promise<Map<string, GroupRun>> {
  const out = new Map<string, GroupRun>();
  let next = 0;
  const worker = async () => {
    for (;;) {
      const group = groups[next++];
      if (!group) return;
      out.set(group.name, await runGroup(group));
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return out;
}
