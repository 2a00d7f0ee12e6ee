import { isKeptVariable } from '../../src/secrets/allowlist.js';

describe('the action environment allowlist', () => {
  it.each([
    'PATH',
    'HOME',
    'TMPDIR',
    'LANG',
    'LC_ALL',
    'GITHUB_WORKSPACE',
    'GITHUB_EVENT_PATH',
    'RUNNER_TEMP',
    'HTTPS_PROXY',
    'no_proxy',
    'AWS_REGION',
    'AWS_WEB_IDENTITY_TOKEN_FILE',
    'CLOUD_ML_REGION',
  ])('keeps %s', (name) => expect(isKeptVariable(name)).toBe(true));

  it.each([
    'DATABASE_URL',
    'SENTRY_DSN',
    'MY_APP_CONFIG',
    'GITHUB_TOKEN',
    'GITHUB_PAT_FOR_RELEASE',
    'RUNNER_SECRET_X',
    'INPUT_ANTHROPIC-API-KEY',
    'ANTHROPIC_API_KEY',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_SESSION_TOKEN',
    'AWS_ACCESS_KEY_ID',
    'ACTIONS_ID_TOKEN_REQUEST_TOKEN',
    'ACTIONS_RUNTIME_TOKEN',
    'GOOGLE_APPLICATION_CREDENTIALS',
    'NPM_TOKEN',
    'path',
  ])('wipes %s', (name) => expect(isKeptVariable(name)).toBe(false));
});
