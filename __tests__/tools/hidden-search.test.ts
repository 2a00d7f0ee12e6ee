import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { globTool } from '../../src/tools/builtin/glob.js';
import { grepTool } from '../../src/tools/builtin/grep.js';
import { readTool } from '../../src/tools/builtin/read.js';
import { toolEnvironment } from '../../src/tools/env.js';
import { hiddenPaths } from '../../src/tools/permissions/hidden.js';
import { loadRules } from '../../src/tools/permissions/rules.js';
import { executeToolCall, type ToolContext, type ToolDefinition } from '../../src/tools/tool.js';
import { Workspace } from '../../src/tools/workspace.js';

const SECRET = 'SECRET-hunter2-value';
let root: string;
let ctx: ToolContext;

async function setUp(withGit: boolean): Promise<void> {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'hidden-search-')));
  const files = {
    '.env': `API_KEY=${SECRET}\n`,
    'app/.env': `DB=${SECRET}\n`,
    'secrets/token.txt': `${SECRET}\n`,
    'certs/server.pem': `${SECRET}\n`,
    'src/config.ts': 'export const API_KEY = process.env.API_KEY;\n',
    '.gitignore': 'node_modules/\n',
  };
  for (const [name, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await fs.writeFile(path.join(root, name), content);
  }
  if (withGit) execFileSync('git', ['init', '-q'], { cwd: root });
  const rules = await loadRules({
    allow: [{ source: 'allowed-tools', rules: 'Read,Grep,Glob' }],
    deny: [{ source: 'disallowed-tools', rules: 'Read(.env),Read(secrets/**),Read(**/*.pem)' }],
  });
  const workspace = await Workspace.open(root, { runnerTemp: '' });
  ctx = {
    workspace,
    signal: new AbortController().signal,
    env: toolEnvironment(process.env),
    outputLimit: 100_000,
    hidden: hiddenPaths(rules, workspace.root)!,
  };
}

const tools = new Map<string, ToolDefinition>([
  ['Grep', grepTool],
  ['Glob', globTool],
  ['Read', readTool],
]);
const call = (name: string, input: unknown) => executeToolCall(tools, name, input, ctx);

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe.each([
  ['in a git work tree', true],
  ['outside git', false],
])('files the Read deny rules hide, %s', (_where, withGit) => {
  beforeEach(() => setUp(withGit));

  it.each(['content', 'files_with_matches', 'count'])('Grep in %s mode never shows them, and says how many it skipped', async (mode) => {
    const r = await call('Grep', { pattern: 'API_KEY|hunter2|DB=', output_mode: mode });
    expect(r.content).not.toContain(SECRET);
    expect(r.content).not.toMatch(/(^|\n|\/)\.env|token\.txt|server\.pem/);
    expect(r.content).toContain('src/config.ts');
    expect(r.content).toContain('[4 files hidden by the deny rules (Read) or as credentials files, not searched or shown.]');
  });

  it('Grep aimed at them by glob or path shows nothing of them', async () => {
    for (const input of [{ glob: '.env' }, { glob: '**/*.pem' }, { glob: '*' }, { path: 'secrets' }, { path: 'app' }]) {
      const r = await call('Grep', { pattern: 'hunter2', output_mode: 'content', ...input });
      expect(r.content).not.toContain(SECRET);
      expect(r.content).toMatch(/^No matches/);
    }
  });

  it('the count of skipped files does not depend on the pattern, so it tells nothing of their content', async () => {
    const hit = await call('Grep', { pattern: 'hunter2', output_mode: 'count' });
    const miss = await call('Grep', { pattern: 'not-in-any-file-zzz', output_mode: 'count' });
    const note = (t: string) => /\[(\d+) files? hidden/.exec(t)?.[1];
    expect(note(hit.content)).toBe('4');
    expect(note(miss.content)).toBe('4');
  });

  it('Glob leaves them out of what it lists, saying how many', async () => {
    const r = await call('Glob', { pattern: '**/*' });
    expect(r.content).toContain('src/config.ts');
    expect(r.content).not.toMatch(/(^|\n|\/)\.env|token\.txt|server\.pem/);
    expect(r.content).toContain('[4 files hidden by the deny rules (Read) or as credentials files, not searched or shown.]');
    const only = await call('Glob', { pattern: '**/.env' });
    expect(only.content).toMatch(/^No files match/);
  });

  it('Read refuses them through the same predicate, also through a symlink', async () => {
    await fs.symlink('.env', path.join(root, 'innocent'));
    for (const file_path of ['.env', 'app/.env', 'secrets/token.txt', 'certs/server.pem', 'innocent']) {
      const r = await call('Read', { file_path });
      expect(r.isError).toBe(true);
      // *.pem files are credential files too, refused by the workspace before the deny rules are asked.
      expect(r.content).toMatch(/^(Permission denied:|Refused: .* credential file)/);
      expect(r.content).not.toContain(SECRET);
    }
    expect((await call('Read', { file_path: 'src/config.ts' })).isError).toBe(false);
  });
});
