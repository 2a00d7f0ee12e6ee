/** The HTTP side: parsing requests, authentication, fault injection, GitHub's headers, start and close. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { API_DOCS, errorBody, errorReply, STATUS_MESSAGES, type Reply } from './reply.js';
import { userJson } from './render.js';
import { requestSchemaErrors } from './openapi.js';
import { SimLimits } from './limits.js';
import { logDownload, route } from './routes/index.js';
import { SimState } from './state.js';
import { appReply, installationTokenUser, isJwt } from './apps.js';
import type { GitHubSim, GitHubSimOptions, SimFault, SimHang, SimUser } from './types.js';

interface ParsedRequest {
  method: string;
  pathname: string;
  query: Record<string, string>;
  body: unknown;
  badJson: boolean;
  /** `performance.now()` when the body had arrived. */
  at: number;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function parseRequest(req: IncomingMessage): Promise<ParsedRequest> {
  const raw = await readBody(req);
  const at = performance.now();
  const method = (req.method ?? 'GET').toUpperCase();
  const parsed = new URL(req.url ?? '/', 'http://sim.invalid');
  const pathname = parsed.pathname;
  const query: Record<string, string> = {};
  for (const [k, v] of parsed.searchParams) query[k] = v;
  let body: unknown;
  let badJson = false;
  if (raw !== '') {
    try {
      body = JSON.parse(raw) as unknown;
    } catch {
      body = raw;
      badJson = true;
    }
  }
  return { method, pathname, query, body, badJson, at };
}

/** Whom the request's token authenticates as; undefined for a missing or unknown token. */
function authenticated(s: SimState, header: string | undefined): SimUser | undefined {
  const m = /^(?:token|bearer)\s+(\S+)\s*$/i.exec(header ?? '');
  if (m === null) return undefined;
  if (m[1] === s.opts.token) return s.appUser;
  return s.opts.tokens?.[m[1]!] ?? installationTokenUser(s, m[1]!);
}

/**
 * `GET /user`: the user of a personal token; an installation token (GITHUB_TOKEN, an App's) is
 * no user, and GitHub answers it 403.
 */
function authenticatedUser(s: SimState, user: SimUser): Reply {
  if ((user.type ?? (user.login.endsWith('[bot]') ? 'Bot' : 'User')) === 'Bot') {
    return errorReply(403, 'Resource not accessible by integration', `${API_DOCS}/users/users#get-the-authenticated-user`);
  }
  return { status: 200, json: userJson(s, user) };
}

/** Who a request's credential stands for, as the log shows it: `app JWT`, or the login a token is of. */
function credentialOf(s: SimState, header: string | undefined): string | undefined {
  const bearer = /^(?:token|bearer)\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
  if (bearer === undefined) return undefined;
  if (isJwt(bearer)) return 'app JWT';
  const issued = s.installationTokens.find((t) => t.token === bearer);
  if (issued) return `installation token${issued.revoked ? ' (revoked)' : ''}`;
  return authenticated(s, header)?.login;
}

function realReply(s: SimState, req: IncomingMessage, p: ParsedRequest): Reply {
  const logMatch = /^\/_logs\/(\d+)$/.exec(p.pathname);
  if (logMatch && p.method === 'GET') return logDownload(s, Number(logMatch[1]));
  const bearer = /^(?:token|bearer)\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
  const app = appReply(s, p.method, p.pathname, bearer, p.body);
  if (app) return app;
  const user = authenticated(s, req.headers.authorization);
  if (!user) return errorReply(401, 'Bad credentials');
  if (p.badJson) return errorReply(400, 'Problems parsing JSON');
  if (p.pathname === '/user' && p.method === 'GET') return authenticatedUser(s, user);
  const accept = req.headers.accept ?? '';
  return route(s, { method: p.method, query: p.query, body: p.body, accept, fullPath: p.pathname, user }, p.pathname);
}

function answer(s: SimState, req: IncomingMessage, p: ParsedRequest): Reply {
  const fault = s.faults.find(
    (f) => f.remaining > 0 && (f.method === undefined || f.method.toUpperCase() === p.method) && f.path.test(p.pathname),
  );
  if (!fault) return realReply(s, req, p);
  fault.remaining -= 1;
  if (fault.afterEffect) realReply(s, req, p);
  const json = errorBody(fault.status, fault.message ?? STATUS_MESSAGES[fault.status] ?? 'Error');
  return { status: fault.status, json, ...(fault.headers ? { headers: fault.headers } : {}) };
}

function requestId(s: SimState): string {
  const hex = (n: number): string => n.toString(16).toUpperCase();
  return `C0DE:${hex(0x1000 + s.requestCounter)}:${hex(0xa0000 + s.requestCounter)}:${hex(s.repoId)}`;
}

function send(s: SimState, res: ServerResponse, reply: Reply, limitHeaders: Record<string, string>): void {
  s.requestCounter += 1;
  s.rateRemaining = Math.max(1, s.rateRemaining - 1);
  const headers: Record<string, string> = {
    'x-github-request-id': requestId(s),
    'x-github-media-type': 'github.v3; format=json',
    'x-github-api-version-selected': '2022-11-28',
    'x-ratelimit-limit': '5000',
    'x-ratelimit-remaining': String(s.rateRemaining),
    'x-ratelimit-used': String(5000 - s.rateRemaining),
    'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
    'x-ratelimit-resource': 'core',
  };
  let payload = '';
  if (reply.json !== undefined) {
    headers['content-type'] = 'application/json; charset=utf-8';
    payload = JSON.stringify(reply.json);
  } else if (reply.text !== undefined) {
    headers['content-type'] = reply.contentType ?? 'text/plain; charset=utf-8';
    payload = reply.text;
  }
  for (const [k, v] of Object.entries({ ...limitHeaders, ...reply.headers })) headers[k.toLowerCase()] = v;
  headers['content-length'] = String(Buffer.byteLength(payload));
  res.writeHead(reply.status, headers);
  res.end(payload);
}

/** Reads do not carry bodies, and text that is not JSON is already answered with a 400. */
async function checkSchema(s: SimState, p: ParsedRequest): Promise<void> {
  if (p.method === 'GET' || p.method === 'HEAD' || p.badJson) return;
  try {
    s.schemaErrors.push(...(await requestSchemaErrors(p.method, p.pathname, p.body)));
  } catch (err) {
    // A checker that cannot run must not look like a clean run to a test asserting the list is empty.
    s.schemaErrors.push(`schema check unavailable: ${err instanceof Error ? err.message : String(err)}`);
  }
}

async function handle(s: SimState, limits: SimLimits, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const p = await parseRequest(req);
  await checkSchema(s, p);
  const as = credentialOf(s, req.headers.authorization);
  const seen = { method: p.method, path: p.pathname, query: p.query, body: p.body, at: p.at, ...(as ? { as } : {}) };
  // A hung request is recorded with status 0 and its connection left open until close().
  if (limits.hang(p.method, p.pathname)) return void s.requests.push({ ...seen, status: 0 });
  const reply = limits.refuse(p.method, Date.now()) ?? answer(s, req, p);
  s.requests.push({ ...seen, status: reply.status });
  send(s, res, reply, limits.headers());
}

export async function startGitHubSim(opts: GitHubSimOptions): Promise<GitHubSim> {
  const s = new SimState(opts);
  const limits = new SimLimits();
  limits.secondary = opts.secondaryWriteLimit ?? null;
  limits.primary = opts.primaryLimit ?? null;
  const server = createServer((req, res) => {
    handle(s, limits, req, res).catch((err: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(errorBody(500, `simulator error: ${err instanceof Error ? err.message : String(err)}`)));
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  s.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: s.url,
    requests: s.requests,
    issues: s.issues,
    pullsCreated: s.pullsCreated,
    reactions: s.reactions,
    schemaErrors: s.schemaErrors,
    installationTokens: s.installationTokens,
    fail(fault: SimFault): void {
      s.faults.push({ ...fault, remaining: fault.times ?? 1 });
    },
    limits: limits.stats,
    hang(h: SimHang): void {
      limits.hangs.push({ ...h, remaining: h.times ?? Infinity });
    },
    expireToken(): void {
      limits.tokenExpired = true;
    },
    gitData: s.gitData,
    moveBranch(move) {
      const pending = { ...move, remaining: move.times ?? 1, pushed: [] as string[] };
      s.gitData.moves.push(pending);
      return { pushed: pending.pushed };
    },
    close(): Promise<void> {
      return new Promise((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // Octokit's fetch keeps connections alive; without this close() would wait for them to time out.
        server.closeAllConnections();
      });
    },
  };
}
