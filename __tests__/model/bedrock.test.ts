import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoop, type LoopResult } from '../../src/agent/loop.js';
import { costOf } from '../../src/core/usage.js';
import { priceFor } from '../../src/model/anthropic/prices.js';
import { bedrockModel, claudeIdOf, providerPrices } from '../../src/model/bedrock/index.js';
import { Workspace } from '../../src/tools/workspace.js';
import type { Script } from '../../test-support/anthropic-server.js';
import { startBedrockServer, type BedrockServer, type BedrockServerOptions } from '../../test-support/bedrock-server.js';
import { loopConfig } from '../../test-support/harness.js';

const MODEL = 'us.anthropic.claude-sonnet-5-5-20260601-v1:0';
const CREDS = { accessKeyId: 'AKIAFAKE000000000000', secretAccessKey: 'fake-secret-key', sessionToken: 'fake-session-token' };
const REGION = 'eu-west-1';

let server: BedrockServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  server = undefined;
  dir = undefined;
});

const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });

/** The real loop against the fake runtime, with the environment configure-aws-credentials leaves. */
async function run(
  script: Script,
  env: Record<string, string> = {},
  serverOptions: Partial<BedrockServerOptions> = {},
): Promise<LoopResult> {
  server = await startBedrockServer({ script, region: REGION, credentials: CREDS, ...serverOptions });
  dir = await mkdtemp(join(tmpdir(), 'agent-bedrock-'));
  const workspace = await Workspace.open(dir);
  const model = bedrockModel({
    model: MODEL,
    maxRetries: 2,
    env: {
      AWS_REGION: REGION,
      AWS_ACCESS_KEY_ID: CREDS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: CREDS.secretAccessKey,
      AWS_SESSION_TOKEN: CREDS.sessionToken,
      ANTHROPIC_BEDROCK_BASE_URL: server.url,
      ...env,
    },
  });
  return runLoop(loopConfig(model, workspace, { sleep: () => Promise.resolve() }), [{ role: 'user', content: 'do the task' }]);
}

describe('Claude on Bedrock', () => {
  it('answers directly through a SigV4-signed event stream', async () => {
    const r = await run([text('All done.')]);
    expect(r.conclusion).toBe('success');
    expect(r.result).toBe('All done.');
    const [req] = server!.requests;
    expect(req!.path).toBe(`/model/${MODEL}/invoke-with-response-stream`);
    const scope = String.raw`Credential=AKIAFAKE000000000000/\d{8}/eu-west-1/bedrock/aws4_request`;
    const shape = new RegExp(String.raw`^AWS4-HMAC-SHA256 ${scope}, SignedHeaders=[a-z0-9;-]+, Signature=[0-9a-f]{64}$`);
    expect(req!.headers['authorization']).toMatch(shape);
    expect(req!.headers['x-amz-security-token']).toBe(CREDS.sessionToken);
    expect(req!.body).toMatchObject({ anthropic_version: 'bedrock-2023-05-31' });
    expect(req!.body).not.toHaveProperty('model');
    expect(req!.body).not.toHaveProperty('stream');
    expect(server!.inner.validationErrors).toEqual([]);
  });

  it('runs a tool round trip', async () => {
    const r = await run([
      { content: [{ type: 'tool_use', id: 'toolu_w', name: 'Write', input: { file_path: 'hello.txt', content: 'hi\n' } }] },
      text('Wrote it.'),
    ]);
    expect(r.conclusion).toBe('success');
    expect(r.result).toBe('Wrote it.');
    expect(await readFile(join(dir!, 'hello.txt'), 'utf8')).toBe('hi\n');
    const second = server!.inner.requests[1]!.body.messages;
    expect(JSON.stringify(second[second.length - 1])).toContain('toolu_w');
    expect(server!.requests.every((q) => q.rejection === undefined)).toBe(true);
  });

  it('counts usage and prices it as the Claude model inside the Bedrock id', async () => {
    const r = await run([text('priced')]);
    const usage = server!.inner.requests[0]!.usage!;
    expect(r.usage.input_tokens).toBe(usage.input_tokens);
    expect(r.usage.output_tokens).toBe(usage.output_tokens);
    expect(r.costUsd).toBeCloseTo(costOf(r.usage, priceFor('claude-sonnet-5-5')), 10);
    expect(r.costUsd).toBeGreaterThan(0);
  });

  it('is retried by the SDK after a 529 and then succeeds', async () => {
    const overloaded = {
      kind: 'error' as const,
      status: 529,
      type: 'overloaded_error',
      message: 'Overloaded',
      headers: { 'retry-after-ms': '5' },
    };
    const r = await run([overloaded, text('after the retry')]);
    expect(r.conclusion).toBe('success');
    expect(r.result).toBe('after the retry');
    expect(server!.requests).toHaveLength(2);
  });

  it('refuses a bad signature with a 403 that ends the run with an error', async () => {
    const r = await run([text('never')], { AWS_SECRET_ACCESS_KEY: 'the-wrong-secret' });
    expect(r.conclusion).toBe('error');
    expect(r.reason).toMatch(/403/);
    expect(r.reason).toMatch(/signature/i);
    expect(server!.requests).toHaveLength(1);
    expect(server!.requests[0]!.rejection).toMatch(/signature/);
    expect(server!.inner.requests).toHaveLength(0);
  });

  it('sends a Bedrock API key as a bearer token instead of signing', async () => {
    const r = await run([text('keyed')], { AWS_BEARER_TOKEN_BEDROCK: 'bedrock-api-key-1' }, { bearerToken: 'bedrock-api-key-1' });
    expect(r.conclusion).toBe('success');
    expect(server!.requests[0]!.headers['authorization']).toBe('Bearer bedrock-api-key-1');
  });
});

describe('claudeIdOf', () => {
  it.each([
    ['anthropic.claude-sonnet-5-5-20260601-v1:0', 'claude-sonnet-5-5-20260601'],
    ['us.anthropic.claude-haiku-5-5-20260601-v1:0', 'claude-haiku-5-5-20260601'],
    ['arn:aws:bedrock:us-east-1:123456789012:inference-profile/eu.anthropic.claude-opus-5-5-v1:0', 'claude-opus-5-5'],
    ['claude-sonnet-5-5@20260601', 'claude-sonnet-5-5-20260601'],
    ['claude-sonnet-5-5', 'claude-sonnet-5-5'],
  ])('%s is %s', (id, claude) => expect(claudeIdOf(id)).toBe(claude));

  it("keeps the user's own price for a Bedrock id", () => {
    const own = { input: 1, output: 1, cacheRead: 1, cacheWrite: 1 };
    expect(providerPrices(MODEL, { 'us.anthropic.': own })).toEqual({ 'us.anthropic.': own });
    expect(providerPrices(MODEL)[MODEL]).toEqual(priceFor('claude-sonnet-5-5'));
  });
});
