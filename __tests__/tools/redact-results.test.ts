import type { ToolOutcome, ToolSet } from '../../src/core/tools.js';
import { Redactor } from '../../src/secrets/redactor.js';
import { redactResults } from '../../src/tools/redact-results.js';

/** A tool set that answers every call with the outcome given, as a command printing a file would. */
function answering(outcome: ToolOutcome): ToolSet & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    specs: () => [{ name: 'Bash', description: 'runs', readOnly: false, input_schema: { type: 'object' } }],
    isReadOnly: () => false,
    execute: (call) => {
      calls.push(call.name);
      return Promise.resolve(outcome);
    },
  };
}

describe('redactResults', () => {
  const redactor = new Redactor(['subject-token-0123456789']);
  const redact = (text: string) => redactor.redact(text);
  const call = { id: 't1', name: 'Bash', input: { command: 'cat oidc-token' } };

  it('masks the secrets in a text result, error or not, and keeps the rest', async () => {
    const inner = answering({ content: 'token: subject-token-0123456789\nexit code 0', isError: true });
    const set = redactResults(inner, redact);
    expect(await set.execute(call, new AbortController().signal)).toEqual({ content: 'token: ***\nexit code 0', isError: true });
    expect(inner.calls).toEqual(['Bash']);
    expect(set.specs().map((s) => s.name)).toEqual(['Bash']);
  });

  it('masks the text parts of a result with blocks and leaves images as they are', async () => {
    const image = { type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png' as const, data: 'iVBOR' } };
    const set = redactResults(answering({ content: [{ type: 'text', text: 'subject-token-0123456789' }, image], isError: false }), redact);
    expect((await set.execute(call, new AbortController().signal)).content).toEqual([{ type: 'text', text: '***' }, image]);
  });
});
