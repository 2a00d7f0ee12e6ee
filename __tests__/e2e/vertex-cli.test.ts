import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { childEnv, cleanHome, makeRepo, runCli } from '../../test-support/cli-process.js';
import { JWT_TOKEN_TYPE, TOKEN_EXCHANGE, startVertexServer } from '../../test-support/vertex-server.js';

const REPO = {
  'package.json': '{ "name": "calc", "type": "module", "scripts": { "test": "node --test" } }\n',
  'math.js': 'export function add(a, b) {\n  return a - b;\n}\n',
  'math.test.js': [
    "import test from 'node:test';",
    "import assert from 'node:assert/strict';",
    "import { add } from './math.js';",
    '',
    "test('adds', () => {",
    '  assert.equal(add(2, 3), 5);',
    '});',
    '',
  ].join('\n'),
};

const PROJECT = 'bench-vertex-project';
const REGION = 'us-east5';
const AUDIENCE = '//iam.googleapis.com/projects/123456789012/locations/global/workloadIdentityPools/github/providers/bench-repo';
/** What GitHub's OIDC provider would have issued to the workflow; only the fake's STS may ever see it. */
const OIDC_TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJyZXBvOmJlbmNoL2NhbGMifQ.oidc-canary-5f0c2a9e';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/**
 * google-auth-library sends a service account's JWT grant to Google's fixed token URL, but an
 * external_account file (Workload Identity Federation, as google-github-actions/auth writes it) names
 * its STS `token_url`, so a child process can be pointed at the fake's `/sts`.
 */
describe('the CLI (dist/cli/index.js) on Vertex AI, with workload identity federation: fix the failing test', () => {
  it('exchanges the OIDC token at the STS and fixes the test through :streamRawPredict', async () => {
    const tool = (name: string, input: unknown) => ({ content: [{ type: 'tool_use' as const, name, input }] });
    const server = await startVertexServer({
      project: PROJECT,
      region: REGION,
      workloadIdentity: { subjectToken: OIDC_TOKEN, audience: AUDIENCE },
      script: [
        tool('Bash', { command: 'node --test 2>&1 | tail -3' }),
        tool('Edit', { file_path: 'math.js', old_string: 'return a - b;', new_string: 'return a + b;' }),
        { content: [{ type: 'text', text: 'Fixed add().' }] },
      ],
    });
    closers.push(() => server.close());
    const home = await cleanHome();
    const repo = await makeRepo(REPO, home);
    const tokenFile = join(home, 'oidc-token');
    const credentialsFile = join(home, 'gha-creds.json');
    await writeFile(tokenFile, OIDC_TOKEN);
    const credentials = {
      type: 'external_account',
      audience: AUDIENCE,
      subject_token_type: JWT_TOKEN_TYPE,
      token_url: `${server.url}/sts`,
      credential_source: { file: tokenFile },
    };
    await writeFile(credentialsFile, JSON.stringify(credentials, null, 2));
    const env = childEnv(home, {
      CLAUDE_CODE_USE_VERTEX: '1',
      ANTHROPIC_VERTEX_PROJECT_ID: PROJECT,
      CLOUD_ML_REGION: REGION,
      GOOGLE_APPLICATION_CREDENTIALS: credentialsFile,
      ANTHROPIC_VERTEX_BASE_URL: `${server.url}/v1`,
    });
    const r = await runCli(['--cwd', repo, '--json', '--model', 'claude-sonnet-5-5@20260601', 'fix the failing test'], env);
    expect(r.stderr).not.toContain(OIDC_TOKEN);
    expect(r.stdout).not.toContain(OIDC_TOKEN);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ conclusion: 'success', steps: 3, changed_files: ['math.js'] });
    expect(readFileSync(join(repo, 'math.js'), 'utf8')).toContain('return a + b;');
    expect((JSON.parse(r.stdout) as { cost_usd: number }).cost_usd).toBeGreaterThan(0);

    // One exchange served the whole run; every predict call carried its token.
    expect(server.exchanges).toHaveLength(1);
    expect(server.exchanges[0]!.form).toMatchObject({ grant_type: TOKEN_EXCHANGE, subject_token: OIDC_TOKEN, audience: AUDIENCE });
    expect(server.grants).toEqual([]);
    const predicts = server.requests.filter((q) => q.path.endsWith(':streamRawPredict'));
    expect(predicts).toHaveLength(3);
    expect(predicts.map((q) => q.rejection)).toEqual([undefined, undefined, undefined]);
    expect(predicts.every((q) => q.headers['authorization'] === `Bearer ${server.exchanges[0]!.token}`)).toBe(true);
    expect(predicts[0]!.path).toBe(
      `/v1/projects/${PROJECT}/locations/${REGION}/publishers/anthropic/models/claude-sonnet-5-5@20260601:streamRawPredict`,
    );
  });
});
