// Permission rules side by side with the Claude Code CLI (pinned devDependency), driven by one
// scripted model: the same settings files and rule flags, each CLI in a fresh repository and HOME,
// `--permission-mode default` for Claude Code (never skipping permissions). Each case's "ran" is
// its effect (a stub's log line, a token in the result the model got, a file's content).
//
// The invariant: anything Claude Code refuses, agent-action refuses. Where agent-action stays
// stricter, the case says so with `stricter` and the README's "How this differs from Claude Code"
// lists it; every other case behaves the same in both.
import { runGroups, type Case, type Evidence, type Group, type GroupRun } from '../../test-support/conformance.js';

type Expect = 'run' | 'refuse' | 'stricter';
interface Row {
  case: Case;
  expect: Expect;
}
interface Table {
  group: Group;
  rows: Row[];
}

const bash = (id: string, command: string, expect: Expect, ran: Evidence = { logged: id }): Row => ({
  case: { id, call: { name: 'Bash', input: { command, description: `case ${id}` } }, ran },
  expect,
});
const read = (id: string, file: string, expect: Expect): Row => ({
  case: { id, call: { name: 'Read', input: { file_path: `{repo}/${file}` } }, ran: { output: `TOKEN-${id}` } },
  expect,
});
const write = (id: string, file: string, expect: Expect): Row => ({
  case: {
    id,
    call: { name: 'Write', input: { file_path: `{repo}/${file}`, content: `TOKEN-${id}\n` } },
    ran: { file, contains: `TOKEN-${id}` },
  },
  expect,
});
const mcp = (id: string, tool: string, expect: Expect): Row => ({
  case: { id, call: { name: `mcp__conf__${tool}`, input: { id } }, ran: { output: `MCP-RAN-${id}` } },
  expect,
});

function table(group: Omit<Group, 'cases'>, rows: Row[]): Table {
  return { group: { ...group, cases: rows.map((r) => r.case) }, rows };
}

/** A stdio MCP server with three tools, each answering MCP-RAN-<id> for the id it is given. */
const MCP_SERVER = `import { createInterface } from 'node:readline';
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
const tool = (name) => ({ name, description: 'conformance tool ' + name, inputSchema: { type: 'object', properties: { id: { type: 'string' } } } });
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'initialize')
    send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'conf', version: '1' } } });
  else if (m.method === 'tools/list') send({ id: m.id, result: { tools: ['alpha', 'beta', 'gamma'].map(tool) } });
  else if (m.method === 'tools/call') send({ id: m.id, result: { content: [{ type: 'text', text: 'MCP-RAN-' + m.params.arguments.id }] } });
  else if (m.id !== undefined) send({ id: m.id, error: { code: -32601, message: 'no such method' } });
});
`;
const MCP_FILES = {
  'server.mjs': MCP_SERVER,
  '.mcp.json': JSON.stringify({ mcpServers: { conf: { command: 'node', args: ['server.mjs'] } } }),
};

const TABLES: Table[] = [
  table(
    {
      name: 'Bash(npm test:*) from the settings file',
      settings: { permissions: { allow: ['Bash(npm test:*)'] } },
      files: { 'src/.keep': '' },
    },
    [
      bash('b1', 'npm test b1', 'run'),
      bash('b2', 'npm test b2 2>&1 | tail -20', 'run'),
      bash('b3', 'cd src && npm test b3', 'run'),
      bash('b4', 'timeout 60 npm test b4', 'run'),
      bash('b5', 'NODE_ENV=test npm test b5', 'run'),
      bash('b6', 'CI=true npm test b6', 'run'),
      bash('b7', 'npm test b7 && echo finished', 'run'),
      bash('b8', 'npm test -- --ci b8 > /dev/null', 'run'),
      bash('b9', 'nice -n 5 npm test b9', 'run'),
      bash('b10', 'npm test b10 | grep -v warn | head -n 5', 'run'),
      bash('b11', 'npm test b11 &', 'refuse'),
      bash('b12', '(npm test b12)', 'refuse'),
      bash('b13', 'npm test b13 $HOME', 'stricter'),
      bash('b14', "npm test b14 <<'EOF'\nx\nEOF", 'stricter'),
      bash('b36', 'npm test b36 <<EOF\nx\nEOF', 'refuse'),
      bash('b37', 'npm test b37 "$HOME"', 'stricter'),
      bash('b40', 'npm test b40 ${HOME:-x}', 'refuse'),
      bash('b41', 'npm test b41 ${HOME/a/b}', 'refuse'),
      bash('b38', 'npm test b38 ~/x', 'run'),
      bash('b39', 'npm test b39 src/*.js', 'run'),
      bash('b15', 'npm test b15; make b15', 'refuse'),
      bash('b16', 'npm test b16 && curl b16', 'refuse'),
      bash('b17', 'npm run b17', 'refuse'),
      bash('b18', 'npm testx b18', 'refuse'),
      bash('b19', 'PATH=/tmp:$PATH npm test b19', 'refuse'),
      bash('b20', 'npm test b20 $(make b20)', 'refuse'),
      bash('b21', 'eval npm test b21', 'refuse'),
      bash('b22', 'bash -c "npm test b22"', 'refuse'),
      bash('b23', 'npm test b23 > out-b23.txt', 'refuse'),
      bash('b24', 'npm test b24 || make b24', 'refuse'),
      bash('b25', '{ npm test b25; }', 'refuse'),
      bash('b26', 'npm test b26 | sh', 'refuse'),
      bash('b27', 'make b27', 'refuse'),
      bash('b28', 'npm test "b28"', 'run'),
      bash('b29', 'env npm test b29', 'refuse'),
      bash('b30', 'timeout 5s nohup npm test b30', 'run'),
      bash('b31', 'FOO=1 npm test b31', 'refuse'),
      bash('b32', 'npm test b32 2>/dev/null', 'run'),
      bash('b33', 'npm test b33 `make b33`', 'refuse'),
      bash('b34', 'npm test b34\nmake b34', 'refuse'),
      bash('b35', 'xargs npm test b35 < /dev/null', 'stricter'),
    ],
  ),
  table({ name: 'git diff and make from --allowedTools', allow: ['Bash(git diff:*)', 'Bash(make:*)'] }, [
    bash('g1', 'git diff HEAD~1 -- g1 | head -5', 'run'),
    bash('g2', 'git diff -- g2', 'run'),
    bash('g3', 'git status -- g3', 'stricter'),
    bash('g4', 'git push origin g4', 'refuse'),
    bash('g5', 'make g5', 'run'),
    bash('g6', 'make g6 && git diff -- g6', 'run'),
    bash('g7', 'git -C . diff -- g7', 'refuse'),
    bash('g8', 'make g8; git log -- g8', 'stricter'),
    bash('g9', 'git diff -- g9; curl g9', 'refuse'),
    bash('g10', 'git commit -m g10', 'refuse'),
  ]),
  table(
    {
      name: 'a bare Bash allow with deny rules, in the settings file',
      settings: { permissions: { allow: ['Bash'], deny: ['Bash(curl:*)', 'Bash(git push:*)'] } },
    },
    [
      bash('d1', 'curl d1', 'refuse'),
      bash('d2', 'npm test d2', 'run'),
      bash('d3', 'npm test d3 && curl d3', 'refuse'),
      bash('d4', 'git push origin d4', 'refuse'),
      bash('d5', 'timeout 5 curl d5', 'refuse'),
      bash('d6', '(curl d6)', 'stricter'),
      bash('d7', 'echo x | curl -d @- d7', 'refuse'),
      bash('d8', 'make d8 > out-d8.txt', 'run'),
      bash('d9', 'CI=1 curl d9', 'refuse'),
      bash('d10', 'make d10 || curl d10', 'refuse'),
      bash('d11', 'git status -- d11', 'run'),
      bash('d12', 'npm test d12 &', 'run'),
    ],
  ),
  table(
    {
      name: 'exact rules and wildcards from --allowedTools',
      allow: ['Bash(make w1)', 'Bash(npm run lint *)', 'Bash(npm * --ci)', 'Bash(probe:*)'],
      deny: ['Bash(probe danger:*)'],
    },
    [
      bash('w1', 'make w1', 'run'),
      bash('w2', 'make w1 w2', 'refuse'),
      bash('w3', 'npm run lint w3', 'run'),
      bash('w4', 'npm run linter w4', 'refuse'),
      bash('w5', 'npm w5 --ci', 'run'),
      bash('w6', 'npm w6 --ci --watch', 'refuse'),
      bash('w7', 'probe w7', 'run'),
      bash('w8', 'probe danger w8', 'refuse'),
      bash('w9', 'probe safe w9 && probe danger w9', 'refuse'),
      bash('w10', 'make w10', 'refuse'),
    ],
  ),
  table(
    {
      name: 'read-only commands beside Bash(npm test:*), with Read(.env) denied',
      allow: ['Bash(npm test:*)'],
      deny: ['Read(.env)'],
      files: {
        'notes.txt': 'TOKEN-o1 first\nmiddle\nTOKEN-o11 last\n',
        'sub/TOKEN-o2.txt': '',
        'lines.txt': 'TOKEN-o5-line\n',
        '.env': 'TOKEN-o15\n',
      },
    },
    [
      bash('o1', 'cat notes.txt', 'run', { output: 'TOKEN-o1' }),
      bash('o2', 'ls sub', 'run', { output: 'TOKEN-o2' }),
      bash('o3', 'head -n 1 notes.txt', 'run', { output: 'TOKEN-o1' }),
      bash('o4', 'grep o5-li lines.txt', 'run', { output: 'TOKEN-o5-line' }),
      bash('o5', 'tail -n 1 notes.txt', 'run', { output: 'TOKEN-o11' }),
      bash('o6', 'cat notes.txt | head -n 1', 'run', { output: 'TOKEN-o1' }),
      bash('o7', 'cd sub && ls', 'run', { output: 'TOKEN-o2' }),
      bash('o8', 'cat notes.txt > copy-o8.txt', 'refuse', { file: 'copy-o8.txt', contains: 'TOKEN-o1' }),
      bash('o9', 'cat .env', 'refuse', { output: 'TOKEN-o15' }),
      bash('o10', 'head .env', 'refuse', { output: 'TOKEN-o15' }),
      bash('o11', 'npm test o11 && cat notes.txt', 'run'),
      bash('o12', 'wc -l notes.txt && make o12', 'refuse'),
    ],
  ),
  table(
    {
      name: 'Read deny patterns from --disallowedTools',
      allow: ['Read'],
      deny: ['Read(secrets/**)', 'Read(.env)', 'Read(*.pem)', 'Read(/config/private.json)'],
      files: {
        'secrets/a.txt': 'TOKEN-r1\n',
        'config/secrets/b.txt': 'TOKEN-r2\n',
        '.env': 'TOKEN-r3\n',
        'app/.env': 'TOKEN-r4\n',
        'keys/x.pem': 'TOKEN-r5\n',
        'config/private.json': 'TOKEN-r6\n',
        'sub/config/private.json': 'TOKEN-r7\n',
        'src/ok.txt': 'TOKEN-r8\n',
        'docs/secrets.md': 'TOKEN-r9\n',
        'deep/er/secrets/c.txt': 'TOKEN-r10\n',
        'x.pem.txt': 'TOKEN-r11\n',
      },
    },
    [
      read('r1', 'secrets/a.txt', 'refuse'),
      read('r2', 'config/secrets/b.txt', 'refuse'),
      read('r3', '.env', 'refuse'),
      read('r4', 'app/.env', 'refuse'),
      read('r5', 'keys/x.pem', 'refuse'),
      read('r6', 'config/private.json', 'refuse'),
      read('r7', 'sub/config/private.json', 'run'),
      read('r8', 'src/ok.txt', 'run'),
      read('r9', 'docs/secrets.md', 'run'),
      read('r10', 'deep/er/secrets/c.txt', 'refuse'),
      read('r11', 'x.pem.txt', 'run'),
      read('r12', 'src/../secrets/a.txt', 'refuse'),
    ],
  ),
  table(
    {
      name: 'Edit rules over Write, from the settings file',
      settings: { permissions: { allow: ['Read', 'Edit(src/**)'], deny: ['Edit(src/generated/**)', 'Edit(**/*.lock)'] } },
      files: { 'src/.keep': '', 'lib/src/.keep': '' },
    },
    [
      write('e1', 'src/e1.txt', 'run'),
      write('e2', 'src/generated/e2.txt', 'refuse'),
      write('e3', 'lib/e3.txt', 'refuse'),
      write('e4', 'src/deps-e4.lock', 'refuse'),
      write('e5', 'src/generated-e5.txt', 'run'),
      write('e6', 'src/../lib/e6.txt', 'refuse'),
      write('e7', 'src/deep/e7.txt', 'run'),
      write('e8', 'README-e8.md', 'refuse'),
      write('e9', 'lib/src/e9.txt', 'stricter'),
      write('e10', 'lib/src/generated/e10.txt', 'stricter'),
    ],
  ),
  table(
    {
      name: 'MCP tools by name, from the settings file',
      settings: { enableAllProjectMcpServers: true, permissions: { allow: ['mcp__conf__alpha'], deny: ['mcp__conf__beta'] } },
      files: MCP_FILES,
    },
    [mcp('m1', 'alpha', 'run'), mcp('m2', 'beta', 'refuse'), mcp('m3', 'gamma', 'refuse')],
  ),
  table(
    {
      name: 'MCP tools by server, from the settings file',
      settings: { enableAllProjectMcpServers: true, permissions: { allow: ['mcp__conf'], deny: ['mcp__conf__gamma'] } },
      files: MCP_FILES,
    },
    [mcp('m4', 'alpha', 'run'), mcp('m5', 'beta', 'run'), mcp('m6', 'gamma', 'refuse')],
  ),
  table(
    {
      name: 'MCP servers off unless enabled',
      settings: { permissions: { allow: ['mcp__conf'] } },
      files: MCP_FILES,
    },
    [mcp('m7', 'alpha', 'stricter')],
  ),
];

let runs: Map<string, GroupRun>;

beforeAll(async () => {
  runs = await runGroups(
    TABLES.map((t) => t.group),
    3,
  );
}, 600_000);

const rows = TABLES.flatMap((t) => t.rows.map((row) => ({ table: t.group.name, row })));

test('there are at least 100 permission cases', () => {
  expect(rows.length).toBeGreaterThanOrEqual(100);
});

test.each(TABLES.map((t) => [t.group.name]))('%s: both CLIs went through every call', (name) => {
  const run = runs.get(name)!;
  for (const side of [run.claudeCode, run.agentAction]) {
    expect({ complete: side.complete, code: side.process.code, stderr: side.complete ? '' : side.process.stderr.slice(-2000) }).toEqual({
      complete: true,
      code: side.process.code,
      stderr: '',
    });
  }
});

test('the invariant: whatever Claude Code refuses, agent-action refuses', () => {
  const breaches = rows.flatMap(({ table: name, row }) => {
    const run = runs.get(name)!;
    const cc = run.claudeCode.outcomes.get(row.case.id)!;
    const aa = run.agentAction.outcomes.get(row.case.id)!;
    return !cc.ran && aa.ran ? [`${row.case.id} (${name}): ${JSON.stringify(row.case.call.input)}`] : [];
  });
  expect(breaches).toEqual([]);
});

test.each(rows.map(({ table: name, row }) => [row.case.id, row.expect, name, row]))('%s: %s (%s)', (_id, _expect, name, row) => {
  const run = runs.get(name)!;
  const { id } = row.case;
  const cc = run.claudeCode.outcomes.get(id)!;
  const aa = run.agentAction.outcomes.get(id)!;
  const expected = { run: [true, true], refuse: [false, false], stricter: [true, false] }[row.expect];
  const seen = {
    claudeCode: cc.ran,
    agentAction: aa.ran,
    results: { claudeCode: cc.result?.slice(0, 300), agentAction: aa.result?.slice(0, 300) },
  };
  expect(seen).toEqual({ claudeCode: expected[0], agentAction: expected[1], results: seen.results });
});
