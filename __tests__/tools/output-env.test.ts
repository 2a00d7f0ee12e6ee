import { toolEnvironment } from '../../src/tools/env.js';
import { CappedCollector, capText } from '../../src/tools/output.js';

describe('capText', () => {
  it('returns text that fits unchanged', () => {
    expect(capText('short', 10)).toBe('short');
  });

  it('keeps head and tail and states how much was cut', () => {
    const text = `${'h'.repeat(100)}${'m'.repeat(1000)}${'t'.repeat(100)}`;
    const capped = capText(text, 200);
    expect(capped.startsWith('h'.repeat(100))).toBe(true);
    expect(capped.endsWith('t'.repeat(100))).toBe(true);
    expect(capped).toContain('[... 1000 characters cut from the middle ...]');
  });
});

describe('CappedCollector', () => {
  it('gives the same shape as capText for streamed chunks', () => {
    const text = Array.from({ length: 500 }, (_, i) => `line ${i}\n`).join('');
    const collector = new CappedCollector(300);
    for (let i = 0; i < text.length; i += 7) collector.push(Buffer.from(text.slice(i, i + 7)));
    expect(collector.text()).toBe(capText(text, 300));
    expect(collector.totalChars).toBe(text.length);
  });

  it('returns everything when under the limit', () => {
    const collector = new CappedCollector(100);
    collector.push('abc');
    collector.push('def');
    expect(collector.text()).toBe('abcdef');
  });
});

describe('toolEnvironment', () => {
  const source: NodeJS.ProcessEnv = {
    PATH: '/usr/bin',
    HOME: '/home/u',
    LC_ALL: 'C.UTF-8',
    ANTHROPIC_API_KEY: 'sk-ant-secret',
    GITHUB_TOKEN: 'ghp_secret',
    GH_TOKEN: 'gho_secret',
    INPUT_ANTHROPIC_API_KEY: 'sk-ant-secret',
    ACTIONS_RUNTIME_TOKEN: 'rt',
    ACTIONS_ID_TOKEN_REQUEST_URL: 'https://x',
    NPM_TOKEN: 'npm_secret',
    AWS_SECRET_ACCESS_KEY: 'aws',
    RANDOM_VAR: 'nope',
    GITHUB_REPOSITORY: 'o/r',
  };

  it('keeps only allowlisted variables and never secrets', () => {
    const env = toolEnvironment(source);
    expect(env['PATH']).toBe('/usr/bin');
    expect(env['LC_ALL']).toBe('C.UTF-8');
    expect(env['GITHUB_REPOSITORY']).toBe('o/r');
    expect(env['RANDOM_VAR']).toBeUndefined();
    const values = Object.values(env).join('\n');
    for (const secret of ['sk-ant-secret', 'ghp_secret', 'gho_secret', 'rt', 'npm_secret', 'aws', 'https://x']) {
      expect(values).not.toContain(secret);
    }
  });

  it('sets the non-interactive variables', () => {
    const env = toolEnvironment(source);
    expect(env).toMatchObject({
      CI: 'true',
      GIT_EDITOR: 'true',
      EDITOR: 'true',
      PAGER: 'cat',
      GIT_TERMINAL_PROMPT: '0',
      DEBIAN_FRONTEND: 'noninteractive',
      TERM: 'dumb',
    });
  });

  it('adds extra variables but still drops secret-looking names', () => {
    const env = toolEnvironment(source, { MY_SETTING: '1', DEPLOY_KEY: 'k' });
    expect(env['MY_SETTING']).toBe('1');
    expect(env['DEPLOY_KEY']).toBeUndefined();
  });
});
