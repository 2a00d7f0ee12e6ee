/**
 * GitHub Apps: the App's JWT (RS256, checked against the App's public key as GitHub checks it),
 * the installation of the repository, installation access tokens and their revocation, and the
 * bot user's public profile. Documented at
 * https://docs.github.com/en/apps/creating-github-apps/authenticating-with-a-github-app.
 */
import { createPublicKey, randomBytes, verify } from 'node:crypto';
import { userJson } from './render.js';
import { API_DOCS, errorReply, field, notFound, type Reply } from './reply.js';
import { isoNow, stableInt, type SimState } from './state.js';
import type { SimApp, SimInstallationToken, SimUser } from './types.js';

const APPS_DOCS = `${API_DOCS}/apps/apps`;

function decodePart(part: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Whether a bearer credential looks like a JWT (three base64url parts); GitHub answers such ones as App JWTs. */
export function isJwt(token: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
}

/**
 * GitHub's checks of an App JWT: RS256 signed by the App's key, `iss` the App id or client id,
 * `exp` in the future and at most ten minutes after `iat`, `iat` not in the future (60 s of drift).
 */
export function verifyAppJwt(app: SimApp, jwt: string, now = Date.now() / 1000): string | null {
  const [h = '', p = '', sig = ''] = jwt.split('.');
  const header = decodePart(h);
  const claims = decodePart(p);
  if (!header || !claims || header['alg'] !== 'RS256') return 'A JSON web token could not be decoded';
  if (!verify('sha256', Buffer.from(`${h}.${p}`), createPublicKey(app.publicKey), Buffer.from(sig, 'base64url'))) {
    return 'A JSON web token could not be decoded';
  }
  const iss = claims['iss'];
  if (String(iss) !== String(app.id) && iss !== app.clientId) return 'Integration not found';
  const iat = Number(claims['iat']);
  const exp = Number(claims['exp']);
  if (!Number.isFinite(iat) || iat > now + 60) return "'Issued at' claim ('iat') must be an Integer representing a time in the past";
  if (!Number.isFinite(exp) || exp <= now || exp - iat > 600) {
    return "'Expiration time' claim ('exp') is too far in the future";
  }
  return null;
}

function botUser(app: SimApp): SimUser {
  return { login: `${app.slug}[bot]`, type: 'Bot' };
}

function installationJson(s: SimState, app: SimApp): Record<string, unknown> {
  const account = userJson(s, { login: s.owner, type: 'User' });
  return {
    id: app.installationId,
    account,
    repository_selection: 'selected',
    access_tokens_url: `${s.url}/app/installations/${app.installationId}/access_tokens`,
    repositories_url: `${s.url}/installation/repositories`,
    html_url: `${s.serverUrl}/settings/installations/${app.installationId}`,
    app_id: app.id,
    app_slug: app.slug,
    target_id: account['id'],
    target_type: 'User',
    permissions: app.permissions,
    events: [],
    created_at: '2024-01-01T00:00:00Z',
    updated_at: '2024-01-01T00:00:00Z',
    single_file_name: null,
  };
}

/** POST /app/installations/{id}/access_tokens: scoped to the named repositories of the installation. */
function createToken(s: SimState, app: SimApp, body: unknown): Reply {
  const docs = `${APPS_DOCS}#create-an-installation-access-token-for-an-app`;
  const names = field(body, 'repositories');
  if (names !== undefined && (!Array.isArray(names) || names.some((n) => typeof n !== 'string'))) {
    return errorReply(422, 'Invalid request.', docs);
  }
  const repos = (names as string[] | undefined) ?? [s.repo];
  if (repos.some((n) => n.toLowerCase() !== s.repo.toLowerCase())) {
    return errorReply(422, 'There is at least one repository that does not exist or is not accessible to the parent installation.', docs);
  }
  const token = `ghs_${randomBytes(27).toString('base64url').replace(/[-_]/g, 'x').slice(0, 36)}`;
  const expiresAt = new Date(Date.now() + 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const issued: SimInstallationToken = { token, repositories: repos, revoked: false, createdAt: isoNow() };
  s.installationTokens.push(issued);
  return {
    status: 201,
    json: {
      token,
      expires_at: expiresAt,
      permissions: app.permissions,
      repository_selection: 'selected',
      repositories: repos.map(() => ({ id: s.repoId, name: s.repo, full_name: s.fullName, private: s.opts.private ?? false })),
    },
  };
}

/** The user an installation token that is live authenticates as. */
export function installationTokenUser(s: SimState, token: string): SimUser | undefined {
  const app = s.opts.app;
  const issued = s.installationTokens.find((t) => t.token === token && !t.revoked);
  return app && issued ? botUser(app) : undefined;
}

/** The App routes, answered before the usual token check: they take the JWT, or an installation token. */
export function appReply(s: SimState, method: string, path: string, bearer: string | undefined, body: unknown): Reply | null {
  const app = s.opts.app;
  const installation = /^\/repos\/([^/]+)\/([^/]+)\/installation$/.exec(path);
  const tokens = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(path);
  if (method === 'DELETE' && path === '/installation/token') return revoke(s, bearer);
  const userMatch = /^\/users\/([^/]+)$/.exec(path);
  if (method === 'GET' && userMatch && app && decodeURIComponent(userMatch[1]!) === botUser(app).login) {
    return { status: 200, json: userJson(s, botUser(app)) };
  }
  if (!(method === 'GET' && installation) && !(method === 'POST' && tokens)) return null;
  if (!app || !bearer || !isJwt(bearer)) return errorReply(401, 'A JSON web token could not be decoded', APPS_DOCS);
  const refused = verifyAppJwt(app, bearer);
  if (refused) return errorReply(401, refused, APPS_DOCS);
  if (installation) {
    const same = (a: string | undefined, b: string) => decodeURIComponent(a ?? '').toLowerCase() === b.toLowerCase();
    if (!app.installed || !same(installation[1], s.owner) || !same(installation[2], s.repo)) {
      return notFound(`${APPS_DOCS}#get-a-repository-installation-for-the-authenticated-app`);
    }
    return { status: 200, json: installationJson(s, app) };
  }
  if (!app.installed || Number(tokens![1]) !== app.installationId)
    return notFound(`${APPS_DOCS}#create-an-installation-access-token-for-an-app`);
  return createToken(s, app, body);
}

/** DELETE /installation/token, with the token itself: 204, and the token no longer works. */
function revoke(s: SimState, bearer: string | undefined): Reply {
  const issued = s.installationTokens.find((t) => t.token === bearer && !t.revoked);
  if (!issued) return errorReply(401, 'Bad credentials');
  issued.revoked = true;
  return { status: 204 };
}

/** A stable installation id for an App that names none. */
export const defaultInstallationId = (slug: string): number => stableInt(`installation:${slug}`);
