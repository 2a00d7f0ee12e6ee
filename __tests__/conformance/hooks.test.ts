// Hooks side by side with the Claude Code CLI: the same settings' hooks record their stdin in both,
// and decide the same way (exit 2, JSON deny, updatedInput, PostToolUse feedback, a held Stop).
// The field table below is what each side sends; the README's hook section lists it.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runGroups, SIDES, type Group, type GroupRun, type Side } from '../../test-support/conformance.js';

type Record_ = Record<string, unknown>;

/** Appends each event's stdin to .hooks/<event>.jsonl. */
const RECORD = `import { appendFileSync, mkdirSync } from 'node:fs';
let s = ''; process.stdin.on('data', (d) => (s += d)).on('end', () => {
  const j = JSON.parse(s); const dir = process.env.CLAUDE_PROJECT_DIR + '/.hooks'; mkdirSync(dir, { recursive: true });
  appendFileSync(dir + '/' + j.hook_event_name + '.jsonl', JSON.stringify(j) + '\\n');
});`;

/** Decides by the command: exit 2, a JSON deny, a rewritten input, PostToolUse feedback, a Stop held once. */
const DECIDE = `let s = ''; process.stdin.on('data', (d) => (s += d)).on('end', () => {
  const j = JSON.parse(s); const cmd = (j.tool_input && j.tool_input.command) || '';
  if (j.hook_event_name === 'PreToolUse') {
    if (cmd.includes('k1')) { process.stderr.write('blocked-by-hook-k1'); process.exit(2); }
    if (cmd.includes('k2')) { console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'json-deny-k2' } })); return; }
    if (cmd.includes('k3')) { console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'npm test rewritten-k3' } } })); return; }
  }
  if (j.hook_event_name === 'PostToolUse' && cmd.includes('k4')) { process.stderr.write('post-feedback-k4'); process.exit(2); }
  if (j.hook_event_name === 'Stop' && !j.stop_hook_active) { process.stderr.write('keep-going-k5'); process.exit(2); }
});`;

const EVENTS = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'UserPromptSubmit', 'Stop', 'SessionStart', 'SessionEnd'];
const hook = (file: string) => [{ hooks: [{ type: 'command', command: `node "$CLAUDE_PROJECT_DIR/${file}"` }] }];
const ALLOW = ['Bash(npm test:*)', 'Bash(false:*)', 'Read', 'Edit', 'Write'];

const STDIN: Group = {
  name: 'stdin',
  files: { 'record.mjs': RECORD, 'src/a.txt': 'alpha\nsecond\n' },
  settings: { permissions: { allow: ALLOW }, hooks: Object.fromEntries(EVENTS.map((e) => [e, hook('record.mjs')])) },
  cases: [
    { id: 's1', call: { name: 'Bash', input: { command: 'npm test s1', description: 's1' } }, ran: { logged: 's1' } },
    { id: 's2', call: { name: 'Bash', input: { command: 'false s2', description: 's2' } }, ran: { output: 'never' } },
    { id: 's3', call: { name: 'Read', input: { file_path: '{repo}/src/a.txt' } }, ran: { output: 'alpha' } },
    {
      id: 's4',
      call: { name: 'Edit', input: { file_path: '{repo}/src/a.txt', old_string: 'alpha', new_string: 'beta' } },
      ran: { file: 'src/a.txt', contains: 'beta' },
    },
    {
      id: 's5',
      call: { name: 'Write', input: { file_path: '{repo}/src/b.txt', content: 'new\n' } },
      ran: { file: 'src/b.txt', contains: 'new' },
    },
    {
      id: 's6',
      call: { name: 'Write', input: { file_path: '{repo}/src/a.txt', content: 'gamma\n' } },
      ran: { file: 'src/a.txt', contains: 'gamma' },
    },
    { id: 's7', call: { name: 'Read', input: { file_path: '{repo}/missing.txt' } }, ran: { output: 'never' } },
  ],
};

const DECISIONS: Group = {
  name: 'decisions',
  files: { 'decide.mjs': DECIDE },
  settings: {
    permissions: { allow: ALLOW },
    hooks: { PreToolUse: hook('decide.mjs'), PostToolUse: hook('decide.mjs'), Stop: hook('decide.mjs') },
  },
  cases: [
    { id: 'k1', call: { name: 'Bash', input: { command: 'npm test k1', description: 'k1' } }, ran: { logged: 'k1' } },
    { id: 'k2', call: { name: 'Bash', input: { command: 'npm test k2', description: 'k2' } }, ran: { logged: 'k2' } },
    { id: 'k3', call: { name: 'Bash', input: { command: 'npm test k3', description: 'k3' } }, ran: { logged: 'rewritten-k3' } },
    { id: 'k4', call: { name: 'Bash', input: { command: 'npm test k4', description: 'k4' } }, ran: { logged: 'k4' } },
  ],
};

let runs: Map<string, GroupRun>;
beforeAll(async () => {
  runs = await runGroups([STDIN, DECISIONS], 2);
}, 300_000);

function records(side: Side, event: string): Record_[] {
  const file = join(runs.get('stdin')![side].repo, '.hooks', `${event}.jsonl`);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record_);
}

const byTool = (side: Side, event: string, id: string) => records(side, event).find((r) => r['tool_use_id'] === `toolu_${id}`);

/** Fields Claude Code sends that this product does not: nothing a hook of a headless run can act on. */
const NOT_SENT: Record<string, string> = {
  effort: 'the model effort setting of an interactive session',
  background_tasks: 'Claude Code background shells; a run here ends them with each command',
  session_crons: 'Claude Code scheduled prompts',
};

/** With AGENT_NOTE_DIR set, the field table (event, field, which side sends it) is written there. */
afterAll(() => {
  const dir = process.env['AGENT_NOTE_DIR'];
  if (!dir || !runs) return;
  const rows = EVENTS.flatMap((event) => {
    const keys = (side: Side) => new Set(records(side, event).flatMap((r) => Object.keys(r)));
    const [cc, aa] = [keys('claudeCode'), keys('agentAction')];
    return [...new Set([...cc, ...aa])]
      .sort()
      .map((k) => `| ${event} | \`${k}\` | ${cc.has(k) ? 'yes' : 'no'} | ${aa.has(k) ? 'yes' : 'no'} |`);
  });
  writeFileSync(
    join(dir, 'hook-fields.md'),
    ['| event | field | Claude Code | agent-action |', '| --- | --- | --- | --- |', ...rows].join('\n') + '\n',
  );
});

test('both CLIs went through every call', () => {
  for (const run of runs.values()) for (const side of SIDES) expect(run[side].complete).toBe(true);
});

test.each(EVENTS)('%s: every field Claude Code sends, agent-action sends too', (event) => {
  const keys = (side: Side) => new Set(records(side, event).flatMap((r) => Object.keys(r)));
  const cc = keys('claudeCode');
  expect(cc.size).toBeGreaterThan(0);
  const missing = [...cc].filter((k) => !keys('agentAction').has(k) && !(k in NOT_SENT));
  expect(missing).toEqual([]);
});

test('the tool calls fire the same events in both, PostToolUseFailure for a failing command and a missing file', () => {
  const events = (side: Side) =>
    ['s1', 's2', 's3', 's4', 's5', 's6', 's7'].map((id) => [
      id,
      ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'].filter((e) => byTool(side, e, id) !== undefined),
    ]);
  expect(events('agentAction')).toEqual(events('claudeCode'));
  expect(events('claudeCode')).toContainEqual(['s2', ['PreToolUse', 'PostToolUseFailure']]);
});

test('tool_input.file_path is absolute, and tool_response has Claude Code shape for Bash, Read, Edit and Write', () => {
  for (const id of ['s1', 's3', 's4', 's5', 's6']) {
    const [cc, aa] = [byTool('claudeCode', 'PostToolUse', id)!, byTool('agentAction', 'PostToolUse', id)!];
    const response = (r: Record_) => r['tool_response'] as Record_;
    // The repositories differ; everything else must be the same.
    const normal = (r: Record_, side: Side) =>
      JSON.parse(JSON.stringify(response(r)).replaceAll(runs.get('stdin')![side].repo, '{repo}')) as Record_;
    expect(typeof response(cc)).toBe('object');
    expect([id, normal(aa, 'agentAction')]).toEqual([id, normal(cc, 'claudeCode')]);
    const path = (aa['tool_input'] as Record_)['file_path'];
    if (path !== undefined) expect(path).toMatch(/^\//);
  }
});

test('a failing call: error and is_interrupt, no tool_response', () => {
  for (const side of SIDES) {
    const failure = byTool(side, 'PostToolUseFailure', 's2')!;
    expect(failure).toMatchObject({ error: expect.stringMatching(/^Exit code 1/), is_interrupt: false, duration_ms: expect.any(Number) });
    expect('tool_response' in failure).toBe(false);
  }
});

test('session events: SessionStart source startup, SessionEnd reason other, Stop with the last message', () => {
  for (const side of SIDES) {
    expect(records(side, 'SessionStart')[0]).toMatchObject({ source: 'startup' });
    expect(records(side, 'SessionEnd')[0]).toMatchObject({ reason: 'other' });
    expect(records(side, 'Stop')[0]).toMatchObject({ stop_hook_active: false, last_assistant_message: 'done' });
    expect(records(side, 'UserPromptSubmit')[0]).toMatchObject({ prompt: 'go' });
  }
});

describe('decisions', () => {
  const run = (side: Side) => runs.get('decisions')![side];
  const seenByModel = (side: Side) => JSON.stringify(run(side).requests.map((r) => r.body.messages));

  test.each(SIDES)('%s: exit 2 and a JSON deny keep the call from running, with the reason for the model', (side) => {
    expect(run(side).outcomes.get('k1')!.ran).toBe(false);
    expect(run(side).outcomes.get('k1')!.result).toContain('blocked-by-hook-k1');
    expect(run(side).outcomes.get('k2')!.ran).toBe(false);
    expect(run(side).outcomes.get('k2')!.result).toContain('json-deny-k2');
  });

  test.each(SIDES)('%s: updatedInput runs the rewritten command', (side) => {
    expect(run(side).outcomes.get('k3')!.ran).toBe(true);
  });

  test.each(SIDES)('%s: PostToolUse exit 2 tells the model; a Stop hook holds the first stop', (side) => {
    expect(run(side).outcomes.get('k4')!.ran).toBe(true);
    expect(seenByModel(side)).toContain('post-feedback-k4');
    expect(seenByModel(side)).toContain('keep-going-k5');
  });
});
