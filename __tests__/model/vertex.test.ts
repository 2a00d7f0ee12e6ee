import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoop, type LoopResult } from '../../src/agent/loop.js';
import { costOf } from '../../src/core/usage.js';
import { priceFor } from '../../src/model/anthropic/prices.js';
import { vertexModel } from '../../src/model/vertex/index.js';
import { Workspace } from '../../src/tools/workspace.js';
import type { Script } from '../../test-support/anthropic-server.js';
import { loopConfig } from '../../test-support/harness.js';
import { JWT_BEARER, startVertexServer, type VertexServer } from '../../test-support/vertex-server.js';

const MODEL = 'claude-sonnet-5-5@20260601';
const PROJECT = 'agent-action-test';
const REGION = 'us-east5';
const EMAIL = 'agent@agent-action-test.iam.gserviceaccount.com';
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

let server: VertexServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  server = undefined;
  dir = undefined;
});

const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });

/**
 * google-auth-library posts service-account grants to Google's fixed token URL (it does not read
 * `token_uri`), so the test's fetch, which the adapter hands to the auth library too, sends that
 * one URL to the fake; everything else goes where the client addressed it.
 */
function routedFetch(tokenUrl: string): typeof fetch {
  return (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    return url.startsWith('https://oauth2.googleapis.com/token') ? fetch(tokenUrl, init) : fetch(input, init);
  };
}

/** The real loop against the fake, with the key file google-github-actions/auth leaves. */
async function run(script: Script, overrides: Parameters<typeof loopConfig>[2] = {}): Promise<LoopResult> {
  server = await startVertexServer({ script, project: PROJECT, region: REGION, serviceAccount: { clientEmail: EMAIL, publicKey } });
  dir = await mkdtemp(join(tmpdir(), 'agent-vertex-'));
  const keyFile = join(dir, '..', `${dir.split('/').pop() ?? 'x'}-sa.json`);
  const tokenUrl = `${server.url}/token`;
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const account = {
    type: 'service_account',
    project_id: PROJECT,
    client_email: EMAIL,
    private_key: pem,
    private_key_id: 'k1',
    token_uri: tokenUrl,
  };
  await writeFile(keyFile, JSON.stringify(account));
  const workspace = await Workspace.open(dir);
  const model = vertexModel({
    model: MODEL,
    maxRetries: 2,
    fetch: routedFetch(tokenUrl),
    env: {
      GOOGLE_APPLICATION_CREDENTIALS: keyFile,
      ANTHROPIC_VERTEX_PROJECT_ID: PROJECT,
      CLOUD_ML_REGION: REGION,
      ANTHROPIC_VERTEX_BASE_URL: `${server.url}/v1`,
    },
  });
  try {
    return await runLoop(loopConfig(model, workspace, { sleep: () => Promise.resolve(), ...overrides }), [
      { role: 'user', content: 'do the task' },
    ]);
  } finally {
    await rm(keyFile, { force: true });
  }
}

const predictions = () => server!.requests.filter((q) => q.path.endsWith(':streamRawPredict'));

describe('Claude on Vertex AI', () => {
  it('is retried by the SDK after a 529 and then succeeds, as on the other providers', async () => {
    const overloaded = {
      kind: 'error' as const,
      status: 529,
      type: 'overloaded_error',
      message: 'Overloaded',
      headers: { 'retry-after-ms': '5' },
    };
    const r = await run([overloaded, text('after the retry')]);
    expect(r.conclusion).toBe('success');
    expect(predictions()).toHaveLength(2);
  });

  it('starts a read while the answer still streams, as on the other providers', async () => {
    const log: string[] = [];
    const answer = {
      content: [
        { type: 'tool_use' as const, id: 'toolu_vx', name: 'Glob', input: { pattern: '*' } },
        { type: 'text' as const, text: 'More after the call.' },
      ],
    };
    const events = { onText: (d: string) => log.push(d), onToolStart: () => log.push('Glob started') };
    const r = await run([answer, text('done')], { events });
    expect(r.conclusion).toBe('success');
    expect(log.slice(log.indexOf('Glob started') + 1).join('')).toBe('More after the call.done');
  });

  it('stops at the step limit as on the other providers', async () => {
    const call = {
      content: [{ type: 'tool_use' as const, name: 'TodoWrite', input: { todos: [{ content: 'x', status: 'in_progress' }] } }],
    };
    const r = await run([call, call, call], { limits: { maxSteps: 2, maxCostUsd: 5, deadline: Infinity } });
    expect(r.conclusion).toBe('max-steps');
    expect(predictions()).toHaveLength(2);
  });

  it('answers directly, with a token from the service-account grant', async () => {
    const r = await run([text('All done.')]);
    expect(r.conclusion).toBe('success');
    expect(r.result).toBe('All done.');
    expect(server!.grants).toHaveLength(1);
    const grant = server!.grants[0]!;
    expect(grant.grantType).toBe(JWT_BEARER);
    expect(grant.claims).toMatchObject({ iss: EMAIL, scope: 'https://www.googleapis.com/auth/cloud-platform' });
    const [req] = predictions();
    expect(req!.path).toBe(`/v1/projects/${PROJECT}/locations/${REGION}/publishers/anthropic/models/${MODEL}:streamRawPredict`);
    expect(req!.headers['authorization']).toBe(`Bearer ${grant.token}`);
    expect(req!.body).toMatchObject({ anthropic_version: 'vertex-2023-10-16' });
    expect(req!.body).toMatchObject({ stream: true });
    expect(req!.body).not.toHaveProperty('model');
    expect(server!.inner.validationErrors).toEqual([]);
  });

  it('runs a tool round trip on one token', async () => {
    const r = await run([
      { content: [{ type: 'tool_use', id: 'toolu_w', name: 'Write', input: { file_path: 'hello.txt', content: 'hi\n' } }] },
      text('Wrote it.'),
    ]);
    expect(r.conclusion).toBe('success');
    expect(r.result).toBe('Wrote it.');
    expect(await readFile(join(dir!, 'hello.txt'), 'utf8')).toBe('hi\n');
    expect(predictions()).toHaveLength(2);
    expect(server!.grants).toHaveLength(1);
    const second = server!.inner.requests[1]!.body.messages;
    expect(JSON.stringify(second[second.length - 1])).toContain('toolu_w');
    expect(server!.requests.every((q) => q.rejection === undefined)).toBe(true);
  });

  it('counts usage and prices it as the Claude model', async () => {
    const r = await run([text('priced')]);
    const usage = server!.inner.requests[0]!.usage!;
    expect(r.usage.input_tokens).toBe(usage.input_tokens);
    expect(r.usage.output_tokens).toBe(usage.output_tokens);
    expect(r.costUsd).toBeGreaterThan(0);
    expect(r.costUsd).toBeCloseTo(costOf(r.usage, priceFor('claude-sonnet-5-5')), 10);
  });

  it('says which variable is missing', () => {
    expect(() => vertexModel({ model: MODEL, maxRetries: 0, env: {} })).toThrow(/CLOUD_ML_REGION/);
    expect(() =>
      vertexModel({
        model: MODEL,
        maxRetries: 0,
        env: { CLOUD_ML_REGION: REGION, GOOGLE_APPLICATION_CREDENTIALS: '/nonexistent/sa.json' },
      }),
    ).toThrow(/GOOGLE_APPLICATION_CREDENTIALS/);
  });
});
