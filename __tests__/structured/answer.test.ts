import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { answerCheck, answerErrors, readAnswer, structuredValue } from '../../src/structured/answer.js';
import { loadAnswerSchema, SchemaError } from '../../src/structured/schema.js';

const TRIAGE = JSON.stringify({
  type: 'object',
  properties: { label: { enum: ['bug', 'feature'] }, confidence: { type: 'number', minimum: 0, maximum: 1 } },
  required: ['label'],
  additionalProperties: false,
});

const schema = async () => (await loadAnswerSchema(TRIAGE, '/nowhere', 'input json-schema'))!;
const signal = new AbortController().signal;

describe('reading the final answer as JSON', () => {
  it('takes the whole text, or its one fenced json block', () => {
    expect(readAnswer(' {"label":"bug"}\n')).toEqual({ value: { label: 'bug' } });
    expect(readAnswer('Here it is:\n```json\n{"label": "feature"}\n```\nThanks.')).toEqual({ value: { label: 'feature' } });
    expect(readAnswer('42')).toEqual({ value: 42 });
  });

  it('refuses prose, and two fenced blocks', () => {
    expect(readAnswer('It is a bug.')).toMatchObject({ error: expect.stringMatching(/not JSON/) });
    expect(readAnswer('```json\n{}\n```\nor\n```json\n[]\n```')).toMatchObject({ error: expect.stringMatching(/more than one/) });
  });
});

describe('json-schema', () => {
  it('names where and what is wrong, with the allowed values', async () => {
    const s = await schema();
    expect(answerErrors(s, '{"label":"question","confidence":2}')).toEqual([
      '/label must be equal to one of the allowed values ("bug", "feature")',
      '/confidence must be <= 1',
    ]);
    expect(answerErrors(s, '{"label":"bug"}')).toEqual([]);
    expect(structuredValue(s, '```json\n{"label":"bug"}\n```')).toEqual({ label: 'bug' });
    expect(structuredValue(s, '{"label":"nope"}')).toBeUndefined();
  });

  it('sends an invalid answer back twice, then ends the run as an error naming the errors', async () => {
    const check = answerCheck(await schema());
    expect(await check('{"label":"x"}', false, signal)).toMatch(/does not satisfy the JSON Schema:\n- \/label must be equal/);
    expect(await check('no json', true, signal)).toMatch(/not JSON/);
    const stop = await check('{}', true, signal);
    expect(stop).toEqual({
      conclusion: 'error',
      reason: expect.stringMatching(/after 2 corrections: the answer must have required property 'label'/),
    });
    expect(await answerCheck(await schema())('{"label":"bug"}', false, signal)).toBeNull();
  });

  it('reads a schema file of the workspace', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'schema-'));
    await writeFile(join(dir, 'triage.json'), TRIAGE);
    const s = await loadAnswerSchema('triage.json', dir, 'input json-schema');
    expect(s?.check({ label: 'bug' })).toEqual([]);
    expect(await loadAnswerSchema('', dir, 'input json-schema')).toBeNull();
  });

  it.each([
    ['{"type": "strng"}', /input json-schema: not a valid JSON Schema \(draft 2020-12\)/],
    ['{"minimum": "zero"}', /input json-schema: not a valid JSON Schema/],
    ['{"type": ', /input json-schema: not JSON/],
    ['missing.json', /input json-schema: cannot read missing\.json/],
  ])('fails at start for %s, naming the input', async (value, message) => {
    const dir = await mkdtemp(join(tmpdir(), 'schema-'));
    const loading = loadAnswerSchema(value, dir, 'input json-schema');
    await expect(loading).rejects.toThrow(SchemaError);
    await expect(loading).rejects.toThrow(message);
  });
});
