import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ToolCall, ToolOutcome, ToolSet, ToolSpec } from '../../src/core/tools.js';
import { toolEnvironment } from '../../src/tools/env.js';
import { sessionHookEvents, type SessionHookEvents } from '../../src/session/hook-events.js';
import {
  hookRunner,
  toolHooks,
  withHooks,
  type HookContext,
  type HookEvent,
  type HookRun,
  type HookSettings,
  type ToolHooks,
} from '../../src/tools/hooks/index.js';

class OkToolSet implements ToolSet {
  specs(): readonly ToolSpec[] {
    return [];
  }
  isReadOnly(): boolean {
    return false;
  }
  async execute(call: ToolCall): Promise<ToolOutcome> {
    return { isError: false, content: `ran ${call.name}` };
  }
}

let dir: string;
let runs: HookRun[];
let logs: string[];
const signal = new AbortController().signal;
const savedKey = process.env.ANTHROPIC_API_KEY;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hooks-'));
  runs = [];
  logs = [];
});

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
  if (savedKey === undefined) delete process.env.ANTHROPIC_API_KEY;
  else process.env.ANTHROPIC_API_KEY = savedKey;
});

async function script(name: string, body: string): Promise<string> {
  const file = path.join(dir, name);
  await fs.writeFile(file, `#!/bin/bash\n${body}\n`, { mode: 0o755 });
  return file;
}

/** Both halves over one runner, as a session wires them: a stop asked by either is seen by both. */
function hooksOf(settings: HookSettings, extra: Partial<HookContext> = {}): ToolHooks & SessionHookEvents {
  const runner = hookRunner(settings, {
    cwd: dir,
    env: toolEnvironment(process.env),
    sessionId: 'session-1',
    transcriptPath: path.join(dir, 'transcript.jsonl'),
    onRun: (run) => runs.push(run),
    log: (message) => logs.push(message),
    ...extra,
  });
  return { ...toolHooks(runner), ...sessionHookEvents(runner) };
}

const one = (event: HookEvent, ...commands: string[]): HookSettings => ({
  [event]: [{ hooks: commands.map((command) => ({ type: 'command' as const, command })) }],
});

async function readJson(file: string): Promise<Record<string, unknown>> {
  return JSON.parse(await fs.readFile(path.join(dir, file), 'utf8')) as Record<string, unknown>;
}

describe('the input a hook gets', () => {
  const common = () => ({
    session_id: 'session-1',
    transcript_path: path.join(dir, 'transcript.jsonl'),
    cwd: dir,
    permission_mode: 'dontAsk',
  });

  it('has the documented fields for every event', async () => {
    const save = (name: string) => script(`${name}.sh`, `cat > "${dir}/${name}.json"`);
    const settings: HookSettings = {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: await save('pre') }] }],
      PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: await save('post') }] }],
      ...one('UserPromptSubmit', await save('prompt')),
      ...one('Stop', await save('stop')),
      ...one('SubagentStop', await save('subagent')),
      ...one('SessionStart', await save('start')),
      ...one('SessionEnd', await save('end')),
      ...one('PreCompact', await save('compact')),
    };
    const hooks = hooksOf(settings);
    await withHooks(new OkToolSet(), hooks).execute({ id: 'toolu_1', name: 'Bash', input: { command: 'ls' } }, signal);
    await hooks.userPromptSubmit('fix the bug', signal);
    await hooks.stop('All done.', false, signal);
    await hooks.subagentStop('Sub done.', true, signal);
    await hooks.sessionStart(signal);
    await hooks.sessionEnd('success', signal);
    await hooks.preCompact(signal);
    const tool = { tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'toolu_1' };
    // One prompt id for the run, on every event but SessionStart, as Claude Code sends it.
    const promptId = { prompt_id: (await readJson('pre.json'))['prompt_id'] };
    expect(promptId.prompt_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await readJson('end.json')).toMatchObject(promptId);
    expect(await readJson('pre.json')).toEqual({ ...common(), ...promptId, hook_event_name: 'PreToolUse', ...tool });
    expect(await readJson('post.json')).toEqual({
      ...common(),
      ...promptId,
      hook_event_name: 'PostToolUse',
      ...tool,
      tool_response: 'ran Bash',
      duration_ms: expect.any(Number),
    });
    expect(await readJson('prompt.json')).toEqual({ ...common(), ...promptId, hook_event_name: 'UserPromptSubmit', prompt: 'fix the bug' });
    expect(await readJson('stop.json')).toEqual({
      ...common(),
      ...promptId,
      hook_event_name: 'Stop',
      stop_hook_active: false,
      last_assistant_message: 'All done.',
    });
    expect(await readJson('subagent.json')).toMatchObject({ hook_event_name: 'SubagentStop', stop_hook_active: true });
    expect(await readJson('start.json')).toEqual({ ...common(), hook_event_name: 'SessionStart', source: 'startup' });
    expect(await readJson('end.json')).toEqual({
      ...common(),
      ...promptId,
      hook_event_name: 'SessionEnd',
      reason: 'other',
      conclusion: 'success',
    });
    expect(await readJson('compact.json')).toMatchObject({ ...common(), hook_event_name: 'PreCompact', trigger: 'auto' });
  });

  it('runs in the workspace root with CLAUDE_PROJECT_DIR, inside the given wrapper, without secrets', async () => {
    process.env.ANTHROPIC_API_KEY = 'sk-ant-canary';
    const hook = await script('env.sh', `pwd > "${dir}/pwd"; env > "${dir}/env"`);
    const wrap = (argv: string[]): string[] => ['env', 'WRAPPED_BY_SANDBOX=1', ...argv];
    await hooksOf(one('SessionStart', hook), { env: toolEnvironment(process.env), wrap }).sessionStart(signal);
    expect((await fs.readFile(path.join(dir, 'pwd'), 'utf8')).trim()).toBe(await fs.realpath(dir));
    const env = await fs.readFile(path.join(dir, 'env'), 'utf8');
    expect(env).toContain(`CLAUDE_PROJECT_DIR=${dir}\n`);
    expect(env).toContain('WRAPPED_BY_SANDBOX=1\n');
    expect(env).not.toContain('sk-ant-canary');
    expect(env).not.toMatch(/^ANTHROPIC_API_KEY=/m);
  });
});

describe('Stop and SubagentStop', () => {
  it('exit 2 makes the model go on, told stderr', async () => {
    const hook = await script('more.sh', 'echo "tests still fail" >&2; exit 2');
    expect(await hooksOf(one('Stop', hook)).stop('Done', false, signal)).toEqual({ continueWith: 'tests still fail' });
    expect(await hooksOf(one('SubagentStop', hook)).subagentStop('Done', false, signal)).toEqual({ continueWith: 'tests still fail' });
    expect(runs.map((r) => [r.event, r.exitCode, r.outcome])).toEqual([
      ['Stop', 2, 'blocked'],
      ['SubagentStop', 2, 'blocked'],
    ]);
  });

  it('decision "block" makes the model go on, told the reason; no decision lets it stop', async () => {
    const hook = await script('block.sh', `echo '{"decision":"block","reason":"update the changelog"}'`);
    expect(await hooksOf(one('Stop', hook)).stop('Done', false, signal)).toEqual({ continueWith: 'update the changelog' });
    expect(await hooksOf(one('Stop', await script('ok.sh', 'echo fine'))).stop('Done', false, signal)).toEqual({});
  });

  it('continue: false ends the run, winning over a block', async () => {
    const halt = await script('halt.sh', `echo '{"continue":false,"stopReason":"out of time"}'`);
    const more = await script('more.sh', 'echo more >&2; exit 2');
    const hooks = hooksOf(one('Stop', halt, more));
    expect(await hooks.stop('Done', false, signal)).toEqual({ stop: 'out of time' });
    expect(hooks.stopRequested()).toBe('out of time');
  });

  it('a crashing or hanging hook fails open, with a log line', async () => {
    const crash = await script('crash.sh', 'echo oops >&2; exit 1');
    const hang = await script('hang.sh', 'sleep 30');
    const settings: HookSettings = {
      Stop: [
        {
          hooks: [
            { type: 'command', command: crash },
            { type: 'command', command: hang, timeout: 1 },
          ],
        },
      ],
    };
    expect(await hooksOf(settings).stop('Done', false, signal)).toEqual({});
    expect(runs.map((r) => [r.outcome, r.timedOut]).sort()).toEqual([
      ['failed', false],
      ['failed', true],
    ]);
    expect(logs).toHaveLength(2);
    expect(logs.join('\n')).toContain('failed with exit code 1: oops');
  });
});

describe('UserPromptSubmit and SessionStart', () => {
  it('UserPromptSubmit exit 2 stops the run with stderr', async () => {
    const hooks = hooksOf(one('UserPromptSubmit', await script('no.sh', 'echo "prompt mentions a secret" >&2; exit 2')));
    expect(await hooks.userPromptSubmit('here is my key', signal)).toEqual({ stop: 'prompt mentions a secret' });
    expect(hooks.stopRequested()).toBe('prompt mentions a secret');
  });

  it('UserPromptSubmit decision "block" and continue: false stop the run', async () => {
    const block = await script('block.sh', `echo '{"decision":"block","reason":"off-topic"}'`);
    expect(await hooksOf(one('UserPromptSubmit', block)).userPromptSubmit('p', signal)).toEqual({ stop: 'off-topic' });
    const halt = await script('halt.sh', `echo '{"continue":false}'`);
    const { stop } = await hooksOf(one('UserPromptSubmit', halt)).userPromptSubmit('p', signal);
    expect(stop).toContain('halt.sh');
  });

  it('plain stdout and additionalContext of several hooks become context for the prompt', async () => {
    const plain = await script('plain.sh', 'echo "branch: main"');
    const json = await script(
      'json.sh',
      `echo '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"ticket #12"}}'`,
    );
    const { additionalContext, stop } = await hooksOf(one('UserPromptSubmit', plain, json)).userPromptSubmit('p', signal);
    expect(stop).toBeUndefined();
    expect(additionalContext).toBe('branch: main\n\nticket #12');
    expect(await hooksOf(one('SessionStart', plain)).sessionStart(signal)).toEqual({ additionalContext: 'branch: main' });
  });

  it('SessionStart and PreCompact continue: false stop; their exit 2 blocks nothing', async () => {
    const halt = await script('halt.sh', `echo '{"continue":false,"stopReason":"maintenance"}'`);
    expect(await hooksOf(one('SessionStart', halt)).sessionStart(signal)).toEqual({ stop: 'maintenance' });
    expect(await hooksOf(one('PreCompact', halt)).preCompact(signal)).toEqual({ stop: 'maintenance' });
    const two = await script('two.sh', 'echo "just saying" >&2; exit 2');
    expect(await hooksOf(one('SessionStart', two)).sessionStart(signal)).toEqual({});
    expect(logs.join('\n')).toContain('just saying');
  });
});

describe('bookkeeping', () => {
  it('runs several hooks of one event in parallel, and identical commands once', async () => {
    const a = await script('a.sh', `sleep 1; touch "${dir}/a-ran"`);
    const b = await script('b.sh', `sleep 1; touch "${dir}/b-ran"`);
    await hooksOf({
      SessionEnd: [
        { hooks: [{ type: 'command', command: a }] },
        {
          hooks: [
            { type: 'command', command: b },
            { type: 'command', command: a },
          ],
        },
      ],
    }).sessionEnd('other', signal);
    await expect(fs.stat(path.join(dir, 'a-ran'))).resolves.toBeTruthy();
    await expect(fs.stat(path.join(dir, 'b-ran'))).resolves.toBeTruthy();
    expect(runs.map((r) => r.command).sort()).toEqual([a, b]);
  });

  it('onRun reports event, command and exit code; has() tells which events have hooks', async () => {
    const hook = await script('ok.sh', 'exit 0');
    const hooks = hooksOf({ ...one('SessionStart', hook), Stop: [{ hooks: [] }] });
    await hooks.sessionStart(signal);
    expect(runs).toEqual([{ event: 'SessionStart', command: hook, exitCode: 0, ms: expect.any(Number), timedOut: false, outcome: 'ok' }]);
    expect(hooks.has('SessionStart')).toBe(true);
    expect(hooks.has('Stop')).toBe(false);
    expect(hooks.has('PreToolUse')).toBe(false);
    expect(hooks.stopRequested()).toBeNull();
  });

  it('a throwing onRun or log callback changes nothing', async () => {
    const hook = await script('no.sh', 'exit 1');
    const throwing = () => {
      throw new Error('callback broke');
    };
    const hooks = hooksOf({ PreToolUse: [{ hooks: [{ type: 'command', command: hook }] }] }, { onRun: throwing, log: throwing });
    const outcome = await withHooks(new OkToolSet(), hooks).execute({ id: 't', name: 'Bash', input: {} }, signal);
    expect(outcome.content).toMatch(/^Hook refused: .*failed with exit code 1/);
  });

  it('a hook that cannot be started fails (closed for PreToolUse)', async () => {
    const hooks = hooksOf({ PreToolUse: [{ hooks: [{ type: 'command', command: 'true' }] }] }, { wrap: () => ['/nonexistent/sandbox'] });
    const outcome = await withHooks(new OkToolSet(), hooks).execute({ id: 't', name: 'Bash', input: {} }, signal);
    expect(outcome.content).toMatch(/^Hook refused: .*could not be started/);
    expect(runs[0]).toMatchObject({ exitCode: null, outcome: 'failed' });
  });
});
