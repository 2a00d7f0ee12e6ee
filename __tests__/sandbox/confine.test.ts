import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bwrapArgs, prepareSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createBashTool } from '../../src/tools/builtin/bash.js';
import { toolEnvironment } from '../../src/tools/env.js';
import { confinedWrap } from '../../src/tools/permissions/confine-wrap.js';
import { loadRules } from '../../src/tools/permissions/rules.js';
import { executeToolCall, type ToolContext } from '../../src/tools/tool.js';
import { Workspace } from '../../src/tools/workspace.js';

const SECRET = 'SECRET-sandbox-7f3a9';
const DENY = 'Read(.env),Read(secrets/**),Read(**/*.pem),Edit(.github/**)';
let base: string;
let ws: string;
let sandbox: Sandbox;
let wrap: (argv: string[]) => string[];

beforeAll(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'confine-')));
  ws = path.join(base, 'ws');
  const files: Record<string, string> = {
    '.env': `KEY=${SECRET}\n`,
    'secrets/token': `${SECRET}\n`,
    'certs/server.pem': `${SECRET}\n`,
    '.github/workflows/ci.yml': 'on: push\n',
    'README.md': 'hello\n',
  };
  for (const [name, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(ws, name)), { recursive: true });
    await fs.writeFile(path.join(ws, name), content);
  }
  sandbox = await prepareSandbox({ mode: 'strict', network: 'off', workspace: ws, env: toolEnvironment(process.env) });
  const rules = await loadRules({
    allow: [{ source: 'allowed-tools', rules: 'Bash' }],
    deny: [{ source: 'disallowed-tools', rules: DENY }],
  });
  wrap = (await confinedWrap(sandbox.wrap, rules, ws))!;
});

afterAll(async () => {
  await sandbox?.dispose();
  await fs.rm(base, { recursive: true, force: true });
});

async function bash(command: string): Promise<string> {
  const ctx: ToolContext = {
    workspace: await Workspace.open(ws, { runnerTemp: '' }),
    signal: new AbortController().signal,
    env: toolEnvironment(process.env),
    outputLimit: 30_000,
  };
  const r = await executeToolCall(new Map([['Bash', createBashTool({ wrap })]]), 'Bash', { command, timeout: 10_000 }, ctx);
  return r.content;
}

/** Every file under dir with a hash of its content: what "nothing changed" is compared by. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    const p = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, p)] = entry.isFile()
      ? createHash('sha256')
          .update(await fs.readFile(p))
          .digest('hex')
      : entry.isDirectory()
        ? 'dir'
        : 'other';
  }
  return out;
}

describe('deny rules in the sandbox mount namespace', () => {
  it.each([
    'cat .env',
    'head -c 200 .env',
    "sed -n '1p' .env",
    'cp .env copy.txt; cat copy.txt',
    'tar cf - .env secrets certs | tar xOf -',
    "node -e \"process.stdout.write(require('fs').readFileSync('.env','utf8'))\"",
    'ln -s .env innocent && cat innocent',
    'ln -s secrets s2 && cat s2/token',
    'cat secrets/token; ls -la secrets',
    'cat certs/server.pem',
    'grep -r SECRET . 2>&1',
    'chmod 644 .env; cat .env',
    'F=.e; cat ${F}nv',
  ])('keeps the secret from %s', async (command) => {
    const out = await bash(`${command} 2>&1; echo end`);
    expect(out).toContain('end');
    expect(out).not.toContain(SECRET);
  });

  it('says "Permission denied" rather than showing an empty file', async () => {
    expect(await bash('cat .env 2>&1')).toMatch(/Permission denied/);
  });

  it('leaves readable what no rule denies', async () => {
    expect(await bash('cat README.md; cat .github/workflows/ci.yml')).toMatch(/hello\s+on: push/);
  });

  it('keeps .github unchanged under Edit(.github/**), new files included', async () => {
    const before = await snapshot(path.join(ws, '.github'));
    await fs.writeFile(path.join(ws, 'evil.yml'), 'on: pull_request_target\n');
    const attacks = [
      "sed -i 's/push/pull_request_target/' .github/workflows/ci.yml",
      'cp evil.yml .github/workflows/ci.yml',
      'cp evil.yml .github/workflows/new.yml',
      'touch .github/workflows/ci.yml .github/new',
      'mv evil.yml .github/workflows/evil.yml',
      'echo pwned > .github/workflows/ci.yml',
      'echo pwned >> .github/workflows/ci.yml',
      'rm -rf .github/workflows',
      'mkdir .github/x',
    ];
    for (const command of attacks) await bash(`${command} 2>&1; echo end`);
    expect(await snapshot(path.join(ws, '.github'))).toEqual(before);
    expect(await fs.readFile(path.join(ws, 'evil.yml'), 'utf8')).toMatch(/pull_request_target/);
  });

  it('keeps running commands when a hidden file is removed from outside the sandbox', async () => {
    await fs.rm(path.join(ws, 'certs', 'server.pem'));
    expect(await bash('echo still-runs')).toContain('still-runs');
    expect(await bash('cat .env 2>&1')).toMatch(/Permission denied/);
  });

  it('mounts read-only paths before hiding files, after the workspace', () => {
    const args = bwrapArgs(
      {
        workspace: '/ws',
        network: 'on',
        env: {},
        user: { kind: 'unprivileged' },
        confined: {
          unreadable: [
            { path: '/ws/.env', kind: 'file' },
            { path: '/ws/secrets', kind: 'dir' },
          ],
          readOnly: ['/ws/.github'],
          placeholder: '/tmp/p/denied',
        },
      },
      ['true'],
    );
    const line = args.join(' ');
    expect(line).toContain('--bind /ws /ws --ro-bind /ws/.github /ws/.github --ro-bind /tmp/p/denied /ws/.env');
    expect(line).toContain('--perms 0000 --tmpfs /ws/secrets --remount-ro /ws/secrets');
  });
});
