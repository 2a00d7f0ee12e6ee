import { generateKeyPairSync } from 'node:crypto';
import { appJwt, readPrivateKey } from '../../src/github/apps.js';
import { verifyAppJwt } from '../../test-support/github-sim/apps.js';
import type { SimApp } from '../../test-support/github-sim.js';

const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const app: SimApp = {
  id: 77,
  slug: 'x',
  clientId: 'Iv23abc',
  publicKey: keys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  installed: true,
  installationId: 1,
  permissions: {},
};
const pkcs1 = keys.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
const pkcs8 = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

describe('the App JWT', () => {
  it('is RS256, signed by the key, with the App id or client id as iss, within GitHub ten minutes', () => {
    const now = Date.UTC(2026, 0, 1);
    const jwt = appJwt('77', readPrivateKey(pkcs1), now);
    const claims = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, number>;
    expect(claims).toEqual({ iat: now / 1000 - 60, exp: now / 1000 + 540, iss: 77 });
    expect(verifyAppJwt(app, jwt, now / 1000)).toBeNull();
    expect(verifyAppJwt(app, appJwt('Iv23abc', readPrivateKey(pkcs8), now), now / 1000)).toBeNull();
    expect(verifyAppJwt(app, appJwt('78', readPrivateKey(pkcs1), now), now / 1000)).toBe('Integration not found');
    expect(verifyAppJwt(app, jwt, now / 1000 + 600)).toMatch(/exp/);
  });

  it('takes a key pasted on one line with \\n', () => {
    expect(readPrivateKey(pkcs1.trim().replace(/\n/g, '\\n')).asymmetricKeyType).toBe('rsa');
  });

  it('refuses what is not an RSA PEM key, naming the input', () => {
    expect(() => readPrivateKey('nope')).toThrow(/^input github-app-private-key: not a PEM private key/);
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => readPrivateKey(ec)).toThrow(/input github-app-private-key: GitHub App keys are RSA keys/);
  });
});
