// Hook handlers as Claude Code writes them: `if` conditions, the exec form, http hooks.
import { promises as fs } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { ToolCall } from '../../../src/core/tools.js';
import { RecordingToolSet } from '../../../test-support/recording-tools.js';
import { toolEnvironment } from '../../../src/tools/env.js';
import { commandLine } from '../../../src/tools/hooks/schema.js';
import { hookRunner, toolHooks, withHooks, type HookSettings, type ToolHooks } from '../../../src/tools/hooks/index.js';

let dir: string;
let logs: string[];
const signal = new AbortController().signal;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hook-handlers-'));
  logs = [];
});

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

function hooksOf(settings: HookSettings, env: Record<string, string> = {}): ToolHooks {
  const runner = hookRunner(settings, {
    cwd: dir,
    env: { ...toolEnvironment(process.env), ...env },
    sessionId: 'session-1',
    transcriptPath: path.join(dir, 'transcript.jsonl'),
    log: (message) => logs.push(message),
  });
  return toolHooks(runner);
}

const call = (name: string, input: Record<string, unknown>): ToolCall => ({ id: `toolu_${name}`, name, input });
const marker = (name: string) => path.join(dir, name);
const exists = (file: string) =>
  fs.stat(file).then(
    () => true,
    () => false,
  );

describe('if: a permission rule the call must match', () => {
  const guarded = (condition: string): HookSettings => ({
    PreToolUse: [{ hooks: [{ type: 'command', command: `touch "${marker('ran')}"; exit 2`, if: condition }] }],
  });

  it.each([
    ['Bash(git push:*)', call('Bash', { command: 'git push origin main' }), true],
    ['Bash(git push:*)', call('Bash', { command: 'git status' }), false],
    ['Bash(git push:*)', call('Bash', { command: 'npm test && git push' }), true],
    ['Bash', call('Bash', { command: 'ls' }), true],
    ['Bash', call('Read', { file_path: 'a.txt' }), false],
    ['Edit(src/**)', call('Edit', { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' }), true],
    ['Edit(src/**)', call('Edit', { file_path: 'docs/a.md', old_string: 'a', new_string: 'b' }), false],
  ])('%s for %j runs the hook: %s', async (condition, theCall, expected) => {
    const inner = new RecordingToolSet();
    const outcome = await withHooks(inner, hooksOf(guarded(condition))).execute(theCall, signal);
    expect(await exists(marker('ran'))).toBe(expected);
    expect(outcome.isError).toBe(expected);
    expect(inner.calls).toHaveLength(expected ? 0 : 1);
  });

  it('a condition that cannot be read runs the hook and says so', async () => {
    const outcome = await withHooks(new RecordingToolSet(), hooksOf(guarded('Bash(unclosed'))).execute(
      call('Bash', { command: 'ls' }),
      signal,
    );
    expect(outcome.isError).toBe(true);
    expect(await exists(marker('ran'))).toBe(true);
    expect(logs.join('\n')).toMatch(/if condition "Bash\(unclosed" cannot be read .*running it/);
  });
});

describe('exec form: command and args, no shell', () => {
  it('arguments stay literal words; ${CLAUDE_PROJECT_DIR} is the project directory', async () => {
    const script = marker('args.sh');
    await fs.writeFile(script, `#!/bin/bash\nprintf '%s\\n' "$@" > "${marker('argv')}"\n`, { mode: 0o755 });
    const args = ['${CLAUDE_PROJECT_DIR}/x', 'two words', '$HOME', "it's", '; touch pwned'];
    const settings: HookSettings = { PostToolUse: [{ hooks: [{ type: 'command', command: script, args }] }] };
    await withHooks(new RecordingToolSet(), hooksOf(settings)).execute(call('Read', { file_path: 'a' }), signal);
    expect((await fs.readFile(marker('argv'), 'utf8')).split('\n').slice(0, -1)).toEqual([
      `${dir}/x`,
      'two words',
      '$HOME',
      "it's",
      '; touch pwned',
    ]);
    expect(await exists(path.join(dir, 'pwned'))).toBe(false);
  });

  it('the command line shown in logs quotes what needs quoting', () => {
    expect(commandLine({ type: 'command', command: 'node', args: ['a b', '${CLAUDE_PROJECT_DIR}/h.js'] })).toBe(
      `node 'a b' "\${CLAUDE_PROJECT_DIR}"/h.js`,
    );
    expect(commandLine({ type: 'command', command: 'echo $HOME' })).toBe('echo $HOME');
  });
});

describe('http hooks', () => {
  let server: Server;
  let url: string;
  let received: { headers: IncomingMessage['headers']; body: Record<string, unknown> }[];
  let reply: { status: number; body: string };

  beforeEach(async () => {
    received = [];
    reply = { status: 200, body: '' };
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, body: JSON.parse(body) as Record<string, unknown> });
        res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });

  afterEach(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const httpPre = (extra: Record<string, unknown> = {}): HookSettings => ({
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'http', url, ...extra }] }],
  });

  it('receives the event as JSON; headers expand only the variables allowedEnvVars lists', async () => {
    const settings = httpPre({
      headers: { authorization: 'Bearer $HOOK_TOKEN', 'x-other': 'v${SECRET_ONE}v' },
      allowedEnvVars: ['HOOK_TOKEN'],
    });
    const inner = new RecordingToolSet();
    const outcome = await withHooks(inner, hooksOf(settings, { HOOK_TOKEN: 't0k', SECRET_ONE: 'leak' })).execute(
      call('Bash', { command: 'ls' }),
      signal,
    );
    expect(outcome).toEqual({ isError: false, content: 'ran Bash' });
    expect(received).toHaveLength(1);
    expect(received[0]?.body).toMatchObject({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } });
    expect(received[0]?.headers.authorization).toBe('Bearer t0k');
    expect(received[0]?.headers['x-other']).toBe('vv');
  });

  it('a JSON deny in the response refuses the call', async () => {
    reply = {
      status: 200,
      body: JSON.stringify({
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'not on CI' },
      }),
    };
    const inner = new RecordingToolSet();
    const outcome = await withHooks(inner, hooksOf(httpPre())).execute(call('Bash', { command: 'ls' }), signal);
    expect(inner.calls).toEqual([]);
    expect(outcome.content).toMatch(/^Hook refused: .*not on CI/);
  });

  it('a non-2xx status or an unreachable server refuses a PreToolUse call (fails closed) and only logs for PostToolUse', async () => {
    reply = { status: 500, body: 'boom' };
    const inner = new RecordingToolSet();
    const refused = await withHooks(inner, hooksOf(httpPre())).execute(call('Bash', { command: 'ls' }), signal);
    expect(inner.calls).toEqual([]);
    expect(refused.content).toMatch(/^Hook refused: .*HTTP 500/);

    const post: HookSettings = { PostToolUse: [{ hooks: [{ type: 'http', url: 'http://127.0.0.1:9/none' }] }] };
    const outcome = await withHooks(new RecordingToolSet(), hooksOf(post)).execute(call('Read', { file_path: 'a' }), signal);
    expect(outcome).toEqual({ isError: false, content: 'ran Read' });
    expect(logs.join('\n')).toMatch(/PostToolUse hook .*127\.0\.0\.1:9\/none.*ignored/);
  });
});
