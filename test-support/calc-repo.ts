/** A tiny project whose one test fails: `add` subtracts. The scenario every provider and mode is tried on. */
export const FAILING_CALC: Readonly<Record<string, string>> = {
  'package.json': '{ "name": "calc", "type": "module", "scripts": { "test": "node --test" } }\n',
  'math.js': 'export function add(a, b) {\n  return a - b;\n}\n',
  'math.test.js':
    "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add } from './math.js';\n\ntest('adds', () => {\n  assert.equal(add(2, 3), 5);\n});\n",
};
