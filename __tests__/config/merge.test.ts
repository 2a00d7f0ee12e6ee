import { mergeHooks, mergeSettings, parseClaudeSettings, type ClaudeSettings } from '../../src/config/index.js';

const settings = (value: unknown): ClaudeSettings => parseClaudeSettings(JSON.stringify(value), 'test', () => {});
const REPO = '.claude/settings.json (base branch main)';
const INPUT = 'settings input';

describe('mergeSettings', () => {
  test('no sources: nothing allowed, nothing denied, MCP servers off', () => {
    expect(mergeSettings([])).toEqual({
      allow: [],
      deny: [],
      hooks: {},
      env: {},
      enableAllProjectMcpServers: false,
      enabledMcpjsonServers: [],
      disabledMcpjsonServers: [],
      sources: [],
    });
  });

  test('rule lists are concatenated in source order, each rule naming its source', () => {
    const merged = mergeSettings([
      { source: REPO, settings: settings({ permissions: { allow: ['Bash(npm test)'], deny: ['Bash(curl:*)'] } }) },
      { source: INPUT, settings: settings({ permissions: { allow: ['Bash(curl:*)'], deny: ['Write(.github/**)'] } }) },
    ]);
    expect(merged.allow).toEqual([
      { rule: 'Bash(npm test)', source: `${REPO} permissions.allow` },
      { rule: 'Bash(curl:*)', source: 'settings input permissions.allow' },
    ]);
    // The later allow of a rule the repository denies does not remove the deny: both are kept, deny wins downstream.
    expect(merged.deny).toEqual([
      { rule: 'Bash(curl:*)', source: `${REPO} permissions.deny` },
      { rule: 'Write(.github/**)', source: 'settings input permissions.deny' },
    ]);
    expect(merged.sources).toEqual([REPO, INPUT]);
  });

  test('ask rules are folded into deny, their source saying so', () => {
    const merged = mergeSettings([
      { source: '.claude/settings.json', settings: settings({ permissions: { deny: ['WebFetch'], ask: ['Bash(git push:*)'] } }) },
    ]);
    expect(merged.deny).toEqual([
      { rule: 'WebFetch', source: '.claude/settings.json permissions.deny' },
      { rule: 'Bash(git push:*)', source: '.claude/settings.json permissions.ask (treated as deny)' },
    ]);
    expect(merged.allow).toEqual([]);
  });

  test('hooks: for each event the matchers of all sources, in order', () => {
    const repoHook = { matcher: 'Bash', hooks: [{ type: 'command', command: 'repo-check' }] };
    const inputHook = { hooks: [{ type: 'command', command: 'input-check' }] };
    const stopHook = { hooks: [{ type: 'command', command: 'notify' }] };
    const merged = mergeSettings([
      { source: REPO, settings: settings({ hooks: { PreToolUse: [repoHook] } }) },
      { source: INPUT, settings: settings({ hooks: { PreToolUse: [inputHook], Stop: [stopHook] } }) },
    ]);
    expect(merged.hooks).toEqual({ PreToolUse: [repoHook, inputHook], Stop: [stopHook] });
  });

  test('env: later sources win per variable', () => {
    const merged = mergeSettings([
      { source: REPO, settings: settings({ env: { NODE_ENV: 'test', CI: '1' } }) },
      { source: INPUT, settings: settings({ env: { NODE_ENV: 'production' } }) },
    ]);
    expect(merged.env).toEqual({ NODE_ENV: 'production', CI: '1' });
  });

  test('disableAllHooks: true clears the hooks of every source; a later false turns them back on', () => {
    const hook = { hooks: [{ type: 'command', command: 'check' }] };
    const off = mergeSettings([
      { source: REPO, settings: settings({ hooks: { Stop: [hook] } }) },
      { source: INPUT, settings: settings({ disableAllHooks: true, hooks: { PreToolUse: [hook] } }) },
    ]);
    expect(off.hooks).toEqual({});
    const on = mergeSettings([
      { source: REPO, settings: settings({ disableAllHooks: true, hooks: { Stop: [hook] } }) },
      { source: INPUT, settings: settings({ disableAllHooks: false }) },
    ]);
    expect(on.hooks).toEqual({ Stop: [hook] });
  });

  test('disabledMcpjsonServers: the union of all sources', () => {
    const merged = mergeSettings([
      { source: REPO, settings: settings({ disabledMcpjsonServers: ['db'] }) },
      { source: INPUT, settings: settings({ disabledMcpjsonServers: ['db', 'web'] }) },
    ]);
    expect(merged.disabledMcpjsonServers).toEqual(['db', 'web']);
  });

  test('mergeHooks leaves out events no source has', () => {
    expect(mergeHooks({}, {})).toEqual({});
  });

  test('enableAllProjectMcpServers: the last source that sets it decides', () => {
    const on = { source: 'a', settings: settings({ enableAllProjectMcpServers: true }) };
    const off = { source: 'b', settings: settings({ enableAllProjectMcpServers: false }) };
    const unset = { source: 'c', settings: settings({}) };
    expect(mergeSettings([on, unset]).enableAllProjectMcpServers).toBe(true);
    expect(mergeSettings([on, off]).enableAllProjectMcpServers).toBe(false);
    expect(mergeSettings([off, on]).enableAllProjectMcpServers).toBe(true);
  });

  test('enabledMcpjsonServers are added up without duplicates', () => {
    const merged = mergeSettings([
      { source: 'a', settings: settings({ enabledMcpjsonServers: ['github', 'db'] }) },
      { source: 'b', settings: settings({ enabledMcpjsonServers: ['db', 'search'] }) },
    ]);
    expect(merged.enabledMcpjsonServers).toEqual(['github', 'db', 'search']);
  });
});
