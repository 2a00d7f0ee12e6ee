import { MAX_DESCRIPTION, objectSchema } from '../../../src/tools/mcp/servers.js';

describe('objectSchema', () => {
  it('keeps an object schema as it is', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    expect(objectSchema(schema)).toEqual(schema);
  });

  it('adds a missing type and drops the top-level combinators the Messages API refuses', () => {
    const schema = { properties: { a: { type: 'string' }, b: { type: 'number' } }, anyOf: [{ required: ['a'] }, { required: ['b'] }] };
    expect(objectSchema(schema)).toEqual({ type: 'object', properties: schema.properties });
  });

  it('replaces what is no object schema by one that takes any object', () => {
    for (const schema of [undefined, null, 'string', [1], { type: 'string' }, { type: ['object', 'null'] }]) {
      expect(objectSchema(schema)).toEqual({ type: 'object', additionalProperties: true });
    }
  });

  it('documents the description limit', () => {
    expect(MAX_DESCRIPTION).toBe(2048);
  });
});
