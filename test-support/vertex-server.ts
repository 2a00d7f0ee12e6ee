/**
 * A fake Google Vertex AI endpoint for Claude: an OAuth token endpoint taking the service-account
 * JWT-bearer grant (the assertion's RS256 signature checked against the account's public key), and
 * `POST /v1/projects/<p>/locations/<r>/publishers/anthropic/models/<model>:streamRawPredict` taking
 * that token and the Vertex body (`anthropic_version: "vertex-2023-10-16"`, `stream: true`, no `model`). The turn
 * comes from the scripted Anthropic fake behind it, whose SSE stream Vertex passes on as is.
 *
 * With `workloadIdentity`, it is also Google's STS (`POST /sts`): the RFC 8693 token exchange that an
 * `external_account` credentials file (Workload Identity Federation, as `google-github-actions/auth`
 * leaves it) makes at its `token_url`, swapping the OIDC token for an access token the predict route takes.
 */
import { createPublicKey, createVerify, type KeyObject } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Script } from './anthropic-server.js';
import { CloudRejection, forward, isRecord, passHeaders, startCloudServer, type CloudRequest, type CloudServer } from './bedrock/proxy.js';

export type { CloudRequest } from './bedrock/proxy.js';

export const VERTEX_VERSION = 'vertex-2023-10-16';
export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
export const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';
export const JWT_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:jwt';

export interface VertexServerOptions {
  script: Script;
  project: string;
  region: string;
  /** The service account allowed to get tokens: its email and public key (PEM). */
  serviceAccount?: { clientEmail: string; publicKey: string | KeyObject };
  /** The workload identity provider `POST /sts` exchanges for: the OIDC token it accepts, and the pool's audience. */
  workloadIdentity?: { subjectToken: string; audience: string };
}

/** One STS token exchange that succeeded: the form as posted (subject token included) and the token issued. */
export interface StsExchange {
  form: Record<string, string>;
  token: string;
}

export interface TokenGrant {
  grantType: string;
  /** The assertion's claims, once its signature checked out. */
  claims: Record<string, unknown>;
  token: string;
}

export interface VertexServer extends CloudServer {
  /** Every token handed out, with the grant that got it. */
  grants: TokenGrant[];
  /** Every STS token exchange that got a token. */
  exchanges: StsExchange[];
}

const ROUTE = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/anthropic\/models\/([^/:]+):streamRawPredict$/;

/** Google's error envelope: `{"error": {code, message, status}}`. */
function sendGoogleError(res: ServerResponse, status: number, message: string, extra: Record<string, string> = {}): void {
  const names: Record<number, string> = {
    400: 'INVALID_ARGUMENT',
    401: 'UNAUTHENTICATED',
    403: 'PERMISSION_DENIED',
    404: 'NOT_FOUND',
    429: 'RESOURCE_EXHAUSTED',
  };
  res.writeHead(status, { 'content-type': 'application/json', ...extra });
  res.end(JSON.stringify({ error: { code: status, message, status: names[status] ?? 'INTERNAL' } }));
}

function decodePart(part: string): Record<string, unknown> {
  const parsed: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  if (!isRecord(parsed)) throw new CloudRejection(400, 'invalid_grant: malformed JWT', 'invalid_grant');
  return parsed;
}

/** The claims of an RS256 JWT signed by `key`, or a 400 `invalid_grant` as Google's token endpoint answers. */
function verifyAssertion(assertion: string, key: KeyObject, email: string): Record<string, unknown> {
  const [head, body, signature] = assertion.split('.');
  if (head === undefined || body === undefined || signature === undefined)
    throw new CloudRejection(400, 'invalid_grant: not a JWT', 'invalid_grant');
  if (decodePart(head)['alg'] !== 'RS256') throw new CloudRejection(400, 'invalid_grant: alg must be RS256', 'invalid_grant');
  const ok = createVerify('RSA-SHA256').update(`${head}.${body}`).verify(key, Buffer.from(signature, 'base64url'));
  if (!ok) throw new CloudRejection(400, 'invalid_grant: Invalid JWT Signature.', 'invalid_grant');
  const claims = decodePart(body);
  if (claims['iss'] !== email) throw new CloudRejection(400, `invalid_grant: unknown issuer ${String(claims['iss'])}`, 'invalid_grant');
  const exp = claims['exp'];
  if (typeof exp !== 'number' || exp * 1000 < Date.now())
    throw new CloudRejection(400, 'invalid_grant: Invalid JWT: token expired', 'invalid_grant');
  return claims;
}

export async function startVertexServer(o: VertexServerOptions): Promise<VertexServer> {
  const account = o.serviceAccount;
  const key = account && (typeof account.publicKey === 'string' ? createPublicKey(account.publicKey) : account.publicKey);
  const grants: TokenGrant[] = [];
  const exchanges: StsExchange[] = [];

  const token = (res: ServerResponse, record: CloudRequest): void => {
    const form = new URLSearchParams(record.raw);
    const grantType = form.get('grant_type') ?? '';
    if (grantType !== JWT_BEARER) throw new CloudRejection(400, `unsupported_grant_type: ${grantType}`, 'unsupported_grant_type');
    if (!account || !key) throw new CloudRejection(400, 'invalid_grant: no service account is known here', 'invalid_grant');
    const claims = verifyAssertion(form.get('assertion') ?? '', key, account.clientEmail);
    const issued = `ya29.fake-${grants.length + 1}`;
    grants.push({ grantType, claims, token: issued });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ access_token: issued, expires_in: 3599, token_type: 'Bearer' }));
  };

  /** Google STS answers a bad exchange with an OAuth error: `invalid_request`, `invalid_grant` or `invalid_target`. */
  const sts = (res: ServerResponse, record: CloudRequest): void => {
    const form = new URLSearchParams(record.raw);
    const identity = o.workloadIdentity;
    const grantType = form.get('grant_type') ?? '';
    if (grantType !== TOKEN_EXCHANGE) throw new CloudRejection(400, `unsupported_grant_type: ${grantType}`, 'unsupported_grant_type');
    if (!identity) throw new CloudRejection(400, 'invalid_grant: no workload identity provider is known here', 'invalid_grant');
    if (form.get('requested_token_type') !== ACCESS_TOKEN_TYPE)
      throw new CloudRejection(400, 'invalid_request: requested_token_type must be an access token', 'invalid_request');
    if (form.get('subject_token_type') !== JWT_TOKEN_TYPE)
      throw new CloudRejection(400, 'invalid_request: subject_token_type must be a JWT', 'invalid_request');
    if (form.get('audience') !== identity.audience) throw new CloudRejection(400, 'invalid_target: unknown audience', 'invalid_target');
    if (!(form.get('scope') ?? '').split(' ').includes('https://www.googleapis.com/auth/cloud-platform'))
      throw new CloudRejection(400, 'invalid_request: scope must include cloud-platform', 'invalid_request');
    if (form.get('subject_token') !== identity.subjectToken)
      throw new CloudRejection(400, 'invalid_grant: The given subject token is invalid.', 'invalid_grant');
    const issued = `ya29.sts-${exchanges.length + 1}`;
    exchanges.push({ form: Object.fromEntries(form), token: issued });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ access_token: issued, issued_token_type: ACCESS_TOKEN_TYPE, token_type: 'Bearer', expires_in: 3600 }));
  };

  const predict = async (req: IncomingMessage, res: ServerResponse, record: CloudRequest): Promise<void> => {
    const route = ROUTE.exec(record.path);
    if (req.method !== 'POST' || !route) throw new CloudRejection(404, `unsupported route: ${record.method} ${record.path}`, 'NOT_FOUND');
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (bearer === undefined || ![...grants, ...exchanges].some((g) => g.token === bearer)) {
      throw new CloudRejection(401, 'Request had invalid authentication credentials. Expected OAuth 2 access token.', 'UNAUTHENTICATED');
    }
    if (route[1] !== o.project || route[2] !== o.region)
      throw new CloudRejection(404, `no such project/location: ${route[1]}/${route[2]}`, 'NOT_FOUND');
    if (record.body === undefined) throw new CloudRejection(400, 'Invalid JSON payload received.', 'INVALID_ARGUMENT');
    const response = await forward(server.inner, decodeURIComponent(route[3] ?? ''), record.body, {
      version: VERTEX_VERSION,
      stream: 'true',
    });
    if (response.status !== 200 || !response.body) {
      // Vertex passes Claude's own errors on with their status and Anthropic envelope.
      res.writeHead(response.status, { 'content-type': 'application/json', ...passHeaders(response) });
      res.end(await response.text());
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', ...passHeaders(response) });
    await pipe(response.body, res);
  };

  const handle = (req: IncomingMessage, res: ServerResponse, record: CloudRequest): Promise<void> => {
    if (req.method === 'POST' && record.path === '/token') return Promise.resolve(token(res, record));
    if (req.method === 'POST' && record.path === '/sts') return Promise.resolve(sts(res, record));
    return predict(req, res, record);
  };
  const reject = (res: ServerResponse, e: CloudRejection): void => {
    if (['invalid_grant', 'unsupported_grant_type', 'invalid_request', 'invalid_target'].includes(e.errorType)) {
      res
        .writeHead(e.status, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: e.errorType, error_description: e.message }));
    } else sendGoogleError(res, e.status, e.message);
  };
  const server: VertexServer = { ...(await startCloudServer(o.script, handle, reject)), grants, exchanges };
  return server;
}

/** Copies the inner SSE body; a cut inner stream cuts this one. */
async function pipe(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
    res.end();
  } catch {
    res.destroy();
  }
}
