import { createPrivateKey, createSign, type KeyObject } from 'node:crypto';
import type { GitHub } from './client.js';
import { statusOf } from './status.js';

/** `github-app-id` (the App id or its client id) and `github-app-private-key`. */
export interface AppCredentials {
  appId: string;
  privateKey: string;
}

/** An installation token of this repository alone, and who it writes as. */
export interface AppSession {
  token: string;
  /** `<slug>[bot]`: the author of the comments and the commits. */
  login: string;
  /** The bot user's id, for its noreply address (`<id>+<slug>[bot]@users.noreply.github.com`). */
  userId: number;
  expiresAt: string;
}

/** Wrong input, named as the user wrote it. */
export class AppAuthError extends Error {
  override name = 'AppAuthError';
}

/** GitHub accepts JWTs of at most ten minutes; 60 s back covers a runner clock running ahead of GitHub's. */
const JWT_SECONDS = 9 * 60;
const CLOCK_DRIFT_SECONDS = 60;

/** The key as PEM: secrets pasted into one line keep their newlines as `\n`. */
export function readPrivateKey(pem: string): KeyObject {
  const text = pem.includes('\\n') && !pem.includes('\n') ? pem.replace(/\\n/g, '\n') : pem;
  let key: KeyObject;
  try {
    key = createPrivateKey(text.trim());
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new AppAuthError(`input github-app-private-key: not a PEM private key (${why}); paste the App's .pem file whole`);
  }
  if (key.asymmetricKeyType !== 'rsa') throw new AppAuthError('input github-app-private-key: GitHub App keys are RSA keys');
  return key;
}

/** The App's JWT (RS256): `iss` is the App id (a number) or its client id. */
export function appJwt(appId: string, key: KeyObject, nowMs = Date.now()): string {
  const now = Math.floor(nowMs / 1000);
  const iss = /^\d+$/.test(appId) ? Number(appId) : appId;
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const body = `${part({ alg: 'RS256', typ: 'JWT' })}.${part({ iat: now - CLOCK_DRIFT_SECONDS, exp: now + JWT_SECONDS, iss })}`;
  const signature = createSign('RSA-SHA256').update(body).sign(key).toString('base64url');
  return `${body}.${signature}`;
}

export interface ExchangeDeps {
  /** A client for a credential (the JWT, then the installation token). */
  github: (token: string) => GitHub;
  owner: string;
  repo: string;
}

/**
 * The documented exchange: the JWT finds the repository's installation, then takes a token
 * scoped to this repository alone; the bot's user id comes from its public profile.
 */
export async function openAppSession(c: AppCredentials, d: ExchangeDeps): Promise<AppSession> {
  const appId = c.appId.trim();
  if (!/^(\d+|Iv[\w.]+)$/.test(appId)) throw new AppAuthError('input github-app-id: expected the App id (a number) or its client id (Iv…)');
  const jwt = appJwt(appId, readPrivateKey(c.privateKey));
  const app = d.github(jwt);
  const installation = await app.rest.apps.getRepoInstallation({ owner: d.owner, repo: d.repo }).catch((error: unknown) => {
    throw refusal(error, d, appId);
  });
  const { data } = await app.rest.apps
    .createInstallationAccessToken({ installation_id: installation.data.id, repositories: [d.repo], request: { retries: 0 } })
    .catch((error: unknown) => {
      throw new AppAuthError(`input github-app-id: GitHub refused an installation token for ${d.owner}/${d.repo} (${describe(error)})`);
    });
  const login = `${installation.data.app_slug}[bot]`;
  const user = await d.github(data.token).rest.users.getByUsername({ username: login });
  return { token: data.token, login, userId: user.data.id, expiresAt: data.expires_at };
}

function describe(error: unknown): string {
  const status = statusOf(error);
  const message = error instanceof Error ? error.message : String(error);
  return status ? `${status}: ${message}` : message;
}

function refusal(error: unknown, d: ExchangeDeps, appId: string): AppAuthError {
  const status = statusOf(error);
  if (status === 404) {
    return new AppAuthError(
      `input github-app-id: the App ${appId} is not installed on ${d.owner}/${d.repo} (install it there, with access to this repository)`,
    );
  }
  if (status === 401) {
    return new AppAuthError(
      `input github-app-id: GitHub refused the App's token (${describe(error)}): check that github-app-id and github-app-private-key belong to the same App`,
    );
  }
  return new AppAuthError(`input github-app-id: finding the App's installation failed (${describe(error)})`);
}

/** `DELETE /installation/token` with the token itself: it stops working at once rather than in an hour. */
export async function revokeAppSession(gh: GitHub, log: (message: string) => void): Promise<void> {
  try {
    await gh.rest.apps.revokeInstallationAccessToken({ request: { retries: 0 } });
  } catch (error) {
    log(`could not revoke the installation token (${describe(error)}); it expires within the hour`);
  }
}
