import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { atDefault, ruleLists } from '../../src/config/rules.js';
import type { TrustedSettings } from '../../src/config/merge.js';
import { DEFAULT_ALLOWED_TOOLS } from '../../src/config/loop-settings.js';
import { decide, offered } from '../../src/tools/permissions/decide.js';
import { loadRules, type RuleLists } from '../../src/tools/permissions/rules.js';

const ROOT = '/work/repo';
const SOURCE = '.claude/settings.json permissions.allow';

function trusted(allow: string[]): TrustedSettings {
  return {
    allow: allow.map((rule) => ({ rule, source: SOURCE })),
    deny: [],
    hooks: {},
    enableAllProjectMcpServers: false,
    enabledMcpjsonServers: [],
    disabledMcpjsonServers: [],
    env: {},
    sources: ['.claude/settings.json'],
  };
}

const inputs = (allow: readonly string[]) => ({
  allow: { source: 'allowed-tools', rules: [...allow] },
  deny: { source: 'disallowed-tools', rules: [] as string[] },
});

async function rulesOf(lists: RuleLists) {
  return loadRules(lists);
}

const call = (name: string, input: unknown) => ({ id: 't', name, input });

describe('the default allowed-tools never widens what the repository wrote', () => {
  it('drops the bare default rule of every tool the trusted settings name with specifiers', async () => {
    const rules = await rulesOf(ruleLists(inputs(DEFAULT_ALLOWED_TOOLS), trusted(['Bash(npm test:*)', 'Edit(src/**)'])));
    expect(decide(call('Bash', { command: 'npm test' }), rules, ROOT)).toEqual({ allowed: true });
    expect(decide(call('Bash', { command: 'rm -rf x' }), rules, ROOT)).toMatchObject({ allowed: false, reason: /no allow rule matches/ });
    expect(decide(call('Edit', { file_path: 'src/a.ts' }), rules, ROOT)).toEqual({ allowed: true });
    expect(decide(call('Edit', { file_path: 'README.md' }), rules, ROOT)).toMatchObject({ allowed: false });
    // Edit rules cover Write, so the bare default Write goes too.
    expect(decide(call('Write', { file_path: 'a' }), rules, ROOT)).toMatchObject({ allowed: false, reason: /Edit\(src\/\*\*\)/ });
    expect(decide(call('Write', { file_path: 'src/new.ts' }), rules, ROOT)).toEqual({ allowed: true });
    // Tools the settings do not limit keep their default.
    expect(decide(call('Read', { file_path: 'README.md' }), rules, ROOT)).toEqual({ allowed: true });
    expect(offered('Bash', rules) && offered('Write', rules) && offered('Grep', rules)).toBe(true);
  });

  it('a bare rule in the settings leaves that tool at its default, a specifier narrows it', async () => {
    const rules = await rulesOf(ruleLists(inputs(DEFAULT_ALLOWED_TOOLS), trusted(['Bash', 'Read(docs/**)'])));
    expect(decide(call('Bash', { command: 'rm -rf x' }), rules, ROOT)).toEqual({ allowed: true });
    expect(decide(call('Read', { file_path: 'src/a.ts' }), rules, ROOT)).toMatchObject({ allowed: false });
  });

  it('an explicit allowed-tools means exactly its rules, whatever the settings add', async () => {
    const rules = await rulesOf(ruleLists(inputs(['Read', 'Bash']), trusted(['Bash(npm test:*)'])));
    expect(decide(call('Bash', { command: 'rm -rf x' }), rules, ROOT)).toEqual({ allowed: true });
  });

  it('allows the MCP servers of mcp-config by being configured only while allowed-tools is at its default', async () => {
    const mcp = { source: 'mcp-config', rules: ['mcp__srv'] };
    const byDefault = await rulesOf(ruleLists(inputs(DEFAULT_ALLOWED_TOOLS), null, { mcp }));
    expect(offered('mcp__srv__touch', byDefault)).toBe(true);
    const explicit = await rulesOf(ruleLists(inputs(['Read']), null, { mcp }));
    expect(offered('mcp__srv__touch', explicit)).toBe(false);
    expect(decide(call('mcp__srv__touch', {}), explicit, ROOT)).toMatchObject({ allowed: false, reason: /no allow rule names/ });
    const named = await rulesOf(ruleLists(inputs(['Read', 'mcp__srv']), null, { mcp }));
    expect(decide(call('mcp__srv__touch', {}), named, ROOT)).toEqual({ allowed: true });
  });

  it("keeps the mode's own tools whatever allowed-tools says", async () => {
    const rules = await rulesOf(ruleLists(inputs(['Read']), null, { mode: { source: 'review mode', rules: ['ReviewComment'] } }));
    expect(offered('ReviewComment', rules)).toBe(true);
  });

  it("is at its default when left out or listing the default rules in any order, as action.yml's default does", () => {
    const action = parse(readFileSync('action.yml', 'utf8')) as { inputs: Record<string, { default?: string }> };
    const yml = (action.inputs['allowed-tools']?.default ?? '').split(',').map((t) => t.trim());
    expect(atDefault(yml)).toBe(true);
    expect(atDefault([...DEFAULT_ALLOWED_TOOLS].reverse())).toBe(true);
    expect(atDefault(DEFAULT_ALLOWED_TOOLS.filter((t) => t !== 'Bash'))).toBe(false);
    expect(atDefault([...DEFAULT_ALLOWED_TOOLS, 'mcp__srv'])).toBe(false);
  });
});
