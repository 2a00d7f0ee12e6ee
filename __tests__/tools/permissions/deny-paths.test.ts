import { mkdir, mkdtemp, realpath, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bashPathCheck } from '../../../src/tools/permissions/bash-paths.js';
import { confinedPaths } from '../../../src/tools/permissions/confine-paths.js';
import { hiddenByAny, hiddenPaths } from '../../../src/tools/permissions/hidden.js';
import { loadRules } from '../../../src/tools/permissions/rules.js';
import { withPermissions } from '../../../src/tools/permissions/with-permissions.js';

const HOME = '/home/nobody';

async function tree(files: Record<string, string>): Promise<string> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'deny-paths-')));
  for (const [p, content] of Object.entries(files)) {
    await mkdir(join(root, p, '..'), { recursive: true });
    await writeFile(join(root, p), content);
  }
  return root;
}

const rulesOf = (deny: string) =>
  loadRules({ allow: [{ source: 'allowed-tools', rules: 'Bash,Read,Grep,Glob' }], deny: [{ source: 'disallowed-tools', rules: deny }] });

describe('the hidden-path predicate', () => {
  it('hides what the Read deny rules cover, at any depth for a bare name, and nothing without them', async () => {
    const hidden = hiddenPaths(await rulesOf('Read(.env),Read(secrets/**),Read(**/*.pem)'), '/ws', [], HOME)!;
    for (const p of ['.env', 'app/.env', 'secrets/a', 'secrets/deep/b', 'x/key.pem']) expect(hidden(p)).toBe(true);
    for (const p of ['env', '.env.example', 'src/secrets.ts', 'pem', 'README.md']) expect(hidden(p)).toBe(false);
    expect(hiddenPaths(await rulesOf('Edit(.github/**)'), '/ws', [], HOME)).toBeUndefined();
  });

  it('composes with another source of hidden paths in one line', async () => {
    const deny = hiddenPaths(await rulesOf('Read(.env)'), '/ws', [], HOME);
    const both = hiddenByAny(deny, (p) => p.startsWith('gha-creds-'))!;
    expect([both('.env'), both('gha-creds-1.json'), both('src/a.ts')]).toEqual([true, true, false]);
    expect(hiddenByAny(undefined, undefined)).toBeUndefined();
  });
});

describe('the deny rules expanded over the files that exist', () => {
  it('takes a directory whole when new files in it would match, single files otherwise, and skips symlinks', async () => {
    const root = await tree({
      '.env': 'S',
      'app/.env': 'S',
      'secrets/a.txt': 'S',
      'secrets/sub/b.txt': 'S',
      'keys/server.pem': 'S',
      'keys/readme.md': 'ok',
      '.github/workflows/ci.yml': 'on: push',
      '.github/CODEOWNERS': '*',
      'src/a.ts': 'x',
    });
    await symlink('.env', join(root, 'link-to-env'));
    const rules = await rulesOf('Read(.env),Read(secrets/**),Read(**/*.pem),Edit(.github/**)');
    const c = await confinedPaths(rules, root, HOME);
    expect(c.unreadable).toEqual([
      { path: join(root, '.env'), kind: 'file' },
      { path: join(root, 'app/.env'), kind: 'file' },
      { path: join(root, 'keys/server.pem'), kind: 'file' },
      { path: join(root, 'secrets'), kind: 'dir' },
    ]);
    expect(c.readOnly).toEqual([join(root, '.github')]);
  });

  it('walks nothing when no Read or Edit deny rule has a path', async () => {
    const c = await confinedPaths(await rulesOf('Bash(rm:*)'), '/does/not/exist', HOME);
    expect(c).toEqual({ unreadable: [], readOnly: [] });
  });
});

describe('Bash commands naming a denied path (no sandbox)', () => {
  const READ = 'Read(.env),Read(secrets/**),Read(**/*.pem),Edit(.github/**)';
  const refused = [
    'cat .env',
    'head -c 100 ./.env',
    "sed -n '1,5p' .env",
    'cp .env notes.txt',
    'tar czf out.tgz .env',
    "node -e \"console.log(require('fs').readFileSync('.env', 'utf8'))\"",
    'ln -s .env innocent && cat innocent',
    'ls secrets/*',
    'cat secrets/token',
    'grep -r x keys/server.pem',
    'F=.env; cat $F',
    'echo "$(cat .env)"',
    'cat < .env',
    'base64 --input=.env',
    "sed -i 's/a/b/' .github/workflows/ci.yml",
    'cp evil.yml .github/workflows/ci.yml',
    'touch .github/new',
    'mv notes.txt .github/workflows/x.yml',
    'echo pwned > .github/workflows/ci.yml',
    'echo pwned >> .github/CODEOWNERS',
  ];
  const allowed = ['cat README.md', 'ls .github', 'cat .github/workflows/ci.yml', 'npm test', 'echo $HOME > out.txt', 'git status'];

  it.each(refused)('refuses %s', async (command) => {
    const root = await tree({ '.env': 'S', '.github/workflows/ci.yml': 'on: push', 'keys/server.pem': 'K' });
    const check = bashPathCheck(await rulesOf(READ), HOME)!;
    expect(check(command, root)).toEqual(
      expect.objectContaining({ rule: expect.objectContaining({ tool: expect.stringMatching(/Read|Edit/) }) }),
    );
  });

  it.each(allowed)('lets %s run', async (command) => {
    const root = await tree({ '.env': 'S', '.github/workflows/ci.yml': 'on: push' });
    const check = bashPathCheck(await rulesOf(READ), HOME)!;
    expect(check(command, root)).toBeUndefined();
  });

  it('follows a symlink that already exists to the denied file it points at', async () => {
    const root = await tree({ '.env': 'S' });
    await symlink('.env', join(root, 'innocent'));
    const check = bashPathCheck(await rulesOf('Read(.env)'), HOME)!;
    expect(check('cat innocent', root)).toEqual(expect.objectContaining({ word: 'innocent' }));
  });
});

describe('withPermissions and the sandbox', () => {
  const inner = (ran: string[]) => ({
    specs: () => [],
    isReadOnly: () => false,
    execute: (call: { input: unknown }) => {
      ran.push(String((call.input as { command: string }).command));
      return Promise.resolve({ isError: false, content: 'ran' });
    },
  });

  it('checks the words of Bash commands only when no sandbox enforces the rules', async () => {
    const root = await tree({ '.env': 'S' });
    const rules = await rulesOf('Read(.env)');
    for (const confined of [true, false]) {
      const ran: string[] = [];
      const set = withPermissions(inner(ran), rules, root, { bashConfined: Promise.resolve(confined) });
      const r = await set.execute({ id: 't', name: 'Bash', input: { command: 'cat .env' } }, new AbortController().signal);
      if (confined) {
        expect(ran).toEqual(['cat .env']);
      } else {
        expect(ran).toEqual([]);
        expect(r).toEqual({
          isError: true,
          content: expect.stringMatching(/^Permission denied: the deny rule Read\(\.env\) \(disallowed-tools\) matches `\.env`/),
        });
      }
    }
  });
});
