/**
 * Inside a sandbox with no network of its own, the way out: a small relay listening on the
 * sandbox's loopback that carries each connection to the filtering proxy's Unix socket (bound
 * into the sandbox), then runs the command and exits with its status. It is node's, run by the
 * same node binary as the action, so it needs nothing the runner may lack (socat, python).
 */

/** Where the proxy's socket folder and node are bound inside the sandbox (its private /tmp). */
export const SANDBOX_NETWORK_DIR = '/tmp/.agent-action-network';
export const SANDBOX_PROXY_PORT = 3128;

const RELAY = `const net = require('net'), cp = require('child_process'), os = require('os');
const [port, sock, ...argv] = process.argv.slice(1);
const server = net.createServer((c) => {
  const u = net.connect(sock);
  c.pipe(u); u.pipe(c);
  for (const [a, b] of [[c, u], [u, c]]) { a.on('error', () => b.destroy()); a.on('close', () => b.destroy()); }
});
server.on('error', (e) => { process.stderr.write('agent-action: the network relay could not start: ' + e.message + '\\n'); process.exit(125); });
server.listen(Number(port), '127.0.0.1', () => {
  const child = cp.spawn(argv[0], argv.slice(1), { stdio: 'inherit' });
  for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => child.kill(s));
  child.on('error', (e) => { process.stderr.write(e.message + '\\n'); process.exit(127); });
  child.on('exit', (code, signal) => process.exit(code === null ? 128 + (os.constants.signals[signal] || 1) : code));
});`;

/** The proxy's address as the sandbox's processes see it. */
export const SANDBOX_PROXY_URL = `http://127.0.0.1:${SANDBOX_PROXY_PORT}`;

/** The variables every sandboxed process gets under the allowlist: set last, over anything configured. */
export const PROXY_VARIABLES: Readonly<Record<string, string>> = {
  HTTP_PROXY: SANDBOX_PROXY_URL,
  http_proxy: SANDBOX_PROXY_URL,
  HTTPS_PROXY: SANDBOX_PROXY_URL,
  https_proxy: SANDBOX_PROXY_URL,
  ALL_PROXY: SANDBOX_PROXY_URL,
  all_proxy: SANDBOX_PROXY_URL,
  NO_PROXY: '',
  no_proxy: '',
};

/** argv run behind the relay, with node and the socket at their sandbox paths. */
export function behindRelay(argv: string[], socketName: string): string[] {
  return [`${SANDBOX_NETWORK_DIR}/node`, '-e', RELAY, String(SANDBOX_PROXY_PORT), `${SANDBOX_NETWORK_DIR}/socket/${socketName}`, ...argv];
}
