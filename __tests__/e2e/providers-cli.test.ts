import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startBedrockServer, type AwsCredentials, type BedrockServer } from '../../test-support/bedrock-server.js';
import { childEnv, cleanHome, makeRepo, runCli } from '../../test-support/cli-process.js';
import { startOpenAIServer } from '../../test-support/openai-server.js';
import { FAILING_CALC } from '../../test-support/calc-repo.js';

const REPO = FAILING_CALC;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** The CLI asked to fix the failing test on Bedrock in eu-west-1, with these AWS keys in its environment. */
async function onBedrock(server: BedrockServer, keys: AwsCredentials) {
  closers.push(() => server.close());
  const home = await cleanHome();
  const repo = await makeRepo(REPO, home);
  const env = childEnv(home, {
    CLAUDE_CODE_USE_BEDROCK: '1',
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: keys.accessKeyId,
    AWS_SECRET_ACCESS_KEY: keys.secretAccessKey,
    ANTHROPIC_BEDROCK_BASE_URL: server.url,
  });
  const args = ['--cwd', repo, '--json', '--model', 'us.anthropic.claude-sonnet-5-5-20260601-v1:0', 'fix the failing test'];
  return { r: await runCli(args, env), repo };
}

describe('the CLI (dist/cli/index.js) on the other providers: fix the failing test', () => {
  it('on Bedrock, signed with the AWS keys of the environment', async () => {
    const tool = (name: string, input: unknown) => ({ content: [{ type: 'tool_use' as const, name, input }] });
    const credentials = { accessKeyId: 'AKIAEXAMPLEBENCH0001', secretAccessKey: 'bedrock-secret-canary-0123456789abcdef' };
    const server = await startBedrockServer({
      region: 'eu-west-1',
      credentials,
      script: [
        tool('Bash', { command: 'node --test 2>&1 | tail -3' }),
        tool('Edit', { file_path: 'math.js', old_string: 'return a - b;', new_string: 'return a + b;' }),
        { content: [{ type: 'text', text: 'Fixed add().' }] },
      ],
    });
    const { r, repo } = await onBedrock(server, credentials);
    expect(r.stderr).not.toContain(credentials.secretAccessKey);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ conclusion: 'success', steps: 3, changed_files: ['math.js'] });
    expect(readFileSync(join(repo, 'math.js'), 'utf8')).toContain('return a + b;');
    expect((JSON.parse(r.stdout) as { cost_usd: number }).cost_usd).toBeGreaterThan(0);
  });

  it('on Bedrock, a refused signature ends the run at once with the reason (the adapter is a bundle of its own)', async () => {
    const server = await startBedrockServer({
      region: 'eu-west-1',
      credentials: { accessKeyId: 'AKIAEXAMPLEBENCH0001', secretAccessKey: 'the-secret-bedrock-knows' },
      script: [{ content: [{ type: 'text', text: 'never sent' }] }],
    });
    const { r } = await onBedrock(server, { accessKeyId: 'AKIAEXAMPLEBENCH0001', secretAccessKey: 'another-secret-than-bedrock-knows' });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { conclusion: string; reason: string; steps: number };
    // A 403 is the adapter's fatal ModelError: the loop tells it across the bundles and does not retry it.
    expect(out).toMatchObject({ conclusion: 'error', steps: 0 });
    expect(out.reason).toMatch(/403|signature/i);
    expect(server.requests).toHaveLength(1);
  });

  it('on an OpenAI-compatible endpoint, tool calls streamed in fragments', async () => {
    const server = await startOpenAIServer({
      requireApiKey: 'sk-openai-canary-42',
      script: [
        { toolCalls: [{ name: 'Bash', arguments: { command: 'node --test 2>&1 | tail -3' } }] },
        { toolCalls: [{ name: 'Edit', arguments: { file_path: 'math.js', old_string: 'return a - b;', new_string: 'return a + b;' } }] },
        { text: 'Fixed add().' },
      ],
    });
    closers.push(() => server.close());
    const home = await cleanHome();
    const repo = await makeRepo(REPO, home);
    const env = childEnv(home, { OPENAI_API_KEY: 'sk-openai-canary-42', OPENAI_BASE_URL: server.url });
    const r = await runCli(['--cwd', repo, '--json', '--provider', 'openai', '--model', 'qwen-coder', 'fix the failing test'], env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ conclusion: 'success', steps: 3, changed_files: ['math.js'] });
    expect(readFileSync(join(repo, 'math.js'), 'utf8')).toContain('return a + b;');
    expect(server.validationErrors).toEqual([]);
  });
});
