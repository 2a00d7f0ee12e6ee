// Builds the committed dist/: TypeScript to JavaScript, then one ncc bundle per entry point
// (dist/index.js for the action, dist/cli/index.js for the CLI), so nothing is installed at run time.
import { execFileSync } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
for (const [entry, out] of [
  ['.tmp/build/index.js', 'dist'],
  ['.tmp/build/cli/index.js', 'dist/cli'],
]) {
  run(bin('ncc'), ['build', entry, '-o', out, '--minify', '--no-cache', '--quiet', '--target', 'es2022', '--license', 'licenses.txt']);
}
// ncc minifies the entry file only; the chunks loaded later (the SDK for the action, the tools)
// are parsed at run time too, so they get the same treatment.
for (const dir of ['dist', 'dist/cli']) {
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
