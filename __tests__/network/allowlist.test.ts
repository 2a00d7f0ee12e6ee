// network: allowlist under the real bubblewrap sandbox: processes reach the allowed hosts only
// through the filtering proxy, and nothing else leaves, whatever they do with the proxy
// variables. A local server on every loopback address logs what reached it: `localhost` is
// allowed, 127.0.0.2 (the same server) is not.
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { prepareSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { toolEnvironment } from '../../src/tools/env.js';
import { startLoggingWeb, type LoggingWeb } from '../../test-support/logging-web.js';

let web: LoggingWeb;
let port: number;
let reached: string[];
let sandbox: Sandbox | undefined;
let workspace: string;

beforeAll(async () => {
  web = await startLoggingWeb();
  ({ port, reached } = web);
  workspace = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'allowlist-')));
  try {
    sandbox = await prepareSandbox({
      mode: 'strict',
      network: 'allowlist',
      allowedDomains: ['localhost', 'registry.npmjs.org'],
      workspace,
      env: toolEnvironment(process.env),
    });
  } catch (error) {
    console.warn(`bubblewrap cannot sandbox here, so the allowlist is not tested: ${String(error)}`);
  }
});

afterAll(async () => {
  await sandbox?.dispose();
  await web.close();
});

/** A bash command in the sandbox: its stdout and exit status. */
function run(command: string): Promise<{ code: number; out: string }> {
  const argv = sandbox!.wrap(['bash', '-c', command]);
  return new Promise((done) => {
    execFile(argv[0]!, argv.slice(1), { encoding: 'utf8', timeout: 20_000 }, (error, stdout, stderr) =>
      done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

const onlyWithSandbox = (name: string, fn: () => Promise<void>) => test(name, async () => (sandbox ? fn() : undefined), 30_000);

describe('network: allowlist in the sandbox', () => {
  onlyWithSandbox('an allowed host works through the proxy, plain HTTP and a CONNECT tunnel', async () => {
    expect((await run(`curl -sS http://localhost:${port}/plain`)).out).toBe('hello /plain');
    expect((await run(`curl -sS -p http://localhost:${port}/tunnel`)).out).toBe('hello /tunnel');
    expect(reached).toEqual(expect.arrayContaining(['/plain', '/tunnel']));
  });

  onlyWithSandbox('a host not on the list is refused and counted; the server never sees it', async () => {
    const plain = await run(`curl -sS -o /dev/null -w '%{http_code}' http://127.0.0.2:${port}/refused-plain`);
    expect(plain.out).toBe('403');
    const tunnel = await run(`curl -sS -p http://127.0.0.2:${port}/refused-tunnel`);
    expect(tunnel.code).not.toBe(0);
    expect(reached.filter((u) => u.startsWith('/refused'))).toEqual([]);
    expect(sandbox!.networkRefused!()).toEqual({ '127.0.0.2': 2 });
  });

  onlyWithSandbox('ignoring or emptying the proxy variables reaches nothing', async () => {
    const attempts = [
      `curl -sS --max-time 5 --noproxy '*' http://localhost:${port}/noproxy`,
      `HTTPS_PROXY= HTTP_PROXY= http_proxy= https_proxy= ALL_PROXY= all_proxy= curl -sS --max-time 5 http://localhost:${port}/emptied`,
      `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET /devtcp HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3`,
      `node -e "require('net').connect(${port}, '127.0.0.1', function () { this.end('GET /netconnect HTTP/1.0\\r\\n\\r\\n') }).on('error', (e) => { console.log(e.code); process.exit(3) })"`,
    ];
    for (const command of attempts) expect((await run(command)).code).not.toBe(0);
    expect(reached.filter((u) => ['/noproxy', '/emptied', '/devtcp', '/netconnect'].includes(u))).toEqual([]);
  });

  onlyWithSandbox('the proxy variables are set inside, NO_PROXY empty, and a command keeps its exit status', async () => {
    const env = await run('echo "$HTTPS_PROXY|$http_proxy|${NO_PROXY-unset}|"; exit 7');
    expect(env.out).toBe('http://127.0.0.1:3128|http://127.0.0.1:3128||\n');
    expect(env.code).toBe(7);
  });
});
