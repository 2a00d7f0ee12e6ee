import { jest } from '@jest/globals';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join, relative } from 'node:path';
import { startAnthropicServer, type AnthropicServer } from '../../test-support/anthropic-server.js';
import { childEnv, cleanHome, makeRepo, runCli } from '../../test-support/cli-process.js';

jest.setTimeout(120_000);

const KEY = 'sk-ant-canary-deny-41';
const SECRET = 'SECRET-deny-everywhere-5e8c1';
const DENY = 'Read(.env),Read(secrets/**),Read(**/*.pem),Edit(.github/**)';
const REPO = {
  '.env': `API_KEY=${SECRET}\n`,
  'secrets/token.txt': `token ${SECRET}\n`,
  'certs/server.pem': `-----BEGIN ${SECRET}-----\n`,
  '.github/workflows/ci.yml': 'on: push\njobs: {}\n',
  'src/config.ts': 'export const API_KEY = process.env.API_KEY;\n',
  'evil.yml': 'on: pull_request_target\n',
};

let server: AnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const calls = (list: [string, unknown][], turn: number) => ({
  content: list.map(([name, input], i) => ({ type: 'tool_use' as const, id: `toolu_deny_${turn}_${i}`, name, input })),
});
const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });
const bash = (command: string): [string, unknown] => ['Bash', { command: `${command} 2>&1; echo end` }];

/** What the model asks for first: every way to read a denied file through another tool. */
const READS: [string, unknown][] = [
  ['Grep', { pattern: 'SECRET|API_KEY', output_mode: 'content' }],
  ['Grep', { pattern: 'SECRET', output_mode: 'files_with_matches' }],
  ['Grep', { pattern: 'SECRET', output_mode: 'count' }],
  ['Grep', { pattern: 'SECRET', glob: '.env', output_mode: 'content' }],
  ['Grep', { pattern: 'SECRET', glob: '**/*.pem', output_mode: 'content' }],
  ['Grep', { pattern: 'SECRET', glob: '*.{txt,pem}', output_mode: 'content' }],
  ['Grep', { pattern: 'SECRET', path: 'secrets', output_mode: 'content' }],
  ['Glob', { pattern: '**/*' }],
  bash('cat .env'),
  bash('head -n 5 .env'),
  bash("sed -n '1,3p' .env secrets/token.txt"),
  bash('cp .env copy.txt'),
  bash('tar cf - .env secrets certs | tar xOf -'),
  bash("node -e \"process.stdout.write(require('fs').readFileSync('.env', 'utf8'))\""),
  bash('ln -s .env innocent'),
  bash('ln -s secrets s2'),
];
/** Then: the copies and links made in Bash, read back; and every way to change .github from Bash. */
const AFTER: [string, unknown][] = [
  ['Read', { file_path: 'copy.txt' }],
  ['Read', { file_path: 'innocent' }],
  ['Read', { file_path: 's2/token.txt' }],
  bash('cat copy.txt innocent s2/token.txt'),
  bash("sed -i 's/push/pull_request_target/' .github/workflows/ci.yml"),
  bash('cp evil.yml .github/workflows/ci.yml'),
  bash('touch .github/workflows/new.yml'),
  bash('mv evil.yml .github/workflows/evil.yml'),
  bash('echo pwned > .github/workflows/ci.yml'),
];

async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    const p = join(entry.parentPath, entry.name);
    out[relative(dir, p)] = entry.isFile()
      ? createHash('sha256')
          .update(await fs.readFile(p))
          .digest('hex')
      : 'dir';
  }
  return out;
}

function results(s: AnthropicServer, index: number): { content: string; is_error: boolean }[] {
  const messages = s.requests[index]!.body.messages;
  const last = messages[messages.length - 1]!;
  if (typeof last.content === 'string') return [];
  return last.content.flatMap((b) =>
    b.type === 'tool_result' ? [{ content: JSON.stringify(b['content']), is_error: b['is_error'] === true }] : [],
  );
}

describe.each([
  ['in the sandbox', 'strict'],
  ['without a sandbox', 'off'],
])('deny rules hold in every tool through the CLI, %s', (_where, sandbox) => {
  it('no request to the model carries a denied file, and nothing under .github changes', async () => {
    server = await startAnthropicServer({ requireApiKey: KEY, script: [calls(READS, 0), calls(AFTER, 1), text('done')] });
    const home = await cleanHome();
    const repo = await makeRepo(REPO, home);
    const github = await snapshot(join(repo, '.github'));
    const r = await runCli(
      ['--cwd', repo, '--sandbox', sandbox, '--disallowed-tools', DENY, '--json', 'find the API key'],
      childEnv(home, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url }),
    );
    expect(r.code).toBe(0);
    expect(server.requests).toHaveLength(3);
    expect(JSON.stringify(server.requests.map((q) => q.body))).not.toContain(SECRET);
    expect(await snapshot(join(repo, '.github'))).toEqual(github);
    const first = results(server, 1);
    expect(first).toHaveLength(READS.length);
    // The searches ran, found the file no rule denies, and said that some were skipped.
    expect(first[0]!.content).toContain('src/config.ts');
    expect(first[0]!.content).toMatch(/\[3 files hidden by the deny rules/);
    // `cat copy.txt innocent s2/token.txt` names no denied path: it runs, and finds nothing to show.
    const bashResults = [...first.slice(8), ...results(server, 2).slice(4)];
    if (sandbox === 'off') {
      // Refused before anything runs, as Claude Code does without its sandbox.
      for (const b of bashResults) expect(b.content).toMatch(/^"Permission denied: the deny rule (Read|Edit)\(/);
      await expect(fs.access(join(repo, 'copy.txt'))).rejects.toThrow();
    } else {
      expect(r.stderr).toMatch(/bubblewrap sandbox/);
      for (const b of bashResults) expect(b.content).toMatch(/end/);
      expect(first[8]!.content).toMatch(/Permission denied/);
    }
  });
});
