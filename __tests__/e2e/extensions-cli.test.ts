import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startAnthropicServer, type AnthropicServer } from '../../test-support/anthropic-server.js';
import { childEnv, cleanHome, makeRepo, runCli } from '../../test-support/cli-process.js';

const KEY = 'sk-ant-canary-ext-31337';
let server: AnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });
const tool = (name: string, input: unknown) => ({ content: [{ type: 'tool_use' as const, name, input }] });

const FILES = {
  'src/a.js': 'export const a = 1; // TODO remove\n',
  '.claude/agents/finder.md':
    '---\nname: finder\ndescription: Finds TODOs in the code\ntools: Read\nmodel: inherit\n---\nYou find TODO comments and list them.\n',
  '.claude/skills/release/SKILL.md':
    '---\nname: release\ndescription: How this project cuts a release\n---\nBump the version in package.json, then tag it.\n',
  '.claude/commands/tidy.md':
    '---\nallowed-tools: Bash(git status:*)\nmodel: haiku\ndescription: Tidy a folder\nargument-hint: [folder] [how]\n---\nTidy the folder $0 and report ($ARGUMENTS).\n',
};

describe('agents, skills and commands through the CLI (dist/cli/index.js)', () => {
  it('runs /tidy from .claude/commands with its tools, lists and loads a skill, and starts a repository subagent', async () => {
    server = await startAnthropicServer({
      requireApiKey: KEY,
      script: [
        tool('Skill', { skill: 'release' }),
        tool('Task', { description: 'find todos', prompt: 'List the TODOs under src/.', subagent_type: 'finder' }),
        text('src/a.js:1 has a TODO.'),
        tool('Bash', { command: 'git status --short > /dev/null && echo status-ran' }),
        tool('Bash', { command: 'echo not allowed > out.txt' }),
        text('Tidied.'),
      ],
    });
    const home = await cleanHome();
    const repo = await makeRepo(FILES, home);
    const transcript = join(home, 't.jsonl');
    const r = await runCli(
      ['--cwd', repo, '--json', '--transcript', transcript, '--allowed-tools', 'Read,Skill,Task', '/tidy src quickly'],
      childEnv(home, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url }),
    );
    expect(r.code).toBe(0);
    const first = server.requests[0]!.body;
    // Claude Code's aliases: the command's `model: haiku`, and the agent's `inherit` (the run's model, here the command's).
    expect(first.model).toBe('claude-haiku-5-5');
    expect(JSON.stringify(first.messages[0]!.content)).toContain('Tidy the folder src and report (src quickly).');
    expect(JSON.stringify(first.system)).toMatch(/# Skills[\s\S]*- release: How this project cuts a release/);
    // The command's allowed-tools pre-approve `git status` beside the run's rules: Bash is offered, for that.
    const offered = first.tools!.map((t) => t.name);
    expect([...offered].sort()).toEqual(['Bash', 'Read', 'Skill', 'Task']);
    expect(JSON.stringify(server.requests[1]!.body.messages.at(-1)!.content)).toContain('Bump the version in package.json');
    const sub = server.requests[2]!.body;
    expect(JSON.stringify(sub.system)).toContain('You find TODO comments and list them.');
    expect(sub.messages).toHaveLength(1);
    expect(sub.model).toBe('claude-haiku-5-5');
    expect(sub.tools!.map((t) => t.name)).toEqual(['Read']);
    expect(JSON.stringify(server.requests[3]!.body.messages.at(-1)!.content)).toContain('src/a.js:1 has a TODO.');
    expect(JSON.stringify(server.requests[4]!.body.messages.at(-1)!.content)).toContain('status-ran');
    expect(JSON.stringify(server.requests[5]!.body.messages.at(-1)!.content)).toMatch(/Permission denied/);
    expect(existsSync(join(repo, 'out.txt'))).toBe(false);
    const records = readFileSync(transcript, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { agent?: string });
    expect(records.some((x) => x.agent?.startsWith('finder-'))).toBe(true);
    expect(JSON.parse(r.stdout)).toMatchObject({ conclusion: 'success', steps: 6 });
  });
});
