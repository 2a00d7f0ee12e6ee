import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startAnthropicServer, type AnthropicServer } from '../../test-support/anthropic-server.js';
import { childEnv, cleanHome, makeRepo, runCli, startCli } from '../../test-support/cli-process.js';

const KEY = 'sk-ant-canary-4f9a1c7e2b';
let server: AnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const tool = (name: string, input: unknown) => ({ content: [{ type: 'tool_use' as const, name, input }] });
const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });

function resultsOf(s: AnthropicServer, index: number): string {
  const messages = s.requests[index]!.body.messages;
  return JSON.stringify(messages[messages.length - 1]!.content);
}

const BROKEN_REPO = {
  'package.json': '{ "name": "calc", "type": "module", "scripts": { "test": "node --test" } }\n',
  'math.js': 'export function add(a, b) {\n  return a - b;\n}\n',
  'math.test.js':
    "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add } from './math.js';\n\ntest('adds', () => {\n  assert.equal(add(2, 3), 5);\n});\n",
};

describe('agent-action CLI (dist/cli/index.js)', () => {
  it('fixes a failing node --test test in a real repository', async () => {
    server = await startAnthropicServer({
      requireApiKey: KEY,
      script: [
        tool('Bash', { command: 'node --test 2>&1 | tail -5', description: 'run the tests' }),
        tool('Read', { file_path: 'math.js' }),
        tool('Edit', { file_path: 'math.js', old_string: 'return a - b;', new_string: 'return a + b;' }),
        tool('Bash', { command: 'node --test 2>&1 | tail -5' }),
        text('Fixed `add` in math.js: it subtracted instead of adding. `node --test` passes.'),
      ],
    });
    const home = await cleanHome();
    const repo = await makeRepo(BROKEN_REPO, home);
    const transcript = join(home, 'run.jsonl');
    const r = await runCli(
      ['--cwd', repo, '--json', '--transcript', transcript, 'fix the failing test'],
      childEnv(home, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url }),
    );

    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(out).toMatchObject({ conclusion: 'success', steps: 5, changed_files: ['math.js'] });
    expect(out['result']).toMatch(/Fixed `add`/);
    expect(Object.keys(out['usage'] as object).sort()).toEqual([
      'cache_creation_input_tokens',
      'cache_read_input_tokens',
      'input_tokens',
      'output_tokens',
    ]);
    expect(out['cost_usd']).toBeGreaterThan(0);
    expect(resultsOf(server, 1)).toMatch(/fail 1/);
    expect(resultsOf(server, 4)).toMatch(/# fail 0.*exit code 0/);
    execFileSync('node', ['--test'], { cwd: repo, stdio: 'ignore' });
    expect(server.validationErrors).toEqual([]);

    expect(r.stderr).toMatch(/→ Bash node --test/);
    expect(r.stderr).toMatch(/→ Edit math\.js/);
    expect(r.stderr).toMatch(/success · 5 steps · \S+ input tokens.*, \S+ output tokens · \$\d/);
    const records = (await readFile(transcript, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; event?: string });
    expect(records[0]!.type).toBe('system');
    expect(records.filter((x) => x.type === 'assistant')).toHaveLength(5);
    expect(records.filter((x) => x.event === 'usage')).toHaveLength(5);
    expect(records[records.length - 1]).toMatchObject({ type: 'meta', event: 'conclusion', conclusion: 'success' });
  });

  it('keeps the API key out of everything a tool can see, /proc included', async () => {
    server = await startAnthropicServer({
      requireApiKey: KEY,
      script: [
        {
          content: [
            {
              type: 'tool_use',
              name: 'Bash',
              input: {
                command:
                  'env; echo ---; tr "\\0" "\\n" < /proc/$PPID/environ; echo ---; cat /proc/self/environ | tr "\\0" "\\n"; grep -rs sk-ant /proc/*/environ | head',
              },
            },
            { type: 'tool_use', name: 'Read', input: { file_path: '/proc/self/environ' } },
            { type: 'tool_use', name: 'Bash', input: { command: 'ln -s /proc/self/environ env.txt && cat env.txt' } },
          ],
        },
        tool('Read', { file_path: 'env.txt' }),
        text('nothing found'),
      ],
    });
    const home = await cleanHome();
    const repo = await makeRepo({ 'README.md': 'hi\n' }, home);
    const r = await runCli(
      ['--cwd', repo, '--json', 'look for secrets'],
      childEnv(home, {
        ANTHROPIC_API_KEY: KEY,
        ANTHROPIC_BASE_URL: server.url,
        GITHUB_TOKEN: 'ghs_canarytoken123',
        INPUT_SECRET: 'input-canary-77',
      }),
    );
    expect(r.code).toBe(0);
    const sent = JSON.stringify(server.requests.map((q) => q.body.messages));
    expect(sent).toMatch(/PATH=/); // the commands did run and print an environment
    expect(sent).not.toContain(KEY);
    expect(sent).not.toContain('ghs_canarytoken123');
    expect(sent).not.toContain('input-canary-77');
    expect(resultsOf(server, 2)).toMatch(/is_error/);
  });

  it('stops on SIGTERM during a tool, kills it, reports, and --resume carries on', async () => {
    server = await startAnthropicServer({ requireApiKey: KEY, script: [tool('Bash', { command: 'sleep 30' }), text('Resumed and done.')] });
    const home = await cleanHome();
    const repo = await makeRepo({ 'README.md': 'hi\n' }, home);
    const transcript = join(home, 'run.jsonl');
    const env = childEnv(home, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url });
    const run = startCli(['--cwd', repo, '--json', '--transcript', transcript, 'wait a while'], env);
    for (let i = 0; i < 100 && !run.stderrSoFar().includes('→ Bash'); i++) await new Promise((r) => setTimeout(r, 50));
    const signalled = Date.now();
    run.child.kill('SIGTERM');
    const r = await run.done;
    expect(Date.now() - signalled).toBeLessThan(5000);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ conclusion: 'cancelled' });

    const resumed = await runCli(['--resume', transcript, '--json', '--cwd', repo], env);
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ conclusion: 'success', result: 'Resumed and done.' });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.body.messages.length).toBeGreaterThanOrEqual(3);
    expect(server.validationErrors).toEqual([]);
  });

  it('resumes a transcript that ends in a tool_use without a result', async () => {
    server = await startAnthropicServer({ requireApiKey: KEY, script: [text('Picked up again.')] });
    const home = await cleanHome();
    const repo = await makeRepo({ 'README.md': 'hi\n' }, home);
    const transcript = join(home, 'crashed.jsonl');
    const lines = [
      { type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'task' }] } },
      {
        type: 'assistant',
        message: {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Running.' },
            { type: 'tool_use', id: 'toolu_dangling', name: 'Bash', input: { command: 'make' } },
          ],
        },
      },
    ];
    await writeFile(transcript, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const r = await runCli(
      ['--resume', transcript, '--json', '--cwd', repo],
      childEnv(home, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url }),
    );
    expect(r.code).toBe(0);
    expect(JSON.stringify(server.requests[0]!.body.messages)).not.toContain('toolu_dangling');
    expect(server.validationErrors).toEqual([]);
  });

  it('runs Bash under bubblewrap with --sandbox auto when it is available', async () => {
    server = await startAnthropicServer({
      requireApiKey: KEY,
      script: [tool('Bash', { command: "ls /proc | grep -c '^[0-9]'" }), text('counted')],
    });
    const home = await cleanHome();
    const repo = await makeRepo({ 'README.md': 'hi\n' }, home);
    const r = await runCli(
      ['--cwd', repo, '--json', '--sandbox', 'auto', 'count processes'],
      childEnv(home, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url }),
    );
    expect(r.code).toBe(0);
    const count = Number(/"content":"(\d+)/.exec(resultsOf(server, 1))?.[1]);
    if (/WITHOUT a sandbox/.test(r.stderr)) {
      console.log('cli: bubblewrap unavailable, ran without a sandbox');
      expect(count).toBeGreaterThan(0);
    } else {
      expect(count).toBeLessThan(10);
    }
  });

  it.each([
    [['--sandbox', 'maybe', 'task'], /--sandbox/],
    [['--max-steps', 'lots', 'task'], /--max-steps/],
    [['task'], /ANTHROPIC_API_KEY/],
  ])('exits 2 for bad usage or configuration: %j', async (args, message) => {
    const home = await cleanHome();
    const env = childEnv(home, args[0] === 'task' ? {} : { ANTHROPIC_API_KEY: KEY });
    const r = await runCli(args, env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('exits 1 with the conclusion when a limit stops the run', async () => {
    server = await startAnthropicServer({ requireApiKey: KEY, script: () => tool('Bash', { command: 'true' }) });
    const home = await cleanHome();
    const repo = await makeRepo({ 'README.md': 'hi\n' }, home);
    const r = await runCli(
      ['--cwd', repo, '--json', '--max-steps', '2', 'loop'],
      childEnv(home, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url }),
    );
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ conclusion: 'max-steps', steps: 2, changed_files: [] });
  });

  it('says what is wrong with a flag or a settings file in words, before any request', async () => {
    server = await startAnthropicServer({ requireApiKey: KEY, script: [text('never')] });
    const home = await cleanHome();
    const repo = await makeRepo(
      {
        'README.md': 'hi\n',
        '.claude/settings.json': '{"hooks": {"Stop": [{"hooks": [{"type": "command", "timeout": -1, "command": "true"}]}]}}',
      },
      home,
    );
    const env = childEnv(home, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url });
    const flags = await runCli(['--cwd', repo, '--max-steps', '0', '--prices', '{"m": {"input": -1, "output": 1}}', 'x'], env);
    expect(flags.code).toBe(2);
    expect(flags.stderr).toContain('--max-steps: Too small: expected number to be >0');
    expect(flags.stderr).toContain('--prices / AGENT_ACTION_PRICES: Too small: expected number to be >=0');
    const file = await runCli(['--cwd', repo, 'x'], env);
    expect(file.code).toBe(2);
    expect(file.stderr).toContain('.claude/settings.json: hooks.Stop[0].hooks[0].timeout: timeout must be a positive number of seconds');
    expect(server.requests).toHaveLength(0);
  });
});
