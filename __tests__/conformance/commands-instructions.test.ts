// Commands' `!` steps and `@path` references, and CLAUDE.md's imports, side by side with the
// Claude Code CLI: the same repository, command files and prompt; what each side's model got in
// its first request, and the marker files its steps left, decide.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startAnthropicServer } from '../../test-support/anthropic-server.js';
import { runClaudeCode, trustProject } from '../../test-support/claude-code.js';
import { childEnv, cleanHome, makeRepo, runCli } from '../../test-support/cli-process.js';
import type { Side } from '../../test-support/conformance.js';

const KEY = 'sk-ant-conformance';

const FILES: Record<string, string> = {
  'README.md': 'conformance\n',
  'CLAUDE.md': [
    'claude-md-top',
    '@AGENTS.md',
    '`@inline.md` in code',
    '```',
    '@block.md',
    '```',
    'see @docs/extra.md here, and @missing.md',
    '@deep/a.md',
    '@~/home.md',
    '',
  ].join('\n'),
  'AGENTS.md': 'agents-md-token\n@nested/one.md\n',
  'nested/one.md': 'nested-one-token @two.md\n',
  'nested/two.md': 'nested-two-token\n',
  'inline.md': 'inline-token\n',
  'block.md': 'block-token\n',
  'docs/extra.md': 'extra-token\n',
  'deep/a.md': 'deep-a-token @b.md\n',
  'deep/b.md': 'deep-b-token @c.md\n',
  'deep/c.md': 'deep-c-token @d.md\n',
  'deep/d.md': 'deep-d-token @e.md\n',
  'deep/e.md': 'deep-e-token @f.md\n',
  'deep/f.md': 'deep-f-token\n',
  'src/a.txt': 'file-a-token\n',
  'src/b.txt': 'file-b-token\n',
};

/** Each command: its file, and what the first request must (or must not) hold on both sides. */
interface CommandCase {
  body: string;
  /** Whether the model is asked at all: a step refused or failing stops the command first. */
  asked: boolean;
  has?: string[];
  lacks?: string[];
  /** What follows the command's name (default: `first second`). */
  args?: string;
  /** Marker files the steps leave. */
  markers?: string[];
}

const COMMANDS: Record<string, CommandCase> = {
  'pre-approved': {
    body: '---\nallowed-tools: Bash(touch:*)\n---\nA: !`touch m1 && echo step-t1`\n',
    asked: true,
    has: ['A: step-t1'],
    markers: ['m1'],
  },
  'not-allowed': { body: 'A: !`touch m2`\nend\n', asked: false, markers: [] },
  failing: { body: 'A: !`ls /nonexistent-dir`\nB\n', asked: false },
  argument: { body: 'A: !`echo arg-$0`\n', asked: true, has: ['A: arg-first'] },
  fenced: { body: '```!\necho fenced-ran\n```\n', asked: true, has: ['fenced-ran'] },
  'no-space': { body: 'x!`echo nospace` y\n', asked: true, has: ['x!`echo nospace` y'] },
  files: { body: 'Look at @src/a.txt, `@src/b.txt` and @missing.md.\n', asked: true, has: ['file-a-token'], lacks: ['file-b-token'] },
  injected: { body: 'Do $ARGUMENTS\n', args: '!`echo injected-$((2+3))`', asked: true, has: ['echo injected-'], lacks: ['injected-5'] },
  folder: { body: 'List @src/ please\n', asked: true, has: ['a.txt', 'b.txt'], lacks: ['file-a-token'] },
};

const IMPORTED = ['claude-md-top', 'agents-md-token', 'nested-one-token', 'nested-two-token', 'extra-token'];
const NOT_IMPORTED = ['inline-token', 'block-token'];
const DEEP = ['deep-a-token', 'deep-b-token', 'deep-c-token', 'deep-d-token', 'deep-e-token', 'deep-f-token'];

interface Outcome {
  asked: boolean;
  first: string;
  markers: string[];
}

async function runSide(side: Side, command: string): Promise<Outcome> {
  const home = await cleanHome();
  writeFileSync(join(home, 'home.md'), 'home-token\n');
  const files: Record<string, string> = { ...FILES, [`.claude/commands/${command}.md`]: COMMANDS[command]!.body };
  const repo = await makeRepo(files, home);
  const server = await startAnthropicServer({ requireApiKey: KEY, script: () => ({ content: [{ type: 'text', text: 'done' }] }) });
  try {
    const env = childEnv(home, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url });
    const prompt = `/${command} ${COMMANDS[command]!.args ?? 'first second'}`;
    if (side === 'claudeCode') {
      await trustProject(home, repo);
      await runClaudeCode(
        ['-p', prompt, '--permission-mode', 'default', '--output-format', 'json', '--allowedTools', 'Bash(echo:*)'],
        env,
        repo,
      );
    } else {
      // Claude Code's default mode asks (here: refuses) for what no rule allows: the same rules here.
      await runCli(['--cwd', repo, '--json', '--quiet', '--allowed-tools', 'Read,Glob,Grep,Bash(echo:*)', prompt], env);
    }
    const asked = server.requests.filter((r) => (r.body.tools ?? []).length > 0);
    return {
      asked: asked.length > 0,
      first: asked.length > 0 ? JSON.stringify(asked[0]!.body.system ?? '') + JSON.stringify(asked[0]!.body.messages) : '',
      markers: ['m1', 'm2'].filter((m) => existsSync(join(repo, m))),
    };
  } finally {
    await server.close();
  }
}

const runs = new Map<string, Record<Side, Outcome>>();

beforeAll(async () => {
  const names = Object.keys(COMMANDS);
  let next = 0;
  const worker = async () => {
    for (let name = names[next++]; name !== undefined; name = names[next++]) {
      const [claudeCode, agentAction] = await Promise.all([runSide('claudeCode', name), runSide('agentAction', name)]);
      runs.set(name, { claudeCode, agentAction });
    }
  };
  await Promise.all([worker(), worker()]);
}, 240_000);

const unescaped = (text: string) => text.replaceAll('\\n', '\n').replaceAll('\\"', '"');

describe.each(Object.keys(COMMANDS))('the command %s', (name) => {
  const c = COMMANDS[name]!;
  test.each(['claudeCode', 'agentAction'] as Side[])('%s', (side) => {
    const run = runs.get(name)![side];
    expect(run.asked).toBe(c.asked);
    const first = unescaped(run.first);
    for (const text of c.has ?? []) expect(first).toContain(text);
    for (const text of c.lacks ?? []) expect(first).not.toContain(text);
    if (c.markers) expect(run.markers).toEqual(c.markers);
  });
});

describe("CLAUDE.md's imports", () => {
  test.each(['claudeCode', 'agentAction'] as Side[])(
    '%s: followed outside code, relative to the importer, five files deep, CLAUDE.md counted',
    (side) => {
      const first = runs.get('argument')![side].first;
      for (const token of IMPORTED) expect(first).toContain(token);
      for (const token of NOT_IMPORTED) expect(first).not.toContain(token);
      expect(DEEP.filter((t) => first.includes(t))).toEqual(DEEP.slice(0, 4));
    },
  );

  test('the two sides follow the same files', () => {
    const found = (side: Side) => [...IMPORTED, ...NOT_IMPORTED, ...DEEP].filter((t) => runs.get('argument')![side].first.includes(t));
    expect(found('agentAction')).toEqual(found('claudeCode'));
    // `@~/home.md` is not followed in a headless run: the home folder is outside the project.
    for (const side of ['claudeCode', 'agentAction'] as Side[]) expect(runs.get('argument')![side].first).not.toContain('home-token');
  });
});
