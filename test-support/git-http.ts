import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, dirname } from 'node:path';

/** A bare repository served over git's smart HTTP protocol, as GitHub serves it (git-http-backend). */
export interface GitHttpServer {
  /** The repository's URL, to clone or set as `origin`. */
  url: string;
  /** Pushes (`POST .../git-receive-pack`) answered so far, failed ones included. */
  pushes: number;
  close(): Promise<void>;
}

export interface GitHttpOptions {
  /** The first this many pushes are answered `500 Internal Server Error` by the front end, before git sees them. */
  failPushes?: number;
  /** The next this many pushes have their connection dropped before any answer, as a broken network does. */
  dropPushes?: number;
}

/** git-http-backend's CGI answer: `Status:` and other headers, a blank line, the body. */
function relayCgi(out: Buffer, res: ServerResponse): void {
  let end = out.indexOf('\r\n\r\n');
  let sep = 4;
  if (end < 0) {
    end = out.indexOf('\n\n');
    sep = 2;
  }
  const head = out.subarray(0, end).toString('latin1').split(/\r?\n/);
  let status = 200;
  for (const line of head) {
    const [name, ...rest] = line.split(':');
    const value = rest.join(':').trim();
    if (name!.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
    else res.setHeader(name!, value);
  }
  res.writeHead(status);
  res.end(out.subarray(end + sep));
}

function backend(root: string, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const child = spawn('git', ['http-backend'], {
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: root,
      // Pushing over HTTP needs an authenticated user, as on GitHub.
      REMOTE_USER: 'x-access-token',
      REMOTE_ADDR: '127.0.0.1',
      REQUEST_METHOD: req.method ?? 'GET',
      PATH_INFO: url.pathname,
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] } : {}),
      ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
    },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const out: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  child.once('close', () => relayCgi(Buffer.concat(out), res));
  req.pipe(child.stdin);
}

/** Serves `bare` at `http://127.0.0.1:<port>/<name>.git`. */
export async function serveGitOverHttp(bare: string, o: GitHttpOptions = {}): Promise<GitHttpServer> {
  const root = dirname(bare);
  const server = createServer((req, res) => {
    const push = req.method === 'POST' && (req.url ?? '').endsWith('/git-receive-pack');
    if (push) state.pushes += 1;
    if (push && state.pushes <= (o.failPushes ?? 0)) {
      req.resume();
      res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error\n');
      return;
    }
    if (push && state.pushes <= (o.failPushes ?? 0) + (o.dropPushes ?? 0)) {
      req.socket.destroy();
      return;
    }
    backend(root, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const state: GitHttpServer = {
    url: `http://127.0.0.1:${port}/${basename(bare)}`,
    pushes: 0,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return state;
}
