import { readFileSync } from 'node:fs';
import { parseCli } from '../../src/cli/args.js';
import { VERSION } from '../../src/version.js';

describe('CLI arguments', () => {
  it('reads every option of the contract', () => {
    const parsed = parseCli([
      '--cwd',
      '/repo',
      '--model',
      'claude-opus-5-5',
      '--max-steps',
      '7',
      '--max-cost-usd',
      '0.5',
      '--timeout-minutes',
      '3',
      '--allowed-tools',
      'Read,Grep',
      '--transcript',
      't.jsonl',
      '--json',
      'fix',
      'it',
    ]);
    expect(parsed.kind).toBe('run');
    if (parsed.kind !== 'run') return;
    expect(parsed.options.prompt).toBe('fix it');
    expect(parsed.options.cwd).toBe('/repo');
    expect(parsed.options.settings).toMatchObject({
      model: 'claude-opus-5-5',
      maxSteps: 7,
      maxCostUsd: 0.5,
      timeoutMinutes: 3,
      allowedTools: ['Read', 'Grep'],
    });
    expect(parsed.options.transcript).toBe('t.jsonl');
    expect(parsed.options.json).toBe(true);
  });

  it('uses the documented defaults', () => {
    const parsed = parseCli(['task']);
    if (parsed.kind !== 'run') throw new Error(parsed.kind);
    expect(parsed.options.settings).toMatchObject({
      model: 'claude-sonnet-5-5',
      maxSteps: 40,
      maxCostUsd: 5,
      maxRetries: 5,
      timeoutMinutes: 30,
    });
    expect(parsed.options.settings.allowedTools).toEqual([
      'Read',
      'Write',
      'Edit',
      'Bash',
      'Glob',
      'Grep',
      'TodoWrite',
      'WebFetch',
      'Task',
      'Skill',
    ]);
  });

  it.each([
    [['--max-steps', 'many', 'x'], /--max-steps/],
    [['--allowed-tools', 'Read,bash', 'x'], /--allowed-tools/],
    [['--nope', 'x'], /nope/],
    [[], /PROMPT is required/],
  ])('rejects %j with a message naming the problem', (argv, message) => {
    const parsed = parseCli(argv);
    expect(parsed.kind).toBe('error');
    if (parsed.kind === 'error') expect(parsed.message).toMatch(message);
  });

  it('accepts --continue without a prompt, but not beside --resume', () => {
    expect(parseCli(['--continue'])).toMatchObject({ kind: 'run', options: { continue: true } });
    expect(parseCli(['-c', 'go on'])).toMatchObject({ kind: 'run', options: { continue: true, prompt: 'go on' } });
    expect(parseCli(['--continue', '--resume', 'run.jsonl'])).toEqual({
      kind: 'error',
      message: '--resume and --continue exclude each other',
    });
  });

  it('reads --max-parallel-agents and --stream-idle-timeout (or AGENT_ACTION_STREAM_IDLE_TIMEOUT), naming a bad one', () => {
    const parsed = parseCli(['--max-parallel-agents', '2', '--stream-idle-timeout', '1.5', 'go']);
    expect(parsed.kind === 'run' && parsed.options.settings).toMatchObject({ maxParallelAgents: 2, streamIdleTimeoutSeconds: 1.5 });
    const fromEnv = parseCli(['go'], { AGENT_ACTION_STREAM_IDLE_TIMEOUT: '20' });
    expect(fromEnv.kind === 'run' && fromEnv.options.settings).toMatchObject({ maxParallelAgents: 4, streamIdleTimeoutSeconds: 20 });
    expect(parseCli(['go']).kind === 'run' && (parseCli(['go']) as { options: { settings: object } }).options.settings).toMatchObject({
      streamIdleTimeoutSeconds: 60,
    });
    const bad = parseCli(['--max-parallel-agents', '0', 'go']);
    expect(bad.kind === 'error' && bad.message).toMatch(/^--max-parallel-agents: /);
    const badIdle = parseCli(['--stream-idle-timeout', 'soon', 'go']);
    expect(badIdle.kind === 'error' && badIdle.message).toMatch(/--stream-idle-timeout/);
  });

  it('accepts --resume without a prompt', () => {
    expect(parseCli(['--resume', 'run.jsonl']).kind).toBe('run');
  });

  it('reports the version package.json declares', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(VERSION).toBe(pkg.version);
  });
});

describe('price overrides', () => {
  it('take JSON from --prices, fill cache prices from the input price, and win over AGENT_ACTION_PRICES', () => {
    const parsed = parseCli(['--prices', '{"my-model": {"input": 1, "output": 5}}', 'task'], {
      AGENT_ACTION_PRICES: '{"other": {"input": 9, "output": 9}}',
    });
    if (parsed.kind !== 'run') throw new Error(parsed.kind);
    expect(parsed.options.settings.prices).toEqual({ 'my-model': { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 } });
  });

  it('read AGENT_ACTION_PRICES when no option is given', () => {
    const parsed = parseCli(['task'], { AGENT_ACTION_PRICES: '{"m": {"input": 3, "output": 4, "cacheRead": 0.5, "cacheWrite": 6}}' });
    if (parsed.kind !== 'run') throw new Error(parsed.kind);
    expect(parsed.options.settings.prices).toEqual({ m: { input: 3, output: 4, cacheRead: 0.5, cacheWrite: 6 } });
  });

  it('reject prices that are not JSON or have no output price', () => {
    for (const bad of ['{nope', '{"m": {"input": 1}}']) {
      const parsed = parseCli(['--prices', bad, 'task']);
      expect(parsed.kind).toBe('error');
      if (parsed.kind === 'error') expect(parsed.message).toMatch(/--prices/);
    }
  });
});
