import { jest } from '@jest/globals';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { commentPayload } from '../../test-support/action-payloads.js';
import { API_KEY, GH_TOKEN, makeWorld, OWNER, REPO, type World } from '../../test-support/action-world.js';
import type { RecordedRequest, ScriptedReply } from '../../test-support/anthropic-server.js';
import { PROBE_SERVER, probeAnswer } from '../../test-support/mcp-probe-server.js';

jest.setTimeout(90_000);

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** A hand-written MCP stdio server (newline-delimited JSON-RPC), importing its neighbour as servers do. */
const server = (who: string): string => `import { appendFileSync, mkdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { LIB } from './lib.mjs';
mkdirSync('markers', { recursive: true });
appendFileSync('markers/mcp-${who}', LIB + '\\n');
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'initialize')
    send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'lint', version: '1' } } });
  else if (m.method === 'tools/list')
    send({ id: m.id, result: { tools: [{ name: 'check', description: 'Checks', inputSchema: { type: 'object' } }] } });
  else if (m.method === 'tools/call') send({ id: m.id, result: { content: [{ type: 'text', text: 'lint server ${who}, ' + LIB }] } });
  else if (m.id !== undefined) send({ id: m.id, error: { code: -32601, message: 'no such method' } });
});
`;

const SETTINGS = JSON.stringify({
  permissions: { allow: ['mcp__lint'] },
  enabledMcpjsonServers: ['lint'],
  hooks: {
    // Claude Code's documented form, run as an executable: CLAUDE_PROJECT_DIR must reach the sandbox.
    SessionStart: [
      { hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/start.sh' }] },
      // Named by main's settings but missing on main: the copy the pull request adds must not run either.
      { hooks: [{ type: 'command', command: 'bash scripts/setup.sh' }] },
    ],
    PreToolUse: [{ matcher: 'Bash|Write', hooks: [{ type: 'command', command: 'bash .claude/hooks/guard.sh' }] }],
  },
});

/** The default branch: the trusted configuration and the code it names. */
const BASE = {
  '.gitignore': 'markers/\n',
  'README.md': 'calc\n',
  '.claude/settings.json': SETTINGS,
  '.claude/hooks/start.sh': '#!/bin/bash\nmkdir -p "$CLAUDE_PROJECT_DIR/markers" && touch "$CLAUDE_PROJECT_DIR/markers/start-base"\n',
  '.claude/hooks/guard.sh': '# the guard of main\nmkdir -p markers && touch markers/guard-base\nexit 0\n',
  '.claude/skills/fmt/SKILL.md': '---\nname: fmt\ndescription: Formats\n---\nRun `bash ${CLAUDE_SKILL_DIR}/run.sh`; notes.md says why.\n',
  '.claude/skills/fmt/run.sh': 'mkdir -p markers && touch markers/skill-base\n',
  '.claude/skills/fmt/notes.md': 'notes of main\n',
  '.mcp.json': JSON.stringify({ mcpServers: { lint: { command: 'node', args: ['tools/lint-server.mjs'] } } }),
  'tools/lint-server.mjs': server('base'),
  'tools/lib.mjs': "export const LIB = 'lib-base';\n",
};

/** What the pull request rewrites: every script the trusted configuration runs, to take over its own guards. */
const HEAD = {
  '.claude/hooks/start.sh': '#!/bin/bash\nmkdir -p "$CLAUDE_PROJECT_DIR/markers" && touch "$CLAUDE_PROJECT_DIR/markers/start-head"\n',
  '.claude/hooks/guard.sh': '# the guard of the pull request\nmkdir -p markers && touch markers/guard-head\nexit 0\n',
  '.claude/skills/fmt/run.sh': 'mkdir -p markers && touch markers/skill-head\n',
  '.claude/skills/fmt/notes.md': 'notes of the pull request\n',
  'tools/lint-server.mjs': server('head'),
  'tools/lib.mjs': "export const LIB = 'lib-head';\n",
  'scripts/setup.sh': 'mkdir -p markers && touch markers/setup-head\n',
};

const TRUSTED_FILES = {
  '.claude/settings.json': SETTINGS,
  '.mcp.json': BASE['.mcp.json'],
  '.claude/skills/fmt/SKILL.md': BASE['.claude/skills/fmt/SKILL.md'],
};

const tool = (name: string, input: unknown): ScriptedReply => ({ content: [{ type: 'tool_use', name, input }] });
const text = (t: string): ScriptedReply => ({ content: [{ type: 'text', text: t }] });

function lastResult(req: RecordedRequest): string {
  return JSON.stringify(req.body.messages.at(-1)!.content);
}

/** The skill's folder as the Skill tool named it. */
function skillDir(req: RecordedRequest): string {
  const m = /its folder is (\/[^,]+\/), the copy/.exec(lastResult(req));
  if (!m) throw new Error(`no folder in ${lastResult(req)}`);
  return m[1]!;
}

/** The requests so far, by index: a later reply uses what an earlier result said. */
const recorded: RecordedRequest[] = [];

/** Skill, then Read and run the skill's files from where it says, the MCP tool, Read the PR's guard, a change. */
function script(req: RecordedRequest, index: number): ScriptedReply {
  switch (index) {
    case 0:
      return tool('Skill', { skill: 'fmt' });
    case 1:
      return tool('Read', { file_path: `${skillDir(req)}notes.md` });
    case 2:
      return tool('Bash', { command: `bash ${skillDir(recorded[1]!)}run.sh` });
    case 3:
      return tool('mcp__lint__check', {});
    case 4:
      return tool('Read', { file_path: '.claude/hooks/guard.sh' });
    case 5:
      return tool('Write', { file_path: 'NOTES.md', content: 'checked\n' });
    default:
      return text('Done.');
  }
}

async function prWorld(fork: boolean): Promise<World> {
  recorded.length = 0;
  const w = await makeWorld({
    main: BASE,
    executable: ['.claude/hooks/start.sh'],
    branches: { feature: HEAD },
    script: (req, index) => {
      recorded[index] = req;
      return script(req, index);
    },
    sim: { permissions: { alice: 'write' }, files: { main: TRUSTED_FILES, feature: { ...TRUSTED_FILES } } },
  });
  const headSha = w.remoteGit(['rev-parse', 'feature']).trim();
  w.remoteGit(['update-ref', 'refs/pull/7/head', headSha]);
  const headRepoFullName = fork ? 'mallory/calc' : `${OWNER}/${REPO}`;
  const pull = { headRef: 'feature', headSha, headRepoFullName, baseRef: 'main', files: [], diff: '' };
  w.sim.issues.set(7, { number: 7, title: 'Feature', body: '', user: { login: 'mallory' }, comments: [], pull });
  return w;
}

const markers = (w: World): string[] => (existsSync(join(w.work, 'markers')) ? readdirSync(join(w.work, 'markers')).sort() : []);

describe('trusted configuration runs only trusted code on pull request runs (dist/index.js)', () => {
  it.each([
    { fork: false, sandbox: 'off' },
    { fork: false, sandbox: 'auto' },
    { fork: true, sandbox: 'auto' },
  ])('fork $fork, sandbox $sandbox: hooks, the MCP server and the skill run the base branch versions', async ({ fork, sandbox }) => {
    world = await prWorld(fork);
    const payload = commentPayload({ number: 7, body: '/agent check', by: { login: 'alice', id: 501 }, onPull: true });
    const r = await world.run({ event: 'issue_comment', payload, inputs: { sandbox, 'allowed-tools': 'Read,Write,Bash,Skill,mcp__lint' } });
    expect(r.outputs['conclusion']).toBe('success');
    const log = r.stdout + r.stderr;
    if (sandbox === 'auto') expect(log).not.toMatch(/WITHOUT a sandbox/);
    // Every trusted command ran the base branch's code, none of the pull request's.
    expect(markers(world)).toEqual(['guard-base', 'mcp-base', 'skill-base', 'start-base']);
    const requests = world.model.requests;
    expect(lastResult(requests[2]!)).toContain('notes of main');
    expect(lastResult(requests[4]!)).toContain('lint server base, lib-base');
    // The model still sees the pull request's own versions in the workspace.
    expect(lastResult(requests[5]!)).toContain('the guard of the pull request');
    expect(lastResult(requests[6]!)).not.toMatch(/Permission denied|Hook refused/);
    if (fork) return;
    // What was pushed holds the pull request's versions and the change, never the trusted copies.
    const pushed = (path: string) => world!.remoteGit(['show', `feature:${path}`]);
    expect(pushed('NOTES.md')).toBe('checked\n');
    for (const [path, content] of Object.entries(HEAD)) expect(pushed(path)).toBe(content);
    expect(world.remoteGit(['diff', '--name-only', 'feature~1', 'feature'])).toBe('NOTES.md\n');
  });
});

describe('MCP stdio servers in the sandbox (dist/index.js)', () => {
  it('run with their configured env and the allowlist only, the runner temp dir out of reach', async () => {
    world = await makeWorld({
      main: { 'README.md': 'calc\n', 'tools/probe.mjs': PROBE_SERVER },
      script: [tool('mcp__env__show', {}), text('Shown.')],
      sim: { permissions: { alice: 'write' } },
    });
    world.sim.issues.set(3, { number: 3, title: 'Env', body: '', user: { login: 'bob' }, comments: [] });
    const runnerTemp = join(world.root, 'runner-temp');
    const mcp = {
      mcpServers: { env: { command: 'node', args: ['tools/probe.mjs'], env: { LINT_MODE: 'strict', PROBE_PATH: runnerTemp } } },
    };
    const payload = commentPayload({ number: 3, body: '/agent show', by: { login: 'alice', id: 501 }, onPull: false });
    const r = await world.run({
      event: 'issue_comment',
      payload,
      inputs: { sandbox: 'auto', 'mcp-config': JSON.stringify(mcp) },
      env: { DATABASE_URL: 'postgres://canary-db-secret@db/prod' },
    });
    expect(r.outputs['conclusion']).toBe('success');
    expect(r.stdout + r.stderr).not.toMatch(/WITHOUT a sandbox/);
    const seen = probeAnswer(world.model.requests[1]!.body.messages.at(-1)!.content);
    expect(seen.env['LINT_MODE']).toBe('strict');
    const values = Object.values(seen.env).join('\n');
    for (const secret of [API_KEY, GH_TOKEN, 'canary-db-secret']) expect(values).not.toContain(secret);
    expect(Object.keys(seen.env).filter((k) => k.startsWith('INPUT_') || k.startsWith('GITHUB_TOKEN'))).toEqual([]);
    // The runner's temp dir (step outputs, the transcript) is an empty tmpfs inside the sandbox.
    expect(seen.probe).toEqual([]);
  });
});
