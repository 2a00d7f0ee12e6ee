import { jest } from '@jest/globals';
import { commentPayload } from '../../test-support/action-payloads.js';
import { makeWorld, OWNER, REPO, type World } from '../../test-support/action-world.js';
import { startBedrockServer } from '../../test-support/bedrock-server.js';
import { startOpenAIServer } from '../../test-support/openai-server.js';
import { JWT_TOKEN_TYPE, startVertexServer } from '../../test-support/vertex-server.js';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FAILING_CALC } from '../../test-support/calc-repo.js';

jest.setTimeout(60_000);

const MAIN = FAILING_CALC;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A PR whose branch has the failing test; the model the world scripts is not used. */
async function prWorld(): Promise<World> {
  const w = await makeWorld({
    main: MAIN,
    branches: { 'fix-math': { 'notes.md': 'wip\n' } },
    script: [],
    sim: { permissions: { alice: 'write' } },
  });
  closers.push(() => w.close());
  const headSha = w.remoteGit(['rev-parse', 'fix-math']).trim();
  const pull = { headRef: 'fix-math', headSha, headRepoFullName: `${OWNER}/${REPO}`, baseRef: 'main', files: [], diff: '' };
  w.sim.issues.set(7, { number: 7, title: 'Math', body: '', user: { login: 'bob' }, comments: [], pull });
  return w;
}

const payload = () => commentPayload({ number: 7, body: '/agent fix the failing test', by: { login: 'alice', id: 501 }, onPull: true });

describe('the action (dist/index.js) on the other providers: fix the failing test and push it', () => {
  it('on Bedrock, with the keys configure-aws-credentials leaves, none of them in anything posted', async () => {
    const credentials = {
      accessKeyId: 'AKIAEXAMPLEACTION001',
      secretAccessKey: 'bedrock-action-secret-0123456789abcdef',
      sessionToken: 'session-token-canary-0123456789',
    };
    const tool = (name: string, input: unknown) => ({ content: [{ type: 'tool_use' as const, name, input }] });
    const server = await startBedrockServer({
      region: 'us-east-1',
      credentials,
      script: [
        tool('Edit', { file_path: 'math.js', old_string: 'return a - b;', new_string: 'return a + b;' }),
        { content: [{ type: 'text', text: 'Fixed add().' }] },
      ],
    });
    closers.push(() => server.close());
    const w = await prWorld();
    const env = {
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      AWS_SESSION_TOKEN: credentials.sessionToken,
      ANTHROPIC_BEDROCK_BASE_URL: server.url,
    };
    const inputs = { provider: 'bedrock', model: 'us.anthropic.claude-sonnet-5-5-20260601-v1:0', 'anthropic-api-key': '' };
    const r = await w.run({ event: 'issue_comment', payload: payload(), inputs, env });
    expect(r.outputs['conclusion']).toBe('success');
    expect(w.remoteGit(['show', 'fix-math:math.js'])).toContain('return a + b;');
    expect(Number(r.outputs['cost-usd'])).toBeGreaterThan(0);
    const posted = JSON.stringify([...w.sim.issues.values()]) + r.summary + JSON.stringify(r.outputs);
    for (const secret of [credentials.secretAccessKey, credentials.sessionToken]) expect(posted).not.toContain(secret);
  });

  it('on an OpenAI-compatible endpoint named by the inputs', async () => {
    const server = await startOpenAIServer({
      requireApiKey: 'sk-openai-action-canary-7',
      script: [
        { toolCalls: [{ name: 'Edit', arguments: { file_path: 'math.js', old_string: 'return a - b;', new_string: 'return a + b;' } }] },
        { text: 'Fixed add().' },
      ],
    });
    closers.push(() => server.close());
    const w = await prWorld();
    const inputs = {
      provider: 'openai',
      model: 'qwen-coder',
      'openai-api-key': 'sk-openai-action-canary-7',
      'openai-base-url': server.url,
      'anthropic-api-key': '',
    };
    const r = await w.run({ event: 'issue_comment', payload: payload(), inputs });
    expect(r.outputs['conclusion']).toBe('success');
    expect(w.remoteGit(['show', 'fix-math:math.js'])).toContain('return a + b;');
    expect(server.validationErrors).toEqual([]);
    expect(JSON.stringify([...w.sim.issues.values()]) + r.summary).not.toContain('sk-openai-action-canary-7');
  });

  it('on Vertex AI, with the credentials file google-github-actions/auth leaves (workload identity federation)', async () => {
    const audience = '//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/gh/providers/calc';
    const oidc = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJyZXBvOmNhbGMifQ.action-oidc-canary';
    const server = await startVertexServer({
      project: 'calc-project',
      region: 'us-east5',
      workloadIdentity: { subjectToken: oidc, audience },
      script: [
        {
          content: [
            { type: 'tool_use', name: 'Edit', input: { file_path: 'math.js', old_string: 'return a - b;', new_string: 'return a + b;' } },
          ],
        },
        { content: [{ type: 'text', text: 'Fixed add().' }] },
      ],
    });
    closers.push(() => server.close());
    const w = await prWorld();
    const tokenFile = join(w.root, 'oidc-token');
    const credentialsFile = join(w.root, 'gha-creds.json');
    await writeFile(tokenFile, oidc);
    const file = {
      type: 'external_account',
      audience,
      subject_token_type: JWT_TOKEN_TYPE,
      token_url: `${server.url}/sts`,
      credential_source: { file: tokenFile },
    };
    await writeFile(credentialsFile, JSON.stringify(file));
    const env = {
      ANTHROPIC_VERTEX_PROJECT_ID: 'calc-project',
      CLOUD_ML_REGION: 'us-east5',
      GOOGLE_APPLICATION_CREDENTIALS: credentialsFile,
      ANTHROPIC_VERTEX_BASE_URL: `${server.url}/v1`,
    };
    const inputs = { provider: 'vertex', model: 'claude-sonnet-5-5@20260601', 'anthropic-api-key': '' };
    const r = await w.run({ event: 'issue_comment', payload: payload(), inputs, env });
    expect(r.outputs['conclusion']).toBe('success');
    expect(w.remoteGit(['show', 'fix-math:math.js'])).toContain('return a + b;');
    expect(server.exchanges.length).toBeGreaterThan(0);
    // The subject token is a secret of the run: the runner is told to mask it, and nothing shows it.
    expect(r.stdout).toContain(`::add-mask::${oidc}`);
    const log = r.stdout
      .split('\n')
      .filter((l) => !l.startsWith('::add-mask::'))
      .join('\n');
    expect(JSON.stringify([...w.sim.issues.values()]) + r.summary + log).not.toContain(oidc);
  });
});
