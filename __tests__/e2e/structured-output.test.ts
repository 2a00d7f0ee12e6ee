import { jest } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { schedulePayload } from '../../test-support/action-payloads.js';
import { makeWorld } from '../../test-support/action-world.js';
import { startAnthropicServer, type AnthropicServer, type ScriptedReply } from '../../test-support/anthropic-server.js';
import { childEnv, cleanHome, makeRepo, runCli } from '../../test-support/cli-process.js';

jest.setTimeout(60_000);

const KEY = 'sk-ant-canary-schema-77';
const TRIAGE = JSON.stringify({
  type: 'object',
  properties: { label: { enum: ['bug', 'feature'] }, duplicate: { type: 'boolean' } },
  required: ['label', 'duplicate'],
  additionalProperties: false,
});
const text = (t: string): ScriptedReply => ({ content: [{ type: 'text', text: t }] });

const systemText = (system: unknown): string => (system as { text: string }[]).map((b) => b.text).join('\n');

let server: AnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function cli(script: ScriptedReply[], args: string[]) {
  server = await startAnthropicServer({ requireApiKey: KEY, script });
  const home = await cleanHome();
  const repo = await makeRepo({ 'README.md': '# x\n' }, home);
  const r = await runCli(
    ['--cwd', repo, '--json', ...args, 'triage it'],
    childEnv(home, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url }),
  );
  return { r, requests: server.requests, repo };
}

describe('json-schema (dist/)', () => {
  it('tells the model the schema, sends an invalid answer back with the errors, and prints the valid one', async () => {
    const { r, requests } = await cli(
      [
        text('It is a bug.'),
        text('{"label": "question", "duplicate": false}'),
        text('Sure:\n```json\n{"label": "bug", "duplicate": false}\n```'),
      ],
      ['--json-schema', TRIAGE],
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ conclusion: 'success', structured_output: { label: 'bug', duplicate: false }, steps: 3 });
    expect(systemText(requests[0]!.body.system)).toContain('"enum":["bug","feature"]');
    expect(JSON.stringify(requests[1]!.body.messages.at(-1))).toMatch(/does not satisfy the JSON Schema[\s\S]*not JSON/);
    expect(JSON.stringify(requests[2]!.body.messages.at(-1))).toMatch(/\/label must be equal to one of the allowed values/);
  });

  it('ends as an error naming the errors when the answer is still invalid after two corrections', async () => {
    const { r, requests } = await cli(
      [text('{"label": "bug"}'), text('{"label": "bug"}'), text('{"label": "bug"}'), text('unused')],
      ['--json-schema', TRIAGE],
    );
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(out).toMatchObject({ conclusion: 'error' });
    expect(out['structured_output']).toBeUndefined();
    expect(out['reason']).toMatch(/json-schema after 2 corrections: the answer must have required property 'duplicate'/);
    expect(requests).toHaveLength(3);
  });

  it('stays within the step limit while correcting', async () => {
    const { r, requests } = await cli([text('nope'), text('nope'), text('nope')], ['--json-schema', TRIAGE, '--max-steps', '2']);
    expect(JSON.parse(r.stdout)).toMatchObject({ conclusion: 'max-steps' });
    expect(requests).toHaveLength(2);
  });

  it('refuses a schema that is not JSON Schema before any model call', async () => {
    const { r, requests } = await cli([text('unused')], ['--json-schema', '{"type": "strng"}']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--json-schema: not a valid JSON Schema \(draft 2020-12\)/);
    expect(requests).toHaveLength(0);
  });

  it('reads a schema file of the workspace in the action and sets structured-output', async () => {
    const w = await makeWorld({
      main: { 'README.md': '# x\n', 'triage.schema.json': TRIAGE },
      script: [text('{"label":"feature","duplicate":true}')],
    });
    try {
      const r = await w.run({
        event: 'schedule',
        payload: schedulePayload(),
        inputs: { prompt: 'Triage.', 'json-schema': 'triage.schema.json' },
      });
      expect(r.outputs['conclusion']).toBe('success');
      expect(r.outputs['structured-output']).toBe('{"label":"feature","duplicate":true}');
      expect(systemText(w.model.requests[0]!.body.system)).toContain('"required":["label","duplicate"]');
    } finally {
      await w.close();
    }
  });

  it('fails the step at start, naming the input, for a schema that is not valid JSON Schema', async () => {
    const w = await makeWorld({ main: { 'README.md': '# x\n' }, script: [text('unused')] });
    try {
      writeFileSync(join(w.work, 'bad.json'), '{"properties": {"a": {"type": 3}}}');
      const r = await w.run({ event: 'schedule', payload: schedulePayload(), inputs: { prompt: 'Triage.', 'json-schema': 'bad.json' } });
      expect(r.code).not.toBe(0);
      expect(r.outputs['conclusion']).toBe('error');
      expect(r.stdout + r.stderr).toMatch(/::error::invalid configuration: input json-schema: not a valid JSON Schema/);
      expect(w.model.requests).toHaveLength(0);
      expect(w.sim.requests.filter((q) => q.method !== 'GET')).toEqual([]);
    } finally {
      await w.close();
    }
  });
});
