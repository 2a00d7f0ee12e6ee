import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startAnthropicServer, type AnthropicServer } from '../../test-support/anthropic-server.js';
import { childEnv, cleanHome, makeRepo, runCli } from '../../test-support/cli-process.js';

const KEY = 'sk-ant-canary-hooks-5150';
let server: AnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });
const tool = (name: string, input: unknown) => ({ content: [{ type: 'tool_use' as const, name, input }] });

function lastUserContent(s: AnthropicServer, index: number): string {
  const messages = s.requests[index]!.body.messages;
  return JSON.stringify(messages[messages.length - 1]!.content);
}

/** The stdin JSON's field, read with node (no jq on a runner by default). */
const field = (path: string) =>
  `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const j=JSON.parse(s);console.log(${path})})'`;

const HOOKS = {
  '.claude/hooks/format.sh': `#!/bin/bash\nfile=$(${field('j.tool_input.file_path')})\necho "// formatted" >> "$file"\n`,
  '.claude/hooks/scan.sh': `#!/bin/bash\nif grep -q 'sk-live' ; then echo 'a secret is in the command' >&2; exit 2; fi\nexit 0\n`,
  '.claude/hooks/stop.sh': `#!/bin/bash\nactive=$(${field('j.stop_hook_active')})\nif [ "$active" = "false" ]; then echo 'run the tests before you finish' >&2; exit 2; fi\n`,
  '.claude/hooks/env.sh': `#!/bin/bash\nenv > hook-env.txt\ntr '\\0' '\\n' < /proc/$PPID/environ > hook-parent-env.txt\n`,
};

const SETTINGS = {
  hooks: {
    PostToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'bash "$CLAUDE_PROJECT_DIR/.claude/hooks/format.sh"' }] }],
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'bash .claude/hooks/scan.sh' }] }],
    Stop: [{ hooks: [{ type: 'command', command: 'bash .claude/hooks/stop.sh' }] }],
    SessionStart: [{ hooks: [{ type: 'command', command: 'bash .claude/hooks/env.sh' }] }],
  },
};

describe('hooks through the CLI (dist/cli/index.js), with real hook scripts', () => {
  it('formats after edits, blocks a leaking command, holds the stop once, and never shows a hook the key', async () => {
    server = await startAnthropicServer({
      requireApiKey: KEY,
      script: [
        tool('Write', { file_path: 'src/a.js', content: 'export const a = 1;\n' }),
        tool('Bash', { command: 'echo sk-live-0123 > leak.txt' }),
        tool('Bash', { command: 'echo fine > ok.txt' }),
        text('Done.'),
        text('Tests pass. Done.'),
      ],
    });
    const home = await cleanHome();
    const repo = await makeRepo({ 'README.md': 'x\n', '.claude/settings.json': JSON.stringify(SETTINGS), ...HOOKS }, home);
    const transcript = join(home, 'run.jsonl');
    const r = await runCli(
      ['--cwd', repo, '--json', '--transcript', transcript, 'write a'],
      childEnv(home, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url }),
    );
    expect(r.code).toBe(0);
    expect(readFileSync(join(repo, 'src/a.js'), 'utf8')).toBe('export const a = 1;\n// formatted\n');
    expect(existsSync(join(repo, 'leak.txt'))).toBe(false);
    expect(lastUserContent(server, 2)).toMatch(/Hook refused:.*a secret is in the command/);
    expect(existsSync(join(repo, 'ok.txt'))).toBe(true);
    // The first stop was held with the hook's words; the second went through.
    expect(server.requests).toHaveLength(5);
    expect(lastUserContent(server, 4)).toMatch(/Stop hook feedback:.*run the tests before you finish/);
    expect(JSON.parse(r.stdout)).toMatchObject({ conclusion: 'success', result: 'Tests pass. Done.' });
    for (const file of ['hook-env.txt', 'hook-parent-env.txt']) expect(readFileSync(join(repo, file), 'utf8')).not.toContain(KEY);
    const hookEnv = readFileSync(join(repo, 'hook-env.txt'), 'utf8');
    expect(hookEnv).not.toMatch(/ANTHROPIC_API_KEY/);
    expect(hookEnv).toContain(`CLAUDE_PROJECT_DIR=${repo}`);
    const records = readFileSync(transcript, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const runs = records.filter((x) => x['event'] === 'hook');
    expect(runs.map((x) => x['hook_event'])).toEqual(expect.arrayContaining(['SessionStart', 'PostToolUse', 'PreToolUse', 'Stop']));
    expect(runs.find((x) => x['hook_event'] === 'PreToolUse' && x['exit_code'] === 2)).toBeDefined();
    expect(r.stderr).toMatch(/hook PreToolUse: bash \.claude\/hooks\/scan\.sh \(exit 2/);
  });

  it('refuses the call when a PreToolUse hook crashes, and ends the run as stopped on continue: false', async () => {
    server = await startAnthropicServer({ requireApiKey: KEY, script: [tool('Bash', { command: 'touch ran.txt' }), text('ok')] });
    const home = await cleanHome();
    const crash = { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'exit 1' }] }] } };
    const repo = await makeRepo({ 'README.md': 'x\n', '.claude/settings.json': JSON.stringify(crash) }, home);
    const env = childEnv(home, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url });
    const r = await runCli(['--cwd', repo, 'touch it'], env);
    expect(r.code).toBe(0);
    expect(existsSync(join(repo, 'ran.txt'))).toBe(false);
    expect(lastUserContent(server, 1)).toMatch(/Hook refused:/);

    const frozen = JSON.stringify({ continue: false, stopReason: 'the repository is frozen' });
    const stop = { hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `echo '${frozen}'` }] }] } };
    const before = server.requests.length;
    const s = await runCli(['--cwd', repo, '--settings', JSON.stringify(stop), '--setting-sources', 'none', '--json', 'do it'], env);
    expect(s.code).toBe(1);
    expect(JSON.parse(s.stdout)).toMatchObject({ conclusion: 'stopped', steps: 0 });
    expect((JSON.parse(s.stdout) as { reason: string }).reason).toMatch(/the repository is frozen/);
    expect(server.requests.length).toBe(before);
  });

  it('runs SubagentStop hooks when a subagent ends: one holds it once with feedback, and the subagent answers again', async () => {
    server = await startAnthropicServer({
      requireApiKey: KEY,
      script: [
        tool('Task', { description: 'look around', prompt: 'List the files.', subagent_type: 'general-purpose' }),
        text('sub done'),
        text('sub checked'),
        text('All done.'),
      ],
    });
    const home = await cleanHome();
    const hook = `#!/bin/bash\ncat >> subagent-stop.jsonl; echo >> subagent-stop.jsonl\nif [ "$(tail -n 2 subagent-stop.jsonl | ${field('j.stop_hook_active')})" = "false" ]; then echo 'check again' >&2; exit 2; fi\n`;
    const settings = { hooks: { SubagentStop: [{ hooks: [{ type: 'command', command: 'bash .claude/hooks/sub.sh' }] }] } };
    const repo = await makeRepo(
      { 'README.md': 'x\n', '.claude/settings.json': JSON.stringify(settings), '.claude/hooks/sub.sh': hook },
      home,
    );
    const r = await runCli(['--cwd', repo, '--json', 'look'], childEnv(home, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url }));
    expect(r.code).toBe(0);
    expect(server.requests).toHaveLength(4);
    expect(lastUserContent(server, 2)).toMatch(/SubagentStop hook feedback:.*check again/);
    expect(lastUserContent(server, 3)).toContain('sub checked');
    const inputs = readFileSync(join(repo, 'subagent-stop.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(inputs.map((i) => [i['hook_event_name'], i['stop_hook_active']])).toEqual([
      ['SubagentStop', false],
      ['SubagentStop', true],
    ]);
    expect(JSON.parse(r.stdout)).toMatchObject({ conclusion: 'success', result: 'All done.' });
  });

  it.each([['off'], ['strict']])(
    'settings env reaches Bash and hooks (sandbox %s); exec-form args and if work; disableAllHooks in the local file turns hooks off',
    async (sandbox) => {
      server = await startAnthropicServer({
        requireApiKey: KEY,
        script: [
          tool('Bash', { command: 'printenv AGENT_FLAVOUR > bash.txt' }),
          tool('Bash', { command: 'git status --short' }),
          text('ok'),
        ],
      });
      const home = await cleanHome();
      const record = '#!/bin/bash\necho "$1:$AGENT_FLAVOUR:$(' + field('j.tool_input.command') + ')" >> hook.txt\n';
      const settings = {
        env: { AGENT_FLAVOUR: 'mint' },
        hooks: {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [
                { type: 'command', command: 'bash', args: ['${CLAUDE_PROJECT_DIR}/.claude/hooks/record.sh', 'every call'] },
                {
                  type: 'command',
                  command: 'bash',
                  args: ['${CLAUDE_PROJECT_DIR}/.claude/hooks/record.sh', 'git only'],
                  if: 'Bash(git *)',
                },
              ],
            },
          ],
        },
      };
      const repo = await makeRepo(
        { 'README.md': 'x\n', '.claude/settings.json': JSON.stringify(settings), '.claude/hooks/record.sh': record },
        home,
      );
      const env = childEnv(home, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url });
      const r = await runCli(['--cwd', repo, '--sandbox', sandbox, '--json', 'go'], env);
      expect(r.code).toBe(0);
      expect(readFileSync(join(repo, 'bash.txt'), 'utf8')).toBe('mint\n');
      // The hooks of one call run together: their lines may come in either order.
      expect(readFileSync(join(repo, 'hook.txt'), 'utf8').trim().split('\n').sort()).toEqual([
        'every call:mint:git status --short',
        'every call:mint:printenv AGENT_FLAVOUR > bash.txt',
        'git only:mint:git status --short',
      ]);

      const off = JSON.stringify({ disableAllHooks: true });
      const again = await startAnthropicServer({
        requireApiKey: KEY,
        script: [tool('Bash', { command: 'git status --short' }), text('ok')],
      });
      await server.close();
      server = again;
      rmSync(join(repo, 'hook.txt'));
      writeFileSync(join(repo, '.claude/settings.local.json'), off);
      const q = await runCli(['--cwd', repo, '--sandbox', sandbox, '--json', 'go'], { ...env, ANTHROPIC_BASE_URL: again.url });
      expect(q.code).toBe(0);
      expect(existsSync(join(repo, 'hook.txt'))).toBe(false);
    },
  );
});
