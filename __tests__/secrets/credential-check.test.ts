import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redactor } from '../../src/secrets/redactor.js';
import { CredentialCheck } from '../../src/secrets/credential-check.js';
import { readCredentialFiles } from '../../src/secrets/credential-files.js';
import { SA_PRIVATE_KEY, serviceAccountKey } from '../../test-support/credential-fixtures.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'check-'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

function check(env: Record<string, string> = {}, known: string[] = []): CredentialCheck {
  const files = readCredentialFiles(env);
  const redactor = new Redactor([...known, ...files.secrets]);
  return new CredentialCheck(root, files, (text) => redactor.holdsSecret(text));
}

describe('CredentialCheck', () => {
  it('knows gha-creds-*.json and the files the environment names by name alone', async () => {
    await writeFile(join(root, 'sa.json'), serviceAccountKey());
    const c = check({ GOOGLE_APPLICATION_CREDENTIALS: join(root, 'sa.json') });
    expect(c.byName('sa.json')).toMatch(/named by GOOGLE_APPLICATION_CREDENTIALS/);
    expect(c.isCredentialFile('nested/gha-creds-7f3a.json')).toBe(true);
    expect(c.isCredentialFile('src/math.js')).toBe(false);
    expect(c.isCredentialFile('gha-creds-7f3a.json.bak')).toBe(false);
  });

  it('knows a file by its text: a private key block, a value the redactor masks', () => {
    const c = check({}, ['hunter2-database-password']);
    expect(c.byContent(`const key = \`${SA_PRIVATE_KEY}\`;`)).toBe('it holds a private key');
    expect(c.byContent('-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n')).toBe('it holds a private key');
    expect(c.byContent('url = "postgres://u:hunter2-database-password@db/x"')).toBe('it holds a token');
    expect(c.byContent('token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"')).toBe('it holds a token');
    expect(c.byContent('-----BEGIN PUBLIC KEY-----\nMIIB\n')).toBeUndefined();
    expect(c.byContent('export const add = (a, b) => a + b;')).toBeUndefined();
  });

  it('picks the credentials files out of a list of changed paths, reading only those its name does not settle', async () => {
    await writeFile(join(root, 'math.js'), 'export const add = (a, b) => a + b;\n');
    await writeFile(join(root, 'deploy.pem.txt'), SA_PRIVATE_KEY);
    await writeFile(join(root, 'gha-creds-abc.json'), '{}');
    const left = await check().leftOut(['gha-creds-abc.json', 'math.js', 'deploy.pem.txt', 'deleted.js']);
    expect(left).toEqual([
      { path: 'gha-creds-abc.json', reason: 'a credentials file google-github-actions/auth writes' },
      { path: 'deploy.pem.txt', reason: 'it holds a private key' },
    ]);
  });
});
