import { neutralizeWorkflowCommands } from '../../src/report/workflow-commands.js';
import { Redactor } from '../../src/secrets/redactor.js';

const SECRET = 'hunter2-Sup3r/Secret+key?&';
const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');
const b64url = (s: string | Buffer) => Buffer.from(s).toString('base64url');

describe('Redactor: known secrets', () => {
  const r = new Redactor([SECRET]);

  it('masks the exact value wherever it appears', () => {
    expect(r.redact(`token=${SECRET}; again ${SECRET}`)).toBe('token=***; again ***');
  });

  it('masks the URL-encoded value', () => {
    const encoded = encodeURIComponent(SECRET);
    expect(encoded).not.toBe(SECRET);
    expect(r.redact(`https://x/?t=${encoded}`)).toBe('https://x/?t=***');
    const lowerHex = encoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
    expect(r.redact(`?t=${lowerHex}`)).toBe('?t=***');
  });

  it.each([0, 1, 2, 3, 4, 5])('masks the value inside longer base64 text at byte offset %i (standard and url-safe)', (offset) => {
    const wrapped = Buffer.concat([Buffer.from('user:'.repeat(3).slice(0, offset)), Buffer.from(SECRET), Buffer.from('@tail-bytes')]);
    for (const encoded of [b64(wrapped), b64url(wrapped)]) {
      const out = r.redact(`Authorization: Basic ${encoded}`);
      expect(out).toContain('***');
      // What is left cannot be decoded back to the secret.
      expect(Buffer.from(out.replace('Authorization: Basic ', '').replace('***', ''), 'base64').toString()).not.toContain('Secret+key');
    }
  });

  it('masks the standalone base64 value whole, padding included', () => {
    expect(r.redact(b64(SECRET))).toBe('***');
    expect(r.redact(b64url(SECRET))).toBe('***');
  });

  it('masks each line of a multi-line secret', () => {
    const pem = '-----BEGIN KEY-----\nAAAABBBBCCCCDDDD\nEEEEFFFFGGGG\n-----END KEY-----';
    const out = new Redactor([pem]).redact('line: AAAABBBBCCCCDDDD');
    expect(out).toBe('line: ***');
  });

  it('ignores values shorter than 6 characters', () => {
    expect(new Redactor(['abc', '', '12345']).redact('abc 12345')).toBe('abc 12345');
  });

  it('treats secrets as literals, not patterns', () => {
    expect(new Redactor(['a.b*c+d']).redact('a.b*c+d axbbbcd')).toBe('*** axbbbcd');
  });
});

describe('Redactor: token patterns', () => {
  const r = new Redactor([]);
  const alnum = 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6';

  it.each(['ghp_', 'gho_', 'ghs_', 'ghu_', 'ghr_'])('masks %s tokens', (prefix) => {
    expect(r.redact(`token ${prefix}${alnum} end`)).toBe('token *** end');
  });

  it.each([
    ['github_pat_', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz'],
    ['sk-ant-', 'sk-ant-api03-Abc_def-0123456789'],
    ['AKIA', 'AKIAIOSFODNN7EXAMPLE'],
    ['xoxb-', 'xoxb-1234567890-abcdefghij'],
    ['xoxp-', 'xoxp-1234567890-abcdefghij'],
    ['JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'],
  ])('masks %s', (_label, token) => {
    expect(r.redact(`x ${token} y`)).toBe('x *** y');
  });

  it('leaves look-alikes alone', () => {
    const text = 'ghp_short gh_1234 AKIA123 sk-ant- eyJfoo the github_pat_ docs';
    expect(r.redact(text)).toBe(text);
  });
});

describe('neutralizeWorkflowCommands', () => {
  // The runner's rule (actions/runner ActionCommand.TryParseV2): TrimStart, then StartsWith("::").
  const isV2Command = (line: string) => line.replace(/^[\s\u0085]+/, '').startsWith('::');

  it.each([
    '::add-mask::x',
    '::stop-commands::tok',
    '::set-output name=a::b',
    '   ::add-mask::indented',
    '\t::error file=a::b',
    '\u00a0\u2003::warning::unicode spaces',
  ])('defuses %j', (line) => {
    const out = neutralizeWorkflowCommands(line);
    expect(isV2Command(out)).toBe(false);
    expect(out).toContain(line.trim().slice(2));
  });

  it('defuses every line, whatever the line ending', () => {
    const text = 'ok\n::add-mask::a\r::set-env name=X::1\r\n  ::stop-commands::t\nlast';
    const out = neutralizeWorkflowCommands(text);
    for (const line of out.split(/\r\n|\r|\n/)) expect(isV2Command(line)).toBe(false);
    expect(out.split(/\r\n|\r|\n/)).toHaveLength(5);
    expect(out).toContain('\r\n');
  });

  it('defuses v1 ##[ commands anywhere in a line', () => {
    const out = neutralizeWorkflowCommands('prefix ##[add-mask]secret\n##[set-output name=a]b');
    expect(out).not.toContain('##[');
    expect(out).toBe('prefix ##\\[add-mask]secret\n##\\[set-output name=a]b');
  });

  it('leaves ordinary text, including :: in the middle of a line, unchanged', () => {
    const text = 'std::vector<int> v;\nIPv6 ::1 loopback\n# heading';
    expect(neutralizeWorkflowCommands(text)).toBe(text);
  });

  it('shows the command readably', () => {
    expect(neutralizeWorkflowCommands('  ::add-mask::x')).toBe('  \\::add-mask::x');
  });
});

describe('Redactor: credentials file contents', () => {
  const pem = '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAunknownKey0123\nabcdef==\n-----END RSA PRIVATE KEY-----';

  it('masks a private key block nobody named, as text and as JSON writes it', () => {
    const r = new Redactor([]);
    expect(r.redact(`key:\n${pem}\nafter`)).toBe('key:\n***\nafter');
    expect(r.redact(JSON.stringify({ private_key: pem }))).toBe('{"private_key":"***"}');
    expect(r.redact('-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----')).toContain('MIIB');
  });

  it('masks Google access tokens', () => {
    expect(new Redactor([]).redact('Bearer ya29.a0AfB_byC1234567890abcdefghij')).toBe('Bearer ***');
  });

  it('says whether a text holds anything it would mask', () => {
    const r = new Redactor(['subject-token-123456']);
    expect(r.holdsSecret('token=subject-token-123456')).toBe(true);
    expect(r.holdsSecret(pem)).toBe(true);
    expect(r.holdsSecret('export const add = (a, b) => a + b;')).toBe(false);
  });

  it('holds a secret exactly when redacting would change the text, asked again and again', () => {
    const r = new Redactor(['subject-token-123456']);
    const texts = [
      '',
      'plain text',
      'token=subject-token-123456',
      encodeURIComponent('x subject-token-123456'),
      Buffer.from('subject-token-123456').toString('base64'),
      `ghp_${'a'.repeat(36)}`,
      'AKIA0123456789ABCDEF',
      'AKIA0123',
      pem,
      '-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----',
    ];
    for (let round = 0; round < 2; round++) {
      for (const text of texts) expect([text, r.holdsSecret(text)]).toEqual([text, r.redact(text) !== text]);
    }
    r.add(['added-secret-value']);
    expect(r.holdsSecret('an added-secret-value here')).toBe(true);
  });
});
