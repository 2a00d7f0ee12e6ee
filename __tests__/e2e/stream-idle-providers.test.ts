import { startBedrockServer } from '../../test-support/bedrock-server.js';
import { childEnv, cleanHome, makeRepo, runCli } from '../../test-support/cli-process.js';
import { startOpenAIServer } from '../../test-support/openai-server.js';
import { JWT_TOKEN_TYPE, startVertexServer } from '../../test-support/vertex-server.js';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function cli(args: string[], env: Record<string, string>, home?: string) {
  home ??= await cleanHome();
  const repo = await makeRepo({ 'README.md': '# quiet\n' }, home);
  const started = Date.now();
  const r = await runCli(['--cwd', repo, '--json', '--stream-idle-timeout', '1', ...args, 'say hello'], childEnv(home, env));
  return { ...r, ms: Date.now() - started, out: JSON.parse(r.stdout || '{}') as Record<string, unknown> };
}

describe('a model stream that goes quiet, on the other providers (dist/cli/index.js)', () => {
  it('on Bedrock: the silent attempt is given up after the idle timeout and retried', async () => {
    const credentials = { accessKeyId: 'AKIAEXAMPLEQUIET0001', secretAccessKey: 'bedrock-quiet-secret-0123456789' };
    const server = await startBedrockServer({
      region: 'eu-west-1',
      credentials,
      script: [
        { kind: 'silent', content: [{ type: 'text', text: 'never sent' }], afterEvents: 1 },
        { content: [{ type: 'text', text: 'hello after the retry' }] },
      ],
    });
    closers.push(() => server.close());
    const r = await cli(['--model', 'us.anthropic.claude-sonnet-5-5-20260601-v1:0'], {
      CLAUDE_CODE_USE_BEDROCK: '1',
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      ANTHROPIC_BEDROCK_BASE_URL: server.url,
    });

    expect(r.out).toMatchObject({ conclusion: 'success', result: 'hello after the retry' });
    expect(server.inner.requests.map((q) => q.reply)).toEqual(['silent', 'message']);
    expect(r.stderr).toMatch(/sent nothing for 1 s/);
    expect(r.ms).toBeLessThan(15_000);
  });

  it('on Vertex AI: the same', async () => {
    const audience = '//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/github/providers/quiet';
    const oidc = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJxdWlldCJ9.oidc-quiet-canary';
    const server = await startVertexServer({
      project: 'quiet-project',
      region: 'us-east5',
      workloadIdentity: { subjectToken: oidc, audience },
      script: [
        { kind: 'silent', content: [{ type: 'text', text: 'never sent' }], afterEvents: 1 },
        { content: [{ type: 'text', text: 'hello after the retry' }] },
      ],
    });
    closers.push(() => server.close());
    const home = await cleanHome();
    await writeFile(join(home, 'oidc-token'), oidc);
    const source = { file: join(home, 'oidc-token') };
    const credentials = {
      type: 'external_account',
      audience,
      subject_token_type: JWT_TOKEN_TYPE,
      token_url: `${server.url}/sts`,
      credential_source: source,
    };
    await writeFile(join(home, 'gha-creds.json'), JSON.stringify(credentials));
    const env = {
      CLAUDE_CODE_USE_VERTEX: '1',
      ANTHROPIC_VERTEX_PROJECT_ID: 'quiet-project',
      CLOUD_ML_REGION: 'us-east5',
      GOOGLE_APPLICATION_CREDENTIALS: join(home, 'gha-creds.json'),
      ANTHROPIC_VERTEX_BASE_URL: `${server.url}/v1`,
    };
    const r = await cli(['--model', 'claude-sonnet-5-5@20260601'], env, home);

    expect(r.out).toMatchObject({ conclusion: 'success', result: 'hello after the retry' });
    expect(server.inner.requests.map((q) => q.reply)).toEqual(['silent', 'message']);
    expect(r.stderr).toMatch(/sent nothing for 1 s/);
    expect(r.ms).toBeLessThan(15_000);
  });

  it('on an OpenAI-compatible endpoint: the same', async () => {
    const server = await startOpenAIServer({
      requireApiKey: 'sk-openai-quiet-7',
      script: [{ kind: 'silent', text: 'never sent', afterChunks: 1 }, { text: 'hello after the retry' }],
    });
    closers.push(() => server.close());
    const r = await cli(['--provider', 'openai', '--model', 'qwen-coder'], {
      OPENAI_API_KEY: 'sk-openai-quiet-7',
      OPENAI_BASE_URL: server.url,
    });

    expect(r.out).toMatchObject({ conclusion: 'success', result: 'hello after the retry' });
    expect(server.requests.map((q) => q.reply)).toEqual(['silent', 'turn']);
    expect(r.stderr).toMatch(/sent nothing for 1 s/);
    expect(r.ms).toBeLessThan(15_000);
  });
});
