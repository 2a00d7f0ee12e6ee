/**
 * The filtering proxy of `network: allowlist`: it runs in the action's (or CLI's) own process,
 * outside the sandbox, listening on a Unix socket that is the sandbox's only way out. Plain HTTP
 * requests (absolute-form) are forwarded and HTTPS goes through `CONNECT` tunnels, each to a
 * host the policy allows; every other host gets 403 and is counted.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { HostPolicy } from './hosts.js';

export interface FilteringProxy {
  readonly socketPath: string;
  /** Refused connections so far, per host. */
  refusedByHost(): Record<string, number>;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive', 'te', 'trailer', 'upgrade']);

/** `host:port` of a CONNECT line; IPv6 in brackets. */
function splitAuthority(authority: string): { host: string; port: number } | null {
  const m = /^(?:\[([^\]]+)\]|([^:]+)):(\d+)$/.exec(authority);
  if (!m) return null;
  return { host: (m[1] ?? m[2])!, port: Number(m[3]) };
}

/** What the request handlers share with startProxy: the policy, the refusal count, the open sockets close() ends. */
interface ProxyState {
  readonly policy: HostPolicy;
  refuse(host: string): void;
  readonly sockets: Set<Duplex>;
}

/** The body of a 403: names the host, so a blocked command's output says why it failed. */
function refusalText(host: string): string {
  return `agent-action: ${host} is not in allowed-domains; the network allows only the hosts listed there\n`;
}

/** A plain-HTTP request in absolute form, forwarded to an allowed host without the hop-by-hop headers. */
function forwardHttp(state: ProxyState, req: IncomingMessage, res: ServerResponse): void {
  let url: URL;
  try {
    url = new URL(req.url ?? '');
  } catch {
    res.writeHead(400).end('agent-action: the proxy takes absolute http:// URLs and CONNECT\n');
    return;
  }
  if (url.protocol !== 'http:') {
    res.writeHead(400).end('agent-action: the proxy forwards http:// requests; https goes through CONNECT\n');
    return;
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(url.port || 80);
  if (!state.policy.allows(host, port)) {
    state.refuse(host);
    res.writeHead(403, { 'content-type': 'text/plain' }).end(refusalText(host));
    return;
  }
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
  const upstream = request({ host, port, method: req.method, path: `${url.pathname}${url.search}`, headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end(`agent-action: ${host} could not be reached\n`)));
  req.pipe(upstream);
}

/** A CONNECT request: a tunnel to an allowed host, both of its sockets tracked until they close. */
function openTunnel(state: ProxyState, req: IncomingMessage, client: Duplex, head: Buffer): void {
  const { sockets } = state;
  sockets.add(client);
  client.on('close', () => sockets.delete(client));
  client.on('error', () => client.destroy());
  const target = splitAuthority(req.url ?? '');
  if (!target) {
    client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    return;
  }
  if (!state.policy.allows(target.host, target.port)) {
    state.refuse(target.host);
    client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\n${refusalText(target.host)}`);
    return;
  }
  const upstream: Socket = connect(target.port, target.host, () => {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  sockets.add(upstream);
  upstream.on('close', () => sockets.delete(upstream));
  upstream.on('error', () => (client.writable ? client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n') : client.destroy()));
  client.on('close', () => upstream.destroy());
  upstream.on('end', () => client.end());
}

export function startProxy(policy: HostPolicy, socketPath: string): Promise<FilteringProxy> {
  const refused = new Map<string, number>();
  const sockets = new Set<Duplex>();
  const refuse = (host: string) => refused.set(host.toLowerCase(), (refused.get(host.toLowerCase()) ?? 0) + 1);
  const state: ProxyState = { policy, refuse, sockets };
  const server = createServer((req, res) => forwardHttp(state, req, res));
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => openTunnel(state, req, client, head));

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve({
        socketPath,
        refusedByHost: () => Object.fromEntries(refused),
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
