import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startAnthropicServer, type AnthropicServer } from '../../test-support/anthropic-server.js';
import { childEnv, cleanHome, makeRepo, runCli } from '../../test-support/cli-process.js';

const KEY = 'sk-ant-canary-rules-77';
let server: AnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });
const calls = (list: { name: string; input: unknown }[]) => ({
  content: list.map((c, i) => ({ type: 'tool_use' as const, id: `toolu_rule_${i}`, name: c.name, input: c.input })),
});

function toolResults(s: AnthropicServer, index: number): { tool_use_id: string; content: string; is_error?: boolean }[] {
  const messages = s.requests[index]!.body.messages;
  const last = messages[messages.length - 1]!;
  if (typeof last.content === 'string') return [];
  return last.content.flatMap((b) =>
    b.type === 'tool_result'
      ? [{ tool_use_id: String(b['tool_use_id']), content: JSON.stringify(b['content']), is_error: b['is_error'] === true }]
      : [],
  );
}

const REPO = {
  'package.json': '{ "name": "calc", "scripts": { "test": "echo the tests ran > ran.txt" } }\n',
  'evil.sh': 'touch m-source\n',
};

/** Each would create a marker file named in it if it ran; `Bash(npm test:*)` must refuse all. */
const BYPASSES = [
  'npm test $(touch m-subst)',
  'npm test `touch m-backtick`',
  'npm test; touch m-semicolon',
  'npm test && touch m-and',
  'npm test || touch m-or',
  'npm test | touch m-pipe',
  'npm test & touch m-background',
  'npm test\ntouch m-newline',
  'eval "touch m-eval"',
  'source ./evil.sh',
  '. ./evil.sh',
  'npm\\ test; touch m-escaped',
  'PATH=/tmp touch m-assign',
  '/usr/bin/touch m-absolute',
  'npm test <(touch m-procsubst)',
  'npm test > m-redirect',
  'bash -c "touch m-shell"',
  'cat <<EOF | sh\ntouch m-heredoc\nEOF',
  'npm testx; touch m-prefix',
  'touch m-plain',
];

describe('tool rules through the CLI (dist/cli/index.js)', () => {
  it('refuses every Bash bypass of Bash(npm test:*) without running it, and runs npm test itself', async () => {
    const bash = BYPASSES.map((command) => ({ name: 'Bash', input: { command } }));
    server = await startAnthropicServer({
      requireApiKey: KEY,
      script: [calls([...bash, { name: 'Bash', input: { command: 'npm test' } }]), text('done')],
    });
    const home = await cleanHome();
    const repo = await makeRepo(REPO, home);
    const r = await runCli(
      ['--cwd', repo, '--allowed-tools', 'Read,Bash(npm test:*)', '--json', 'try the commands'],
      childEnv(home, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url }),
    );
    expect(r.code).toBe(0);
    const results = toolResults(server, 1);
    expect(results).toHaveLength(BYPASSES.length + 1);
    for (const result of results.slice(0, BYPASSES.length)) {
      expect(result.is_error).toBe(true);
      expect(result.content).toMatch(/^"Permission denied:/);
    }
    expect(results[BYPASSES.length]!.is_error).toBe(false);
    expect(existsSync(join(repo, 'ran.txt'))).toBe(true);
    const markers = ['subst', 'backtick', 'semicolon', 'and', 'or', 'pipe', 'background', 'newline', 'eval', 'source', 'escaped'];
    for (const name of [...markers, 'assign', 'absolute', 'procsubst', 'redirect', 'shell', 'heredoc', 'prefix', 'plain']) {
      expect(existsSync(join(repo, `m-${name}`))).toBe(false);
    }
    // The tools offered are those the rules name: Read and Bash, nothing else.
    expect(server.requests[0]!.body.tools?.map((t) => t.name)).toEqual(['Read', 'Bash']);
  });

  it('applies the deny rules of .claude/settings.json in --cwd, and ignores them with --setting-sources none', async () => {
    const edit = { name: 'Edit', input: { file_path: 'secret/key.txt', old_string: 'old', new_string: 'new' } };
    const files = {
      ...REPO,
      'secret/key.txt': 'old\n',
      '.claude/settings.json': '{"permissions": {"deny": ["Edit(secret/**)"]}, "model": "x"}\n',
    };
    for (const sources of ['all', 'none']) {
      server = await startAnthropicServer({ requireApiKey: KEY, script: [calls([edit]), text('done')] });
      const home = await cleanHome();
      const repo = await makeRepo(files, home);
      const r = await runCli(
        ['--cwd', repo, '--setting-sources', sources, 'edit the key'],
        childEnv(home, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url }),
      );
      expect(r.code).toBe(0);
      const [result] = toolResults(server, 1);
      if (sources === 'all') {
        expect(result!.content).toMatch(/Permission denied:.*Edit\(secret\/\*\*\).*\.claude\/settings\.json/);
        expect(r.stderr).toMatch(/ignoring settings agent-action does not use: model/);
      } else {
        expect(result!.is_error).toBe(false);
      }
      await server.close();
      server = undefined;
    }
  });

  it('fails at start, naming the rule and where it came from, when a rule does not parse', async () => {
    server = await startAnthropicServer({ requireApiKey: KEY, script: [text('never')] });
    const home = await cleanHome();
    const repo = await makeRepo(REPO, home);
    const env = childEnv(home, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url });
    const bad = await runCli(['--cwd', repo, '--allowed-tools', 'Read,Bash(npm test', 'x'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--allowed-tools: .*Bash\(npm test/);
    await mkdir(join(repo, '.claude'), { recursive: true });
    await writeFile(join(repo, '.claude', 'settings.json'), '{"permissions": {"deny": ["Edit("]}}');
    const fromFile = await runCli(['--cwd', repo, 'x'], env);
    expect(fromFile.code).toBe(2);
    expect(fromFile.stderr).toMatch(/"Edit\(".*\.claude\/settings\.json permissions\.deny/);
    await writeFile(join(repo, '.claude', 'settings.json'), '{"permissions": {"allow": "Bash"}}');
    const malformed = await runCli(['--cwd', repo, 'x'], env);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/\.claude\/settings\.json: permissions\.allow/);
    expect(server.requests).toHaveLength(0);
  });
});
