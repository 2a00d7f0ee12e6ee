import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCredentialFiles } from '../../src/secrets/credential-files.js';
import {
  REQUEST_TOKEN,
  SA_PRIVATE_KEY,
  SA_PRIVATE_KEY_ID,
  SUBJECT_TOKEN,
  serviceAccountKey,
  wifFileSourced,
  wifUrlSourced,
} from '../../test-support/credential-fixtures.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'creds-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('readCredentialFiles', () => {
  it("takes a service-account key's private_key and private_key_id, not its public fields", async () => {
    const key = join(dir, 'gha-creds-abc123.json');
    await writeFile(key, serviceAccountKey());
    const files = readCredentialFiles({ GOOGLE_APPLICATION_CREDENTIALS: key });
    expect(files.secrets).toEqual(expect.arrayContaining([SA_PRIVATE_KEY, SA_PRIVATE_KEY_ID]));
    expect(files.secrets.join('\n')).not.toContain('calc-project');
    expect(files.paths.get(key)).toBe('named by GOOGLE_APPLICATION_CREDENTIALS');
  });

  it('follows a WIF file to its subject-token file: that file is a credentials file and its token a secret', async () => {
    const token = join(dir, 'oidc-token.txt');
    await writeFile(token, `${SUBJECT_TOKEN}\n`);
    const wif = join(dir, 'wif.json');
    await writeFile(wif, wifFileSourced('oidc-token.txt'));
    const files = readCredentialFiles({ CLOUDSDK_AUTH_CREDENTIAL_FILE_OVERRIDE: wif });
    expect(files.secrets).toContain(SUBJECT_TOKEN);
    expect(files.paths.get(token)).toBe('the subject-token file of wif.json');
  });

  it('takes the token of a JSON subject-token file from the field the WIF file names', async () => {
    const token = join(dir, 'token.json');
    await writeFile(token, JSON.stringify({ value: SUBJECT_TOKEN, count: 1 }));
    const wif = join(dir, 'wif.json');
    const source = JSON.parse(wifFileSourced(token)) as { credential_source: Record<string, unknown> };
    source.credential_source['format'] = { type: 'json', subject_token_field_name: 'value' };
    await writeFile(wif, JSON.stringify(source));
    expect(readCredentialFiles({ GOOGLE_APPLICATION_CREDENTIALS: wif }).secrets).toContain(SUBJECT_TOKEN);
  });

  it("takes a URL-sourced WIF file's request token from its headers, and the runner's own", async () => {
    const wif = join(dir, 'gha-creds-1.json');
    await writeFile(wif, wifUrlSourced());
    const files = readCredentialFiles({ GOOGLE_APPLICATION_CREDENTIALS: wif, ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'runner-request-token-42' });
    expect(files.secrets).toEqual(expect.arrayContaining([REQUEST_TOKEN, `Bearer ${REQUEST_TOKEN}`, 'runner-request-token-42']));
  });

  it("takes an AWS profile's keys and a web identity token file's token", async () => {
    const shared = join(dir, 'credentials');
    await writeFile(
      shared,
      '[default]\naws_access_key_id = AKIAEXAMPLEEXAMPLE12\naws_secret_access_key = s3cr3t/Key+value0123\nregion = us-east-1\n',
    );
    const web = join(dir, 'web-identity');
    await writeFile(web, 'eyJhbGciOi.web-identity-token');
    const files = readCredentialFiles({ AWS_SHARED_CREDENTIALS_FILE: shared, AWS_WEB_IDENTITY_TOKEN_FILE: web });
    expect(files.secrets).toEqual(
      expect.arrayContaining(['AKIAEXAMPLEEXAMPLE12', 's3cr3t/Key+value0123', 'eyJhbGciOi.web-identity-token']),
    );
    expect(files.secrets).not.toContain('us-east-1');
  });

  it('knows a file by its real path too, and keeps an unreadable one by path', async () => {
    const key = join(dir, 'key.json');
    await writeFile(key, serviceAccountKey());
    await symlink(key, join(dir, 'link.json'));
    const files = readCredentialFiles({
      GOOGLE_APPLICATION_CREDENTIALS: join(dir, 'link.json'),
      AWS_SHARED_CREDENTIALS_FILE: join(dir, 'gone'),
    });
    expect(files.paths.has(key)).toBe(true);
    expect(files.paths.has(join(dir, 'gone'))).toBe(true);
  });

  it('reads each named file once', () => {
    const reads: string[] = [];
    readCredentialFiles({ GOOGLE_APPLICATION_CREDENTIALS: '/x/k.json', GOOGLE_GHA_CREDS_PATH: '/x/k.json' }, (file) => {
      reads.push(file);
      return serviceAccountKey();
    });
    expect(reads).toEqual(['/x/k.json']);
  });
});
