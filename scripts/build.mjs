// Builds the committed dist/: TypeScript to JavaScript, then one ncc bundle per entry point
// (dist/index.js for the action, dist/cli/index.js for the CLI, and the cloud providers' adapters
// beside each), so nothing is installed at run time.
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { minify } from 'terser';

const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;
const run = (cmd, args) => execFileSync(cmd, args, { stdio: 'inherit' });

rmSync('dist', { recursive: true, force: true });
rmSync('.tmp/build', { recursive: true, force: true });
run(bin('tsc'), ['-p', 'tsconfig.build.json']);
// The tool specs are generated from the compiled tools, then compiled in with everything else.
run(process.execPath, ['scripts/tool-specs.mjs']);
run(bin('tsc'), ['-p', 'tsconfig.build.json']);
const ncc = (entry, out) =>
  run(bin('ncc'), ['build', entry, '-o', out, '--minify', '--no-cache', '--quiet', '--target', 'es2022', '--license', 'licenses.txt']);
ncc('.tmp/build/index.js', 'dist');
ncc('.tmp/build/cli/index.js', 'dist/cli');
// The Bedrock and Vertex adapters are bundles of their own, which model/registry imports from
// beside its chunk (dist/bedrock/index.js for the action, dist/cli/bedrock/index.js for the CLI):
// their SDKs use the full Anthropic client, whose resources would otherwise be evaluated by every
// run on the Anthropic API too, about 10 ms of start-up.
const PROVIDERS = ['bedrock', 'vertex'];
for (const provider of PROVIDERS) {
  ncc(`.tmp/build/model/${provider}/index.js`, `dist/${provider}`);
  cpSync(`dist/${provider}`, `dist/cli/${provider}`, { recursive: true });
}
// ncc minifies the entry file only; the chunks loaded later (the SDK for the action, the tools)
// are parsed at run time too, so they get the same treatment.
for (const dir of ['dist', 'dist/cli', ...PROVIDERS.flatMap((p) => [`dist/${p}`, `dist/cli/${p}`])]) {
  for (const name of readdirSync(dir).filter((n) => /^\d+\.index\.js$/.test(n))) {
    const path = join(dir, name);
    const result = await minify(readFileSync(path, 'utf8'), { module: true, compress: true, mangle: true, format: { comments: false } });
    writeFileSync(path, result.code);
  }
}
const cli = 'dist/cli/index.js';
const code = readFileSync(cli, 'utf8');
if (!code.startsWith('#!')) writeFileSync(cli, `#!/usr/bin/env node\n${code}`);
chmodSync(cli, 0o755);
