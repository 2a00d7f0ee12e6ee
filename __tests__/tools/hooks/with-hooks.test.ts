import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ToolCall } from '../../../src/core/tools.js';
import { RecordingToolSet } from '../../../test-support/recording-tools.js';
import { toolEnvironment } from '../../../src/tools/env.js';
import { hookRunner, toolHooks, withHooks, type HookRun, type HookSettings, type ToolHooks } from '../../../src/tools/hooks/index.js';

let dir: string;
let runs: HookRun[];
let logs: string[];
const signal = new AbortController().signal;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hooks-'));
  runs = [];
  logs = [];
});

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** Writes an executable bash script to the temp dir; its path is the hook command. */
async function script(name: string, body: string): Promise<string> {
  const file = path.join(dir, name);
  await fs.writeFile(file, `#!/bin/bash\n${body}\n`, { mode: 0o755 });
  return file;
}

function hooksOf(settings: HookSettings): ToolHooks {
  const runner = hookRunner(settings, {
    cwd: dir,
    env: toolEnvironment(process.env),
    sessionId: 'session-1',
    transcriptPath: path.join(dir, 'transcript.jsonl'),
    onRun: (run) => runs.push(run),
    log: (message) => logs.push(message),
  });
  return toolHooks(runner);
}

const pre = (command: string, matcher?: string, timeout?: number): HookSettings => ({
  PreToolUse: [{ ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: 'command', command, ...(timeout ? { timeout } : {}) }] }],
});
const call = (name: string, input: Record<string, unknown> = { file_path: 'a.txt' }): ToolCall => ({ id: `toolu_${name}`, name, input });

describe('PreToolUse', () => {
  it('exit 2 blocks the call and gives the model stderr', async () => {
    const hook = await script('block.sh', 'echo "no writes to a.txt" >&2; exit 2');
    const inner = new RecordingToolSet();
    const outcome = await withHooks(inner, hooksOf(pre(hook))).execute(call('Write'), signal);
    expect(inner.calls).toEqual([]);
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toMatch(/^Hook refused: /);
    expect(outcome.content).toContain('no writes to a.txt');
    expect(outcome.content).toContain(hook);
    expect(runs).toEqual([
      { event: 'PreToolUse', command: hook, exitCode: 2, ms: expect.any(Number), timedOut: false, outcome: 'blocked' },
    ]);
  });

  it('JSON deny and ask refuse with the reason; allow and no decision run the call', async () => {
    const decide = (decision: string) =>
      script(
        `${decision}.sh`,
        `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"${decision}",` +
          `"permissionDecisionReason":"because ${decision}"}}'`,
      );
    for (const decision of ['deny', 'ask']) {
      const inner = new RecordingToolSet();
      const outcome = await withHooks(inner, hooksOf(pre(await decide(decision)))).execute(call('Bash'), signal);
      expect(inner.calls).toEqual([]);
      expect(outcome.isError).toBe(true);
      expect(outcome.content).toMatch(/^Hook refused: /);
      expect(outcome.content).toContain(`because ${decision}`);
    }
    for (const hook of [await decide('allow'), await script('silent.sh', 'exit 0'), await script('plain.sh', 'echo fine')]) {
      const inner = new RecordingToolSet();
      const outcome = await withHooks(inner, hooksOf(pre(hook))).execute(call('Bash'), signal);
      expect(inner.calls).toHaveLength(1);
      expect(outcome).toEqual({ isError: false, content: 'ran Bash' });
    }
  });

  it('decision "block" refuses with its reason', async () => {
    const hook = await script('block-json.sh', `echo '{"decision":"block","reason":"tests first"}'`);
    const inner = new RecordingToolSet();
    const outcome = await withHooks(inner, hooksOf(pre(hook))).execute(call('Edit'), signal);
    expect(inner.calls).toEqual([]);
    expect(outcome.content).toMatch(/^Hook refused: .*blocked the call: tests first/);
  });

  it('updatedInput replaces the input the call runs with; a non-object updatedInput refuses', async () => {
    const hook = await script('rewrite.sh', `echo '{"hookSpecificOutput":{"updatedInput":{"file_path":"b.txt","content":"x"}}}'`);
    const inner = new RecordingToolSet();
    await withHooks(inner, hooksOf(pre(hook))).execute(call('Write', { file_path: 'a.txt', content: 'x' }), signal);
    expect(inner.calls).toEqual([{ id: 'toolu_Write', name: 'Write', input: { file_path: 'b.txt', content: 'x' } }]);

    const bad = await script('rewrite-bad.sh', `echo '{"hookSpecificOutput":{"updatedInput":["b.txt"]}}'`);
    const refusedInner = new RecordingToolSet();
    const outcome = await withHooks(refusedInner, hooksOf(pre(bad))).execute(call('Write'), signal);
    expect(refusedInner.calls).toEqual([]);
    expect(outcome.content).toMatch(/^Hook refused: .*wrong shape.*updatedInput/);
  });

  it('additionalContext reaches the outcome', async () => {
    const hook = await script('context.sh', `echo '{"hookSpecificOutput":{"additionalContext":"remember the style guide"}}'`);
    const outcome = await withHooks(new RecordingToolSet(), hooksOf(pre(hook))).execute(call('Edit'), signal);
    expect(outcome.isError).toBe(false);
    expect(outcome.content).toMatch(/^ran Edit\n\n/);
    expect(outcome.content).toContain('remember the style guide');
  });

  it.each([
    ['crashes', 'echo "boom: missing jq" >&2; exit 1', undefined, /failed with exit code 1: boom: missing jq/],
    ['prints invalid JSON', `echo '{oops'`, undefined, /invalid JSON/],
    [
      'prints JSON of the wrong types',
      `echo '{"continue":"yes","hookSpecificOutput":{"permissionDecision":"maybe"}}'`,
      undefined,
      /wrong shape/,
    ],
    ['hangs past its timeout', 'sleep 30', 1, /did not finish within 1 s/],
  ])('fails closed when the hook %s', async (_what, body, timeout, reason) => {
    const hook = await script('broken.sh', body);
    const inner = new RecordingToolSet();
    const outcome = await withHooks(inner, hooksOf(pre(hook, undefined, timeout))).execute(call('Bash'), signal);
    expect(inner.calls).toEqual([]);
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toMatch(/^Hook refused: the PreToolUse hook `.*broken\.sh` /);
    expect(outcome.content).toMatch(reason);
    expect(runs.map((r) => r.outcome)).toEqual(['failed']);
    expect(logs.join('\n')).toContain('the call is refused');
  });

  it('refuses when the run is cancelled before the hooks ran', async () => {
    const hook = await script('ok.sh', 'exit 0');
    const controller = new AbortController();
    controller.abort();
    const inner = new RecordingToolSet();
    const outcome = await withHooks(inner, hooksOf(pre(hook))).execute(call('Bash'), controller.signal);
    expect(inner.calls).toEqual([]);
    expect(outcome.content).toMatch(/^Hook refused: /);
  });

  it('matcher Edit|Write matches Write but neither Read nor NotebookEdit; mcp__.* matches MCP tools', async () => {
    const hook = await script('log.sh', `cat >> "${dir}/seen"; echo >> "${dir}/seen"`);
    const set = withHooks(
      new RecordingToolSet(),
      hooksOf({ PreToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: hook }] }] }),
    );
    for (const name of ['Write', 'Read', 'NotebookEdit']) await set.execute(call(name), signal);
    const seen = (await fs.readFile(path.join(dir, 'seen'), 'utf8')).trim().split('\n');
    expect(seen.map((line) => (JSON.parse(line) as { tool_name: string }).tool_name)).toEqual(['Write']);

    const mcp = withHooks(new RecordingToolSet(), hooksOf(pre(await script('deny-mcp.sh', 'exit 2'), 'mcp__.*')));
    expect((await mcp.execute(call('mcp__github__create_issue'), signal)).isError).toBe(true);
    expect((await mcp.execute(call('Read'), signal)).isError).toBe(false);
  });

  it('any one of several hooks refusing wins, and all of them run', async () => {
    const ok = await script('ok.sh', `touch "${dir}/ok-ran"; sleep 1; echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`);
    const no = await script('no.sh', `touch "${dir}/no-ran"; sleep 1; echo nope >&2; exit 2`);
    const inner = new RecordingToolSet();
    const hooks = hooksOf({
      PreToolUse: [{ hooks: [{ type: 'command', command: ok }] }, { matcher: '*', hooks: [{ type: 'command', command: no }] }],
    });
    const outcome = await withHooks(inner, hooks).execute(call('Bash'), signal);
    expect(inner.calls).toEqual([]);
    expect(outcome.content).toContain('nope');
    await expect(fs.stat(path.join(dir, 'ok-ran'))).resolves.toBeTruthy();
    await expect(fs.stat(path.join(dir, 'no-ran'))).resolves.toBeTruthy();
    expect(runs.map((r) => [r.command, r.exitCode, r.outcome]).sort()).toEqual([
      [no, 2, 'blocked'],
      [ok, 0, 'ok'],
    ]);
  });

  it('continue: false refuses the call, reports the stop, and refuses later calls without hooks', async () => {
    const hook = await script('halt.sh', `echo '{"continue":false,"stopReason":"budget spent"}'`);
    const inner = new RecordingToolSet();
    const hooks = hooksOf(pre(hook));
    const set = withHooks(inner, hooks);
    expect((await set.execute(call('Bash'), signal)).content).toMatch(/^Hook refused: .*stopped the run: budget spent/);
    expect(hooks.stopRequested()).toBe('budget spent');
    expect((await set.execute(call('Read'), signal)).content).toMatch(/^Hook refused: a hook stopped the run \(budget spent\)/);
    expect(inner.calls).toEqual([]);
    expect(runs).toHaveLength(1);
  });
});

describe('PostToolUse and PostToolUseFailure', () => {
  const post = (command: string, timeout?: number, event: 'PostToolUse' | 'PostToolUseFailure' = 'PostToolUse'): HookSettings => ({
    [event]: [{ hooks: [{ type: 'command', command, ...(timeout ? { timeout } : {}) }] }],
  });

  it('exit 2 adds stderr to the result, which stays a success', async () => {
    const hook = await script('lint.sh', 'echo "lint: missing semicolon" >&2; exit 2');
    const outcome = await withHooks(new RecordingToolSet(), hooksOf(post(hook))).execute(call('Edit'), signal);
    expect(outcome.isError).toBe(false);
    expect(outcome.content).toMatch(/^ran Edit\n\nPostToolUse hook feedback:\n/);
    expect(outcome.content).toContain('lint: missing semicolon');
  });

  it('decision "block" adds its reason and additionalContext is added too, also to image results', async () => {
    const hook = await script(
      'post-json.sh',
      `echo '{"decision":"block","reason":"format it","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"ctx"}}'`,
    );
    const inner = new RecordingToolSet(() => ({ isError: false, content: [{ type: 'text', text: 'image follows' }] }));
    const outcome = await withHooks(inner, hooksOf(post(hook))).execute(call('Read'), signal);
    expect(Array.isArray(outcome.content)).toBe(true);
    const texts = Array.isArray(outcome.content) ? outcome.content.map((part) => (part.type === 'text' ? part.text : '')) : [];
    expect(texts[0]).toBe('image follows');
    expect(texts[1]).toContain('format it');
    expect(texts[1]).toContain('ctx');
  });

  it('a hook that hangs is killed and the result is still returned', async () => {
    const hook = await script('hang.sh', 'sleep 30');
    const outcome = await withHooks(new RecordingToolSet(), hooksOf(post(hook, 1))).execute(call('Edit'), signal);
    expect(outcome).toEqual({ isError: false, content: 'ran Edit' });
    expect(runs[0]).toMatchObject({ event: 'PostToolUse', timedOut: true, outcome: 'failed' });
    expect(logs.join('\n')).toMatch(/PostToolUse hook .* did not finish within 1 s.*ignored/);
  });

  it('a hook that crashes or prints invalid JSON fails open', async () => {
    for (const body of ['exit 1', `echo '{oops'`]) {
      const hook = await script('bad.sh', body);
      const outcome = await withHooks(new RecordingToolSet(), hooksOf(post(hook))).execute(call('Edit'), signal);
      expect(outcome).toEqual({ isError: false, content: 'ran Edit' });
    }
    expect(logs).toHaveLength(2);
  });

  it('PostToolUseFailure hooks see failed calls, with the error, and PostToolUse hooks do not', async () => {
    const failure = await script('failure.sh', `cat > "${dir}/failure.json"; echo "try again" >&2; exit 2`);
    const success = await script('success.sh', `touch "${dir}/success-ran"`);
    const settings: HookSettings = { ...post(success), ...post(failure, undefined, 'PostToolUseFailure') };
    const inner = new RecordingToolSet(() => ({ isError: true, content: 'file not found' }));
    const outcome = await withHooks(inner, hooksOf(settings)).execute(call('Read'), signal);
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toMatch(/^file not found\n\nPostToolUseFailure hook feedback:\n.*try again/);
    const input = JSON.parse(await fs.readFile(path.join(dir, 'failure.json'), 'utf8')) as Record<string, unknown>;
    expect(input).toMatchObject({ hook_event_name: 'PostToolUseFailure', tool_name: 'Read', error: 'file not found', is_interrupt: false });
    expect(input['duration_ms']).toEqual(expect.any(Number));
    expect('tool_response' in input).toBe(false);
    await expect(fs.stat(path.join(dir, 'success-ran'))).rejects.toThrow();
  });

  it('sees the input the call ran with, and continue: false keeps the result but asks to stop', async () => {
    const rewrite = await script('rewrite.sh', `echo '{"hookSpecificOutput":{"updatedInput":{"command":"npm test -- --ci"}}}'`);
    const after = await script('after.sh', `cat > "${dir}/post.json"; echo '{"continue":false,"stopReason":"done enough"}'`);
    const hooks = hooksOf({ ...pre(rewrite), ...post(after) });
    const outcome = await withHooks(new RecordingToolSet(), hooks).execute(call('Bash', { command: 'npm test' }), signal);
    expect(outcome).toEqual({ isError: false, content: 'ran Bash' });
    expect(hooks.stopRequested()).toBe('done enough');
    const input = JSON.parse(await fs.readFile(path.join(dir, 'post.json'), 'utf8')) as Record<string, unknown>;
    expect(input).toMatchObject({ tool_input: { command: 'npm test -- --ci' }, tool_response: 'ran Bash', tool_use_id: 'toolu_Bash' });
  });
});
