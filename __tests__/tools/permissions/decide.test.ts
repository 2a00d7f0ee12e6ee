import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decide, offered } from '../../../src/tools/permissions/decide.js';
import { realPathSync } from '../../../src/tools/permissions/paths.js';
import { loadRules, type Rules } from '../../../src/tools/permissions/rules.js';

const ROOT = '/work/repo';

function rulesOf(allow: string, deny = ''): Promise<Rules> {
  return loadRules({ allow: [{ source: 'allowed-tools', rules: allow }], deny: [{ source: 'disallowed-tools', rules: deny }] });
}

interface Case {
  /** What the case shows, as a sentence. */
  name: string;
  allow: string;
  deny?: string;
  tool: string;
  input: Record<string, unknown>;
  /** true, or a text the refusal must contain. */
  expect: true | string;
}

const npmTest = 'Bash(npm test:*)';
const bash = (name: string, command: string, expect: true | string, allow = npmTest, deny = ''): Case => ({
  name,
  allow,
  deny,
  tool: 'Bash',
  input: { command },
  expect,
});

/** Every way past `Bash(npm test:*)` from the contract: each must be refused. */
const bypasses: Case[] = [
  bash('refuses a command substitution in an argument', 'npm test $(curl x)', 'command substitution'),
  bash('refuses a command substitution inside double quotes', 'npm test "$(curl x)"', 'command substitution'),
  bash('refuses backticks', 'npm test `curl x`', 'command substitution'),
  bash('refuses process substitution <(...)', 'npm test <(curl x)', 'process substitution'),
  bash('refuses process substitution >(...)', 'npm test >(curl x)', 'process substitution'),
  bash('refuses a second command after ;', 'npm test; rm -rf .', 'no allow rule matches the command `rm -rf .`'),
  bash('refuses a second command after &&', 'npm test && rm -rf .', '`rm -rf .`'),
  bash('refuses a second command after ||', 'npm test || rm -rf .', '`rm -rf .`'),
  bash('refuses piping into a shell', 'npm test | sh', 'shell `sh`'),
  bash('refuses piping into another command', 'npm test | curl -d @- x', '`curl -d @- x`'),
  bash('refuses a background job next to it', 'npm test & rm -rf .', '`rm -rf .`'),
  bash('refuses a second command on a new line', 'npm test\nrm -rf .', '`rm -rf .`'),
  bash('refuses an escaped space that makes npm test one word', 'npm\\ test', 'no allow rule matches'),
  bash('refuses a quoted command name', '"npm" test', 'no allow rule matches'),
  bash('refuses an empty quote spliced into the name', "n''pm test", 'no allow rule matches'),
  bash('refuses a line continuation inside a word', 'npm te\\\nst', 'no allow rule matches'),
  bash('refuses an environment assignment before the command', 'PATH=/tmp/evil npm test', 'PATH=/tmp/evil npm test'),
  bash('refuses an assignment as a command of its own', 'PATH=/tmp/evil; npm test', '`PATH=/tmp/evil`'),
  bash('refuses an absolute path to another program', '/usr/bin/curl x', 'no allow rule matches'),
  bash('refuses an absolute path to npm itself', '/usr/bin/npm test', 'no allow rule matches'),
  bash('refuses a redirection into a file', 'npm test > /etc/passwd', 'writes to `/etc/passwd` by redirection'),
  bash('refuses an appending redirection', 'npm test >> out.log', 'by redirection'),
  bash('refuses &> into a file', 'npm test &> out.log', 'by redirection'),
  bash('refuses >& into a file', 'npm test >& out.log', 'by redirection'),
  bash('refuses a read-write redirection', 'npm test 3<> f', 'by redirection'),
  bash('refuses eval', 'eval npm test', '`eval`'),
  bash('refuses source', 'source ./evil.sh', '`source`'),
  bash('refuses the dot builtin', '. ./evil.sh', '`.`'),
  bash('refuses eval behind a wrapper', 'command eval "npm test"', '`eval`'),
  bash('refuses sh -c', 'sh -c "npm test"', 'shell `sh`'),
  bash('refuses trap, which runs a string later', "trap 'rm -rf .' EXIT; npm test", '`trap`'),
  bash('refuses a substitution hidden in a default value', 'npm test ${X:-$(id)}', 'command substitution'),
  bash('refuses arithmetic expansion', 'npm test $((x))', 'arithmetic'),
  bash('refuses indirect expansion', 'npm test ${!x}', 'indirect expansion'),
  bash('refuses prompt expansion', 'npm test ${x@P}', 'can evaluate code'),
  bash('refuses an assigning expansion', 'npm test ${NODE_OPTIONS:=--require=x}', 'assigns a variable'),
  bash('refuses a variable as the command name', '$CMD test', 'not a literal word'),
  bash('refuses a function definition', 'f() { rm -rf .; }; f', 'defines a function'),
  bash('refuses a for loop, which assigns its variable', 'for PATH in /tmp/evil; do npm test; done', 'for loop'),
  bash('refuses [[ ]], which evaluates arithmetic', '[[ x -eq 1 ]] && npm test', '[[ ... ]]'),
  bash('refuses a here-document that substitutes', 'npm test <<EOF\n$(id)\nEOF', 'command substitution'),
  bash('refuses a here-string that substitutes', 'npm test <<< "$(id)"', 'command substitution'),
  bash('refuses what cannot be parsed', 'npm test "unterminated', 'cannot be parsed'),
  bash('refuses a stray parenthesis', 'npm test )', 'cannot be parsed'),
  bash('refuses a subshell that runs another command', '(npm test; rm -rf .)', '`rm -rf .`'),
  bash('refuses an array subscript passed to declare', "declare 'a[$(id)]=1'", 'array subscript'),
  bash('refuses a command that runs nothing to match', '# just a comment', 'runs nothing'),
  bash('refuses npm testx, which is not npm test at a word boundary', 'npm testx', 'no allow rule matches'),
  // What Claude Code refuses although every command is allowed.
  bash('refuses a plain variable in the arguments', 'npm test $FILE', '`$FILE` takes a variable'),
  bash('refuses a braced variable inside quotes', 'npm test "${FILE}"', 'takes a variable'),
  bash('refuses a variable with a default in the arguments', 'npm test ${FILE:-x}', '`${FILE:-x}` takes a variable'),
  bash('refuses a substituting expansion inside quotes', 'npm test "${FILE/a/b}"', 'takes a variable'),
  bash('refuses an allowed command in the background', 'npm test &', 'in the background'),
  bash('refuses an allowed command in a subshell', '(npm test)', 'in a subshell'),
  bash('refuses an allowed command in a command group', '{ npm test; }', 'in a command group'),
  bash('refuses a quoted here-document, which substitutes nothing', "npm test <<'EOF'\n$(id)\nEOF", 'here-document'),
  bash('refuses a here-document given to a read-only command', 'cat <<EOF\nhi\nEOF', 'here-document'),
  bash('refuses an unsafe variable before the command', 'NODE_OPTIONS=--require=./x.js npm test', 'no allow rule matches'),
  bash('refuses a safe variable whose value expands', 'NODE_ENV=$X npm test', 'takes a variable'),
  bash('refuses a wrapper whose options are not known', 'timeout --bogus 5 npm test', 'no allow rule matches'),
  bash('refuses a wrapper that changes what runs', 'sudo npm test', 'no allow rule matches'),
  bash('refuses xargs, which runs its input as arguments', 'echo x | xargs npm test', 'no allow rule matches'),
  bash('refuses cd out of the workspace', 'cd .. && npm test', 'no allow rule matches the command `cd ..`'),
  bash('refuses cd to an absolute path elsewhere', 'cd /tmp && npm test', '`cd /tmp`'),
  bash('refuses cd home', 'cd ~ && npm test', '`cd ~`'),
  bash('refuses a read-only command reading outside the workspace', 'npm test && cat /etc/passwd', '`cat /etc/passwd`'),
  bash('refuses a relative path that climbs out after cd', 'cd src && cat ../../etc/passwd', '`cat ../../etc/passwd`'),
  bash('refuses a read-only command with an unknown option', 'npm test | tail --follow=name x', '`tail --follow=name x`'),
  bash('refuses uniq, which writes its second operand', 'npm test | uniq in out', '`uniq in out`'),
  bash('refuses sort -o, which writes', 'npm test | sort -o out', '`sort -o out`'),
  bash('refuses echo of a variable', 'npm test && echo $HOME', '`$HOME` takes a variable'),
  bash('refuses find, which can delete and run', 'npm test && find . -delete', '`find . -delete`'),
];

const bashAllowed: Case[] = [
  bash('allows exactly npm test under npm test:*', 'npm test', true),
  bash('allows npm test with arguments under npm test:*', 'npm test -- --watch=false', true),
  bash('allows extra spaces between the words', 'npm    test', true),
  bash('allows descriptor redirections and /dev/null', 'npm test 2>&1 > /dev/null', true),
  bash('allows reading a file on standard input', 'npm test < input.txt', true),
  bash('allows a comment after the command', 'npm test # ; rm -rf .', true),
  bash('allows a list where every command is allowed', 'npm test && npm test -- b; npm test | npm test', true),
  bash('allows each command of a list by a different rule', 'npm test && git diff HEAD', true, `${npmTest}, Bash(git diff *)`),
  // Claude Code's forms: read-only commands around an allowed one, wrappers, safe variables.
  bash('allows piping into tail', 'npm test 2>&1 | tail -20', true),
  bash('allows cd into the workspace first', 'cd src && npm test', true),
  bash('allows cd . and a nested directory', 'cd . && cd a/b && npm test', true),
  bash('allows timeout', 'timeout 60 npm test', true),
  bash('allows timeout with its options', 'timeout -k 5 --preserve-status 2m npm test', true),
  bash('allows nice, nohup, time and stdbuf', 'nice -n 5 nohup time stdbuf -oL npm test', true),
  bash('allows NODE_ENV=test', 'NODE_ENV=test npm test', true),
  bash('allows CI=true', 'CI=true npm test', true),
  bash('allows several safe variables and a wrapper', 'CI=1 FORCE_COLOR=0 timeout 30 npm test -- --ci', true),
  bash('allows echo after it', 'npm test && echo finished', true),
  bash('allows echo with quoted words', `npm test; echo "tests done" 'ok'`, true),
  bash('allows head, wc and grep in a pipeline', 'npm test 2>&1 | grep -v warn | head -n 5 | wc -l', true),
  bash('allows git diff into head under git diff:*', 'git diff HEAD~1 | head -5', true, 'Bash(git diff:*)'),
  bash('allows a read-only command alone', 'ls -la src', true),
  bash('allows cat of a workspace file', 'cat package.json', true),
  bash('allows pwd and true', 'pwd; true', true),
];

const bashRules: Case[] = [
  bash('matches an exact rule exactly', 'npm test', true, 'Bash(npm test)'),
  bash('refuses arguments an exact rule does not have', 'npm test --watch', 'no allow rule matches', 'Bash(npm test)'),
  bash('matches a trailing wildcard with arguments', 'git diff HEAD~1 -- src', true, 'Bash(git diff *)'),
  bash('matches a trailing wildcard with no arguments', 'git diff', true, 'Bash(git diff *)'),
  bash('refuses a longer first word under a spaced wildcard', 'git diffx', 'no allow rule matches', 'Bash(git diff *)'),
  bash('matches a wildcard without a space inside the word', 'lsof -i', true, 'Bash(ls*)'),
  bash('matches a wildcard in the middle across words', 'git push origin main', true, 'Bash(git * main)'),
  bash('refuses a last word that only looks like main', 'git push origin\\ main', 'no allow rule matches', 'Bash(git * main)'),
  bash('matches quoted words spelled as in the rule', 'git commit -m "wip"', true, 'Bash(git commit -m "wip")'),
  bash('refuses quoted words spelled differently', "git commit -m 'wip'", 'no allow rule matches', 'Bash(git commit -m "wip")'),
  bash('matches an escaped star only literally', 'ls *', 'no allow rule matches', 'Bash(ls \\*)'),
  bash('allows a comma inside a rule', 'git diff a,b', true, 'Bash(git diff a,b)'),
  bash('keeps gh:* from allowing other commands', 'rm -rf .', 'Bash is allowed only by Bash(gh:*) (allowed-tools)', 'Bash(gh:*)'),
  bash('keeps gh:* at a word boundary', 'ghx', 'no allow rule matches', 'Bash(gh:*)'),
  bash('allows gh subcommands under gh:*', 'gh pr list --json number', true, 'Bash(gh:*)'),
  bash('matches an assignment only when the rule spells it', 'CI=1 npm test', true, 'Bash(CI=1 npm test:*)'),
  bash(
    'applies deny rules before allow rules',
    'git push origin',
    'the deny rule Bash(git push:*) (disallowed-tools)',
    'Bash(git:*)',
    'Bash(git push:*)',
  ),
  bash('allows what the deny rule does not cover', 'git status', true, 'Bash(git:*)', 'Bash(git push:*)'),
  bash('refuses a denied command under a bare Bash allow', 'rm -rf .', 'the deny rule Bash(rm:*)', 'Bash', 'Bash(rm:*)'),
  bash('sees through an absolute path for deny rules', '/bin/rm -rf .', 'Bash(rm:*)', 'Bash', 'Bash(rm:*)'),
  bash('sees through quoting for deny rules', '"rm" -rf .', 'Bash(rm:*)', 'Bash', 'Bash(rm:*)'),
  bash('sees through assignments for deny rules', 'X=1 rm -rf .', 'Bash(rm:*)', 'Bash', 'Bash(rm:*)'),
  bash('sees through wrappers for deny rules', 'sudo -u root env A=1 rm -rf .', 'Bash(rm:*)', 'Bash', 'Bash(rm:*)'),
  bash('refuses substitutions once a deny rule has a specifier', 'echo $(rm -rf .)', 'command substitution', 'Bash', 'Bash(rm:*)'),
  bash('allows other commands under a bare allow and a deny', 'ls -la | wc -l', true, 'Bash', 'Bash(rm:*)'),
  bash('lets a bare Bash allow anything when no rule has a specifier', 'echo $(date) > out.txt', true, 'Bash'),
  bash(
    'refuses every Bash call under a bare deny',
    'npm test',
    'the deny rule Bash (disallowed-tools) refuses every Bash call',
    npmTest,
    'Bash',
  ),
];

const file = (name: string, tool: string, input: Record<string, unknown>, expect: true | string, allow: string, deny = ''): Case => ({
  name,
  tool,
  input,
  expect,
  allow,
  deny,
});

const pathCases: Case[] = [
  file('allows an edit inside the allowed tree', 'Edit', { file_path: 'src/a/b.ts' }, true, 'Edit(src/**)'),
  file(
    'refuses an edit outside the allowed tree',
    'Edit',
    { file_path: 'README.md' },
    'Edit is allowed only by Edit(src/**)',
    'Edit(src/**)',
  ),
  file('lets Edit rules cover Write', 'Write', { file_path: 'src/new.ts' }, true, 'Edit(src/**)'),
  file('refuses a Write that Edit rules do not cover', 'Write', { file_path: 'package.json' }, 'no allow rule matches', 'Edit(src/**)'),
  file('makes an absolute path inside the workspace relative', 'Edit', { file_path: `${ROOT}/src/x.ts` }, true, 'Edit(src/**)'),
  file('resolves .. before matching', 'Edit', { file_path: 'src/../.github/workflows/ci.yml' }, 'no allow rule matches', 'Edit(src/**)'),
  file('never allows a path outside the workspace', 'Read', { file_path: '/etc/passwd' }, 'outside the workspace', 'Read(**)'),
  file('never allows a relative escape from the workspace', 'Read', { file_path: '../other/x' }, 'outside the workspace', 'Read(**)'),
  file(
    'matches a slashless deny pattern at any depth',
    'Read',
    { file_path: 'config/.env' },
    'the deny rule Read(.env)',
    'Read',
    'Read(.env)',
  ),
  file('matches a slashless deny pattern at the root', 'Read', { file_path: '.env' }, 'Read(.env)', 'Read', 'Read(.env)'),
  file(
    'matches a deny pattern with a slash at any depth too, as Claude Code does',
    'Read',
    { file_path: 'config/secrets/key' },
    'the deny rule Read(secrets/**)',
    'Read',
    'Read(secrets/**)',
  ),
  file(
    'keeps a leading-slash deny pattern at the root',
    'Read',
    { file_path: 'sub/config/private.json' },
    true,
    'Read',
    'Read(/config/private.json)',
  ),
  file('keeps an allow pattern with a slash at the root', 'Write', { file_path: 'lib/src/x.ts' }, 'no allow rule matches', 'Edit(src/**)'),
  file('matches **/*.key inside dot directories', 'Read', { file_path: 'a/.ssh/id.key' }, 'Read(**/*.key)', 'Read', 'Read(**/*.key)'),
  file(
    'matches a slashless deny pattern outside the workspace too',
    'Read',
    { file_path: '/tmp/x.key' },
    'Read(*.key)',
    'Read',
    'Read(*.key)',
  ),
  file('anchors a pattern with a leading slash', 'Read', { file_path: 'lib/src/a.ts' }, 'no allow rule matches', 'Read(/src/*.ts)'),
  file('covers what is inside a matched directory', 'Read', { file_path: 'docs/guide/x.md' }, true, 'Read(docs)'),
  file('reads parentheses literally', 'Read', { file_path: 'app/group/page.tsx' }, 'no allow rule matches', 'Read(app/(group)/**)'),
  file('matches literal parentheses', 'Read', { file_path: 'app/(group)/page.tsx' }, true, 'Read(app/(group)/**)'),
  file('reads braces literally', 'Read', { file_path: 'a.ts' }, 'no allow rule matches', 'Read({a,b}.ts)'),
  file('refuses a call without a path under path rules', 'Read', {}, 'without a usable path', 'Read(src/**)'),
  file('lets a bare rule allow any path', 'Read', { file_path: 'anything' }, true, 'Read'),
  file('takes the root as the default search path', 'Glob', { pattern: '*.ts' }, 'no allow rule matches `.`', 'Glob(src/**)'),
  file('allows a search rooted in the allowed tree', 'Grep', { pattern: 'x', path: 'src' }, true, 'Grep(src/**)'),
  file(
    'lets a Read deny refuse a search inside what it covers',
    'Grep',
    { pattern: 'x', path: 'secrets/a' },
    'Read(secrets/**)',
    'Grep',
    'Read(secrets/**)',
  ),
];

const otherCases: Case[] = [
  file('lets an MCP server rule cover its tools', 'mcp__github__create_issue', {}, true, 'mcp__github'),
  file('lets an MCP wildcard rule cover its tools', 'mcp__github__create_issue', {}, true, 'mcp__github__*'),
  file('keeps an MCP server rule to its server', 'mcp__gitlab__create_issue', {}, 'no allow rule names the tool', 'mcp__github'),
  file('keeps an MCP tool rule to its tool', 'mcp__github__delete_repo', {}, 'no allow rule names', 'mcp__github__create_issue'),
  file(
    'denies one MCP tool of an allowed server',
    'mcp__github__delete_repo',
    {},
    'mcp__github__delete_repo (disallowed-tools)',
    'mcp__github',
    'mcp__github__delete_repo',
  ),
  file('matches Task by subagent type', 'Task', { subagent_type: 'explore', prompt: 'p' }, true, 'Task(explore)'),
  file('refuses other subagent types', 'Task', { subagent_type: 'general' }, 'subagent_type `general`', 'Task(explore)'),
  file('refuses a specifier it cannot evaluate', 'ReviewComment', { body: 'x' }, 'key argument is unknown', 'ReviewComment(x)'),
  file('refuses a tool no allow rule names', 'TodoWrite', { todos: [] }, 'no allow rule names the tool TodoWrite', 'Read,Edit'),
];

const table = [...bypasses, ...bashAllowed, ...bashRules, ...pathCases, ...otherCases];

describe('decide', () => {
  it('has a table of at least 60 cases', () => {
    expect(table.length).toBeGreaterThanOrEqual(60);
  });

  it.each(table.map((c) => [c.name, c]))('%s', async (_name, c) => {
    const rules = await rulesOf(c.allow, c.deny);
    const decision = decide({ id: 't', name: c.tool, input: c.input }, rules, ROOT, { home: '/home/u' });
    if (c.expect === true) {
      expect(decision).toEqual({ allowed: true });
    } else {
      expect(decision.allowed).toBe(false);
      if (!decision.allowed) expect(decision.reason).toContain(c.expect);
    }
  });

  it('treats ask rules as deny rules and says why', async () => {
    const rules = await loadRules({
      allow: [{ source: 'allowed-tools', rules: 'Bash(git:*)' }],
      deny: [{ source: '.claude/settings.json permissions.ask', rules: 'Bash(git push:*)' }],
    });
    const decision = decide({ id: 't', name: 'Bash', input: { command: 'git push' } }, rules, ROOT);
    const named = 'Bash(git push:*) (.claude/settings.json permissions.ask, an ask rule: nobody can answer one in CI)';
    expect(decision).toEqual({ allowed: false, reason: expect.stringContaining(named) });
  });

  it('names the structural refusal and the rules that called for it', async () => {
    const decision = decide({ id: 't', name: 'Bash', input: { command: 'npm test $(curl x)' } }, await rulesOf(npmTest), ROOT);
    expect(decision).toEqual({
      allowed: false,
      reason: expect.stringMatching(/command substitution `\$\(curl x\)`.*Bash\(npm test:\*\) \(allowed-tools\)/),
    });
  });

  it('refuses Bash calls without a command string', async () => {
    const decision = decide({ id: 't', name: 'Bash', input: { command: 42 } }, await rulesOf(npmTest), ROOT);
    expect(decision.allowed).toBe(false);
  });
});

describe('symlinks', () => {
  let root: string;
  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'permissions-'));
    await fs.mkdir(path.join(root, 'src'));
    await fs.mkdir(path.join(root, '.github'));
    await fs.symlink('../.github', path.join(root, 'src', 'link'));
    await fs.symlink('../.github/new.yml', path.join(root, 'src', 'dangling'));
  });
  afterEach(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it('refuses a write through a link that leaves the allowed tree', async () => {
    const rules = await rulesOf('Edit(src/**)');
    const call = { id: 't', name: 'Write', input: { file_path: 'src/link/workflows/ci.yml' } };
    expect(decide(call, rules, root)).toEqual({ allowed: true }); // lexically fine...
    expect(decide(call, rules, root, { realPath: realPathSync })).toEqual({
      allowed: false,
      reason: expect.stringContaining('resolves to'),
    });
  });

  it('follows a dangling link to where a write would create its target', async () => {
    const rules = await rulesOf('Edit', 'Edit(.github/**)');
    const call = { id: 't', name: 'Edit', input: { file_path: 'src/dangling' } };
    expect(decide(call, rules, root, { realPath: realPathSync })).toEqual({
      allowed: false,
      reason: expect.stringContaining('the deny rule Edit(.github/**)'),
    });
  });
});

describe('paths resolved only when a rule can depend on them', () => {
  it('lets a bare allow rule with no deny rule through without resolving the path, and resolves it once a deny rule names the tool', async () => {
    const resolved: string[] = [];
    const realPath = (p: string) => (resolved.push(p), p);
    const call = { id: 't', name: 'Read', input: { file_path: 'src/a.ts' } };
    expect(decide(call, await rulesOf('Read'), ROOT, { realPath })).toEqual({ allowed: true });
    expect(decide(call, await rulesOf('Read', 'Bash'), ROOT, { realPath })).toEqual({ allowed: true });
    expect(resolved).toEqual([]);
    expect(decide(call, await rulesOf('Read', 'Read(.env)'), ROOT, { realPath })).toEqual({ allowed: true });
    expect(decide(call, await rulesOf('Read(src/**)'), ROOT, { realPath })).toEqual({ allowed: true });
    expect(resolved.length).toBeGreaterThan(0);
    // What cannot be resolved still matches every deny rule.
    const unknown = () => undefined;
    expect(decide(call, await rulesOf('Read', 'Read(.env)'), ROOT, { realPath: unknown })).toMatchObject({ allowed: false });
  });
});

describe('offered', () => {
  it('offers a tool an allow rule names, with or without a specifier', async () => {
    const rules = await rulesOf('Bash(npm test:*), Read');
    expect(offered('Bash', rules)).toBe(true);
    expect(offered('Read', rules)).toBe(true);
    expect(offered('Grep', rules)).toBe(false);
  });

  it('keeps offering a tool whose deny rules have specifiers', async () => {
    expect(offered('Bash', await rulesOf('Bash', 'Bash(rm:*)'))).toBe(true);
  });

  it('hides a tool a bare deny rule names', async () => {
    expect(offered('Bash', await rulesOf('Bash(npm test:*)', 'Bash'))).toBe(false);
  });

  it('offers Write when an Edit rule with a path covers it', async () => {
    expect(offered('Write', await rulesOf('Edit(src/**)'))).toBe(true);
    expect(offered('Write', await rulesOf('Edit'))).toBe(false);
  });

  it('hides every tool of a server denied as a whole', async () => {
    const rules = await rulesOf('mcp__github', 'mcp__github__*');
    expect(offered('mcp__github__create_issue', rules)).toBe(false);
  });
});
