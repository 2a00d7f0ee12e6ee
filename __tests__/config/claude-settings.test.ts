import { denyIncludingAsk, parseClaudeSettings, SettingsFileError, type ClaudeSettings } from '../../src/config/index.js';

const SOURCE = '.claude/settings.json (base branch main)';

function parse(value: unknown, logs: string[] = []): ClaudeSettings {
  return parseClaudeSettings(JSON.stringify(value, null, 2), SOURCE, (m) => logs.push(m));
}

function failure(text: string, source = SOURCE): SettingsFileError {
  try {
    parseClaudeSettings(text, source, () => {});
  } catch (error) {
    if (error instanceof SettingsFileError) return error;
    throw error;
  }
  throw new Error('expected a SettingsFileError');
}

const failureOf = (value: unknown): SettingsFileError => failure(JSON.stringify(value));

describe('parseClaudeSettings: honoured keys', () => {
  test('permissions.allow, deny and ask are kept apart', () => {
    const s = parse({ permissions: { allow: ['Bash(npm test)', 'Read'], deny: ['Bash(curl:*)'], ask: ['Write(src/**)'] } });
    expect(s.permissions).toEqual({ allow: ['Bash(npm test)', 'Read'], deny: ['Bash(curl:*)'], ask: ['Write(src/**)'] });
  });

  test('rule syntax is not checked here, only that rules are strings', () => {
    expect(parse({ permissions: { allow: ['(((not a rule'] } }).permissions.allow).toEqual(['(((not a rule']);
  });

  test('an empty object gives empty lists and no MCP switch', () => {
    const s = parse({});
    expect(s).toEqual({
      permissions: { allow: [], deny: [], ask: [] },
      hooks: {},
      env: {},
      enabledMcpjsonServers: [],
      disabledMcpjsonServers: [],
    });
    expect('enableAllProjectMcpServers' in s).toBe(false);
  });

  test('hooks are validated and kept', () => {
    const hooks = {
      PreToolUse: [{ matcher: 'Bash|Write', hooks: [{ type: 'command', command: './check.sh', timeout: 10 }] }],
      Stop: [{ hooks: [{ type: 'command', command: 'echo done' }] }],
    };
    expect(parse({ hooks }).hooks).toEqual(hooks);
  });

  test('enableAllProjectMcpServers and enabledMcpjsonServers', () => {
    const s = parse({ enableAllProjectMcpServers: false, enabledMcpjsonServers: ['github', 'db'] });
    expect(s.enableAllProjectMcpServers).toBe(false);
    expect(s.enabledMcpjsonServers).toEqual(['github', 'db']);
    expect(parse({ enableAllProjectMcpServers: true }).enableAllProjectMcpServers).toBe(true);
  });

  test('denyIncludingAsk gives deny then ask', () => {
    expect(denyIncludingAsk(parse({ permissions: { deny: ['A'], ask: ['B'], allow: ['C'] } }))).toEqual(['A', 'B']);
  });

  test('a byte order mark is tolerated', () => {
    expect(parseClaudeSettings('\uFEFF{"permissions":{"deny":["X"]}}', SOURCE, () => {}).permissions.deny).toEqual(['X']);
  });
});

describe('parseClaudeSettings: keys without effect', () => {
  test('unknown and unsupported keys are listed in one log line and are not fatal', () => {
    const logs: string[] = [];
    const s = parse(
      {
        $schema: 'https://json.schemastore.org/claude-code-settings.json',
        model: 'opus',
        statusLine: { type: 'command', command: 'x' },
        apiKeyHelper: './key.sh',
        somethingNew: 1,
        permissions: { allow: ['Read'], defaultMode: 'acceptEdits', additionalDirectories: ['../x'] },
      },
      logs,
    );
    expect(s.permissions.allow).toEqual(['Read']);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain(SOURCE);
    for (const key of ['$schema', 'model', 'statusLine', 'apiKeyHelper', 'somethingNew']) expect(logs[0]).toContain(key);
    expect(logs[0]).toContain('permissions.defaultMode');
    expect(logs[0]).toContain('permissions.additionalDirectories');
    expect(logs[0]).not.toMatch(/permissions\.allow|hooks/);
  });

  test('nothing is logged when every key is honoured', () => {
    const logs: string[] = [];
    parse({ permissions: { allow: [] }, hooks: {}, enableAllProjectMcpServers: true, enabledMcpjsonServers: [] }, logs);
    expect(logs).toEqual([]);
  });
});

describe('parseClaudeSettings: what Claude Code has and this product skips', () => {
  test('events and handler types not run here are skipped and named in the log line; the rest is kept', () => {
    const logs: string[] = [];
    const s = parse(
      {
        hooks: {
          Notification: [{ hooks: [{ type: 'command', command: 'notify-send hi' }] }],
          PermissionRequest: [{ hooks: [{ type: 'command', command: 'x' }] }],
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [
                { type: 'prompt', prompt: 'is this ok?' },
                { type: 'command', command: './guard.sh' },
              ],
            },
          ],
        },
      },
      logs,
    );
    expect(s.hooks).toEqual({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './guard.sh' }] }] });
    expect(logs).toEqual([
      `${SOURCE}: ignoring settings agent-action does not use: Notification hooks, PermissionRequest hooks, prompt hook in PreToolUse`,
    ]);
  });

  test('a matcher that is not a valid regular expression is kept (it matches every call: a guard never fails open)', () => {
    const s = parse({ hooks: { PostToolUse: [{ matcher: 'Bash(', hooks: [{ type: 'command', command: 'true' }] }] } });
    expect(s.hooks.PostToolUse?.[0]?.matcher).toBe('Bash(');
  });

  test('http hooks, exec-form args, if and the keys Claude Code adds are kept', () => {
    const hooks = {
      PreToolUse: [
        {
          matcher: 'Edit, Write',
          hooks: [
            {
              type: 'command',
              command: 'node',
              args: ['${CLAUDE_PROJECT_DIR}/hooks/check.js', '--strict'],
              if: 'Edit(src/**)',
              statusMessage: 'checking',
            },
            {
              type: 'http',
              url: 'http://127.0.0.1:9/hook',
              headers: { Authorization: 'Bearer $TOKEN' },
              allowedEnvVars: ['TOKEN'],
              timeout: 5,
            },
          ],
        },
      ],
    };
    expect(parse({ hooks }).hooks).toEqual(hooks);
  });

  test('env, disableAllHooks and disabledMcpjsonServers are honoured, not logged', () => {
    const logs: string[] = [];
    const s = parse({ env: { NODE_ENV: 'test' }, disableAllHooks: true, disabledMcpjsonServers: ['db'] }, logs);
    expect(s.env).toEqual({ NODE_ENV: 'test' });
    expect(s.disableAllHooks).toBe(true);
    expect(s.disabledMcpjsonServers).toEqual(['db']);
    expect(logs).toEqual([]);
  });

  test('env values must be strings', () => {
    expect(failureOf({ env: { PORT: 3000 } }).message).toBe(`${SOURCE}: env.PORT: expected a string value`);
  });
});

describe('parseClaudeSettings: malformed input names the source, the key and the problem', () => {
  test('invalid JSON gives the parser message and the line', () => {
    const e = failure('{\n  "permissions": {},\n}', '.claude/settings.json');
    expect(e.message).toMatch(/^\.claude\/settings\.json: not valid JSON: .+ \(line 3/);
    expect(e.source).toBe('.claude/settings.json');
    expect(e.name).toBe('SettingsFileError');
  });

  test('an empty file is not valid JSON', () => {
    expect(failure('').message).toContain(`${SOURCE}: not valid JSON`);
  });

  test('a top level that is not an object', () => {
    expect(failureOf(['Bash']).message).toBe(`${SOURCE}: (top level): expected a JSON object`);
  });

  test('permissions.allow given as a string', () => {
    expect(failureOf({ permissions: { allow: 'Bash' } }).message).toBe(`${SOURCE}: permissions.allow: expected an array of strings`);
  });

  test('a rule that is not a string', () => {
    expect(failureOf({ permissions: { deny: ['Read', 3] } }).message).toBe(`${SOURCE}: permissions.deny[1]: expected a string`);
  });

  test('permissions that is not an object', () => {
    expect(failureOf({ permissions: ['Bash'] }).message).toBe(`${SOURCE}: permissions: expected an object`);
  });

  test('a hook without its command', () => {
    const e = failureOf({ hooks: { Stop: [{ hooks: [{ type: 'command' }] }] } });
    expect(e.message).toBe(`${SOURCE}: hooks.Stop[0].hooks[0].command: required`);
  });

  test('an http hook whose url is not http(s)', () => {
    const e = failureOf({ hooks: { PostToolUse: [{ hooks: [{ type: 'http', url: 'file:///etc/passwd' }] }] } });
    expect(e.message).toBe(`${SOURCE}: hooks.PostToolUse[0].hooks[0].url: url must be an http or https URL`);
  });

  test('exec-form args that are not strings', () => {
    const e = failureOf({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'node', args: ['x', 1] }] }] } });
    expect(e.message).toBe(`${SOURCE}: hooks.PreToolUse[0].hooks[0].args[1]: args must be strings`);
  });

  test('an event whose groups are not an array', () => {
    const e = failureOf({ hooks: { Stop: { hooks: [] } } });
    expect(e.message).toBe(`${SOURCE}: hooks.Stop: expected an array of matcher groups`);
  });

  test('wrong MCP key types', () => {
    expect(failureOf({ enableAllProjectMcpServers: 'yes' }).message).toBe(`${SOURCE}: enableAllProjectMcpServers: expected true or false`);
    expect(failureOf({ enabledMcpjsonServers: 'github' }).message).toBe(`${SOURCE}: enabledMcpjsonServers: expected an array of strings`);
  });

  test('every problem is reported, one line each', () => {
    const e = failureOf({ permissions: { allow: 'Bash', ask: [1] }, enableAllProjectMcpServers: 1 });
    expect(e.message.split('\n')).toEqual([
      `${SOURCE}: permissions.allow: expected an array of strings`,
      `${SOURCE}: permissions.ask[0]: expected a string`,
      `${SOURCE}: enableAllProjectMcpServers: expected true or false`,
    ]);
  });
});
