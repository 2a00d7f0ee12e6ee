/**
 * What the network allowlist costs. Start-up: preparing the sandbox (the allowlist adds the
 * filtering proxy) and one command (`true`) in it, where the allowlist adds the relay that carries
 * the sandbox's connections to the proxy. Throughput: an `npm ci` of a project whose lock file
 * points at a local HTTP server standing in for the registry (its tarballs made here), in the
 * sandbox with the network on (straight to the server) and under the allowlist (through the relay
 * and the proxy), interleaved. A control run with `localhost` left off the list must fail: it shows
 * npm's requests really went through the proxy.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { prepareSandbox, type Sandbox, type SandboxOptions } from '../src/sandbox/index.js';
import { toolEnvironment } from '../src/tools/env.js';
import { cleanEnv, median } from './stats.js';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 5);
const COMMANDS = 20;
/** Packages in the project, and the size of each one's files before compression. */
const PACKAGES = Number(process.env['BENCH_NPM_PACKAGES'] ?? 150);
const PACKAGE_BYTES = 96 * 1024;
const run = promisify(execFile);

/** A tar archive (ustar) of the given files under `package/`, gzipped: what `npm pack` makes. */
function tarball(files: Record<string, Buffer>): Buffer {
  const blocks: Buffer[] = [];
  for (const [name, data] of Object.entries(files)) {
    const header = Buffer.alloc(512);
    header.write(`package/${name}`, 0, 100);
    header.write('0000644\0', 100);
    header.write('0000000\0', 108);
    header.write('0000000\0', 116);
    header.write(data.length.toString(8).padStart(11, '0') + '\0', 124);
    header.write('00000000000\0', 136);
    header.write('        ', 148);
    header.write('0', 156);
    header.write('ustar\0' + '00', 257);
    let sum = 0;
    for (const byte of header) sum += byte;
    header.write(sum.toString(8).padStart(6, '0') + '\0 ', 148);
    blocks.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  return gzipSync(Buffer.concat([...blocks, Buffer.alloc(1024)]));
}

/** The registry's tarballs, and a project whose lock file names each with its URL and integrity. */
async function npmProject(dir: string, port: number): Promise<{ tarballs: Map<string, Buffer>; bytes: number }> {
  const tarballs = new Map<string, Buffer>();
  const dependencies: Record<string, string> = {};
  const packages: Record<string, unknown> = {};
  for (let i = 0; i < PACKAGES; i++) {
    const name = `bench-pkg-${i}`;
    // Half random (incompressible), half text, as a package's minified code and its docs.
    const data = Buffer.concat([randomBytes(PACKAGE_BYTES / 2), Buffer.from('x'.repeat(PACKAGE_BYTES / 2))]);
    const tgz = tarball({ 'package.json': Buffer.from(JSON.stringify({ name, version: '1.0.0' })), 'index.js': data });
    tarballs.set(`/${name}-1.0.0.tgz`, tgz);
    dependencies[name] = '1.0.0';
    packages[`node_modules/${name}`] = {
      version: '1.0.0',
      resolved: `http://localhost:${port}/${name}-1.0.0.tgz`,
      integrity: `sha512-${createHash('sha512').update(tgz).digest('base64')}`,
    };
  }
  const manifest = { name: 'bench-project', version: '1.0.0', dependencies };
  const lock = { name: 'bench-project', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': manifest, ...packages } };
  await writeFile(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  await writeFile(join(dir, 'package-lock.json'), JSON.stringify(lock, null, 2));
  return { tarballs, bytes: [...tarballs.values()].reduce((n, t) => n + t.length, 0) };
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'bench-network-'));
  const workspace = join(root, 'ws');
  await mkdir(workspace);
  let served = 0;
  let tarballs = new Map<string, Buffer>();
  const server = createServer((req, res) => {
    const body = tarballs.get(req.url ?? '');
    served += 1;
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as { port: number }).port;
  const project = await npmProject(workspace, port);
  tarballs = project.tarballs;

  const base: SandboxOptions = { mode: 'strict', network: 'on', workspace, env: toolEnvironment(cleanEnv()) };
  const allowlist: SandboxOptions = { ...base, network: 'allowlist', allowedDomains: ['localhost'] };
  const prepare = { on: [] as number[], allowlist: [] as number[] };
  const command = { on: [] as number[], allowlist: [] as number[] };
  const npm = { on: [] as number[], allowlist: [] as number[] };

  const sandboxes: Record<'on' | 'allowlist', Sandbox | undefined> = { on: undefined, allowlist: undefined };
  for (let r = 0; r < RUNS; r++) {
    for (const kind of ['on', 'allowlist'] as const) {
      await sandboxes[kind]?.dispose();
      let made: Sandbox | undefined;
      prepare[kind].push(await timed(async () => (made = await prepareSandbox(kind === 'on' ? base : allowlist))));
      sandboxes[kind] = made;
    }
  }
  for (let i = 0; i < COMMANDS; i++) {
    for (const kind of ['on', 'allowlist'] as const) {
      const argv = sandboxes[kind]!.wrap(['true']);
      command[kind].push(await timed(() => run(argv[0]!, argv.slice(1))));
    }
  }
  const npmCi = async (sandbox: Sandbox) => {
    await rm(join(workspace, 'node_modules'), { recursive: true, force: true });
    const cache = await mkdtemp(join(root, 'cache-'));
    const argv = sandbox.wrap([
      'npm',
      'ci',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--cache',
      cache,
      `--registry=http://localhost:${port}/`,
    ]);
    await run(argv[0]!, argv.slice(1), { cwd: workspace, maxBuffer: 16 * 1024 * 1024 });
    await rm(cache, { recursive: true, force: true });
  };
  for (let r = 0; r < RUNS; r++) {
    for (const kind of ['on', 'allowlist'] as const) npm[kind].push(await timed(() => npmCi(sandboxes[kind]!)));
  }
  // The control: the same install with localhost left off the list is refused at the proxy.
  const closed = await prepareSandbox({ ...allowlist, allowedDomains: ['registry.npmjs.org'] });
  const before = served;
  const refusedRun = await npmCi(closed).then(
    () => 'installed (the proxy was bypassed)',
    () => 'failed',
  );
  const refused = closed.networkRefused?.() ?? {};
  await closed.dispose();
  for (const s of Object.values(sandboxes)) await s?.dispose();
  await new Promise((done) => server.close(done));
  await rm(root, { recursive: true, force: true });

  const mb = project.bytes / 1024 / 1024;
  const ms = (v: number[]) => `${median(v).toFixed(1)} ms`;
  const ratio = (a: number[], b: number[]) => `${(median(a) / median(b)).toFixed(2)}x`;
  const added = (a: number[], b: number[]) => `${median(a) - median(b) >= 0 ? '+' : ''}${(median(a) - median(b)).toFixed(1)} ms`;
  console.log(`network allowlist (node ${process.version}, ${RUNS} runs, medians)`);
  console.log(
    `  prepareSandbox: on ${ms(prepare.on)}, allowlist ${ms(prepare.allowlist)} (${added(prepare.allowlist, prepare.on)}, the proxy)`,
  );
  console.log(
    `  one command (true): on ${ms(command.on)}, allowlist ${ms(command.allowlist)} (${added(command.allowlist, command.on)}, the relay; ${ratio(command.allowlist, command.on)})`,
  );
  const rate = (v: number[]) => `${(mb / (median(v) / 1000)).toFixed(1)} MB/s`;
  console.log(
    `  npm ci, ${PACKAGES} packages, ${mb.toFixed(1)} MB of tarballs: on ${ms(npm.on)} (${rate(npm.on)}), allowlist ${ms(npm.allowlist)} (${rate(npm.allowlist)}); ${ratio(npm.allowlist, npm.on)}`,
  );
  console.log(
    `  control, localhost not listed: npm ci ${refusedRun}; server saw ${served - before} requests; refused ${JSON.stringify(refused)}`,
  );
}

await main();
