import { generateKeyPairSync, verify } from 'node:crypto';
import githubAppJwt from 'universal-github-app-jwt';
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

/** A JWT's header and claims. */
function decode(jwt: string): [Record<string, unknown>, { iat: number; exp: number; iss: unknown }] {
  const [header, claims] = jwt
    .split('.')
    .slice(0, 2)
    .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()) as unknown);
  return [header as Record<string, unknown>, claims as { iat: number; exp: number; iss: unknown }];
}

describe('the App JWT', () => {
  it("has the shape of Octokit's own (universal-github-app-jwt): the same header and issuer, both verified by the key, both inside GitHub's window", async () => {
    const now = Date.UTC(2026, 0, 1);
    const ours = appJwt('77', readPrivateKey(pkcs1), now);
    const theirs = (await githubAppJwt({ id: 77, privateKey: pkcs8, now: now / 1000 })).token;
    const [oursHeader, oursClaims] = decode(ours);
    const [theirsHeader, theirsClaims] = decode(theirs);
    expect(oursHeader).toEqual(theirsHeader);
    expect(oursClaims.iss).toBe(theirsClaims.iss);
    for (const [jwt, claims] of [
      [ours, oursClaims],
      [theirs, theirsClaims],
    ] as const) {
      const [h, p, sig] = jwt.split('.');
      expect(verify('sha256', Buffer.from(`${h}.${p}`), keys.publicKey, Buffer.from(sig!, 'base64url'))).toBe(true);
      expect(claims.iat).toBeLessThanOrEqual(now / 1000);
      expect(claims.exp - claims.iat).toBeLessThanOrEqual(600);
      expect(verifyAppJwt(app, jwt, now / 1000)).toBeNull();
    }
  });

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
