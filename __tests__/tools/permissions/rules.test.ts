import { compileRules, loadRules, parseRuleList, PermissionRuleError, splitRuleList } from '../../../src/tools/permissions/rules.js';
import { decide, offered } from '../../../src/tools/permissions/decide.js';

describe('rule lists', () => {
  it('split at commas and newlines, trimming and skipping blanks', () => {
    expect(splitRuleList('Read, Edit(src/**)\n\nBash(npm test:*) ,\r\nGlob', 'allowed-tools')).toEqual([
      'Read',
      'Edit(src/**)',
      'Bash(npm test:*)',
      'Glob',
    ]);
  });

  it('keep a comma inside parentheses in its rule', () => {
    expect(splitRuleList('Bash(git diff a,b),Read', 'allowed-tools')).toEqual(['Bash(git diff a,b)', 'Read']);
  });

  it('keep quoted parentheses and commas inside a Bash specifier', () => {
    expect(splitRuleList('Bash(echo ")", a),Read', 'x')).toEqual(['Bash(echo ")", a)', 'Read']);
  });

  it('take an array entry as one rule, commas and all', () => {
    const rules = parseRuleList(['Bash(git diff a,b)', ' Read '], 'permissions.allow');
    expect(rules.map((r) => [r.tool, r.specifier, r.text, r.source])).toEqual([
      ['Bash', 'git diff a,b', 'Bash(git diff a,b)', 'permissions.allow'],
      ['Read', undefined, 'Read', 'permissions.allow'],
    ]);
  });

  it('parse MCP server, tool and server-wildcard names', () => {
    const rules = parseRuleList('mcp__github, mcp__github__create_issue, mcp__git-hub__*', 'allowed-tools');
    expect(rules.map((r) => r.tool)).toEqual(['mcp__github', 'mcp__github__create_issue', 'mcp__git-hub__*']);
  });
});

describe("Claude Code's rules for tools this product lacks", () => {
  it('are kept, marked, and never fail: NotebookEdit (WebFetch and WebSearch are tools here)', () => {
    const rules = parseRuleList('WebFetch(domain:example.com), WebSearch, NotebookEdit(docs/*.ipynb), Read', 'permissions.allow');
    expect(rules.map((r) => [r.tool, r.specifier, r.unknownTool])).toEqual([
      ['WebFetch', 'domain:example.com', undefined],
      ['WebSearch', undefined, undefined],
      ['NotebookEdit', 'docs/*.ipynb', true],
      ['Read', undefined, undefined],
    ]);
  });

  it('allow and deny nothing: an unknown deny rule does not refuse a real tool, an unknown allow rule offers nothing', async () => {
    const rules = await loadRules({
      allow: [{ source: 'allowed-tools', rules: 'WebSearch, Read' }],
      deny: [{ source: 'permissions.deny', rules: ['NotebookEdit', 'WebFetch(domain:evil.example)'] }],
    });
    expect(offered('Read', rules)).toBe(true);
    expect(offered('WebSearch', rules)).toBe(true);
    expect(offered('Edit', rules)).toBe(false);
    expect(decide({ id: '1', name: 'Read', input: { file_path: 'a.txt' } }, rules, '/repo').allowed).toBe(true);
  });

  it('read Agent(...) as Task(...), the name Claude Code gives the subagent tool now', async () => {
    const [rule] = parseRuleList('Agent(explorer)', 'allowed-tools');
    expect(rule).toMatchObject({ tool: 'Task', specifier: 'explorer', text: 'Agent(explorer)' });
    const rules = await loadRules({ allow: [{ source: 'allowed-tools', rules: 'Agent(explorer)' }] });
    const call = (type: string) => ({ id: '1', name: 'Task', input: { description: 'd', prompt: 'p', subagent_type: type } });
    expect(decide(call('explorer'), rules, '/repo').allowed).toBe(true);
    expect(decide(call('general-purpose'), rules, '/repo').allowed).toBe(false);
  });
});

describe('invalid rules throw an error naming the rule and its source', () => {
  const invalid: [string, string, RegExp][] = [
    ['an unbalanced Bash rule', 'Bash(npm test', /"Bash\(npm test" in allowed-tools: '\(' without '\)'/],
    ['an opened and never closed rule', 'Edit(', /"Edit\(" in allowed-tools/],
    ['a stray closing parenthesis', 'Read)', /"Read\)" in allowed-tools/],
    ['an empty specifier', 'Bash()', /"Bash\(\)" in allowed-tools: the specifier is empty/],
    ['a blank specifier', 'Read(   )', /the specifier is empty/],
    ['a lower-case tool name', 'bash', /unknown tool "bash" \(did you mean Bash\?\)/],
    ['a tool name in the wrong case with a specifier', 'read(.env)', /did you mean Read\?/],
    ['a bare mcp prefix', 'mcp__', /unknown tool "mcp__"/],
    ['an MCP rule with a specifier', 'mcp__github(x)', /takes no specifier/],
    ['a specifier on TodoWrite', 'TodoWrite(x)', /TodoWrite takes no specifier/],
    ['text after the closing parenthesis', 'Read(a) b', /without a closing '\)' at the end/],
    ['a path pattern leaving the workspace', 'Read(../secrets/**)', /'\.\.' is not allowed/],
    ['unbalanced parentheses in a path', 'Read(a)(b', /'\(' without '\)'/],
  ];
  it.each(invalid)('%s', (_name, text, message) => {
    expect(() => parseRuleList(text, 'allowed-tools')).toThrow(PermissionRuleError);
    expect(() => parseRuleList(text, 'allowed-tools')).toThrow(message);
  });

  const invalidBash: [string, string, RegExp][] = [
    ['a compound command', 'Bash(npm run build && npm test)', /one simple command/],
    ['a pipeline', 'Bash(git log | head)', /one simple command/],
    ['a redirection', 'Bash(npm test > out.txt)', /cannot contain redirections/],
    ['a command substitution', 'Bash(echo $(id))', /expansion or substitution/],
    ['a variable', 'Bash(echo $HOME)', /expansion or substitution/],
    ['a ? glob', 'Bash(ls a?)', /only \* is a wildcard/],
    ['an unterminated quote', 'Bash(echo "a)', /unterminated/],
    ['nothing before :*', 'Bash(:*)', /no command before :\*/],
  ];
  it.each(invalidBash)('a Bash rule with %s', async (_name, text, message) => {
    const lists = { allow: [{ source: '.claude/settings.json permissions.allow', rules: [text] }] };
    await expect(loadRules(lists)).rejects.toThrow(PermissionRuleError);
    await expect(loadRules(lists)).rejects.toThrow(`in .claude/settings.json permissions.allow`);
    await expect(loadRules(lists)).rejects.toThrow(message);
  });
});

describe('loading rules', () => {
  it('loads no shell parser when no Bash rule has a specifier', async () => {
    const rules = await loadRules({ allow: [{ source: 'allowed-tools', rules: 'Bash,Read' }], deny: [{ source: 'x', rules: 'Write' }] });
    expect(rules.bash).toBeUndefined();
    expect(rules.allow.map((r) => r.text)).toEqual(['Bash', 'Read']);
    expect(rules.deny.map((r) => r.text)).toEqual(['Write']);
  });

  it('loads the shell parser for a Bash deny rule with a specifier', async () => {
    const rules = await loadRules({ allow: [{ source: 'a', rules: 'Bash' }], deny: [{ source: 'd', rules: 'Bash(rm:*)' }] });
    expect(rules.bash).toBeDefined();
  });

  it('refuses to compile Bash specifiers without the parser rather than skip them', () => {
    expect(() => compileRules({ allow: [{ source: 'a', rules: 'Bash(npm test)' }] })).toThrow(/need the shell parser/);
  });

  it('keeps Bash(gh:*) a specifier rule, never a bare Bash', async () => {
    const rules = await loadRules({ allow: [{ source: 'allowed-tools', rules: 'Bash(gh:*)' }] });
    expect(rules.allow).toEqual([{ tool: 'Bash', specifier: 'gh:*', text: 'Bash(gh:*)', source: 'allowed-tools' }]);
  });
});
