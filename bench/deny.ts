import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareSandbox } from '../src/sandbox/index.js';
import { grepTool } from '../src/tools/builtin/grep.js';
import { toolEnvironment } from '../src/tools/env.js';
import { bashPathCheck } from '../src/tools/permissions/bash-paths.js';
import { confinedPaths } from '../src/tools/permissions/confine-paths.js';
import { hiddenPaths } from '../src/tools/permissions/hidden.js';
import { loadRules } from '../src/tools/permissions/rules.js';
import { Workspace } from '../src/tools/workspace.js';
import { median } from './stats.js';

const FILES = Number(process.env['BENCH_DENY_FILES'] ?? 10_000);
const RUNS = 9;
const PACKAGES = 50;

/** 50 deny rules: the usual four, then per-package private dirs, key files and generated code. */
function denyRules(): string[] {
  const rules = ['Read(.env)', 'Read(secrets/**)', 'Read(**/*.pem)', 'Edit(.github/**)'];
  for (let i = 0; rules.length < 50; i++) {
    rules.push(i % 3 === 0 ? `Read(pkg${i}/private/**)` : i % 3 === 1 ? `Read(**/*.key${i})` : `Edit(pkg${i}/generated/**)`);
  }
  return rules;
}

/** FILES source files in PACKAGES packages, each with a .env, a private/ and a generated/ dir and a .pem. */
async function makeTree(root: string): Promise<void> {
  const perPackage = Math.ceil(FILES / PACKAGES);
  for (let p = 0; p < PACKAGES; p++) {
    const writes: Promise<void>[] = [];
    for (let f = 0; f < perPackage - 4; f++) {
      const dir = join(root, `pkg${p}`, `mod${f % 20}`);
      writes.push(mkdir(dir, { recursive: true }).then(() => writeFile(join(dir, `file${f}.ts`), `export const v${f} = ${f};\n`)));
    }
    for (const [name, body] of [
      ['.env', 'TOKEN=x\n'],
      ['private/key.txt', 'k\n'],
      ['generated/api.ts', 'g\n'],
      ['certs/server.pem', 'p\n'],
    ]) {
      const file = join(root, `pkg${p}`, name!);
      writes.push(mkdir(join(file, '..'), { recursive: true }).then(() => writeFile(file, body!)));
    }
    await Promise.all(writes);
  }
  await mkdir(join(root, '.github', 'workflows'), { recursive: true });
  await writeFile(join(root, '.github', 'workflows', 'ci.yml'), 'on: push\n');
  execFileSync('git', ['init', '-q'], { cwd: root });
}

async function medianOf(fn: () => unknown, runs = RUNS): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return median(times);
}

export interface DenyBench {
  files: number;
  rules: number;
  unreadable: number;
  readOnly: number;
  expand: number;
  plainCommand: number;
  confinedCommand: number;
  wordCheck: number;
  grep: number;
  grepHidden: number;
  sandboxed: boolean;
}

/** What 50 deny rules over a 10,000-file tree cost: the expansion at start, each command, each search. */
export async function denyCost(): Promise<DenyBench> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'agent-bench-deny-')));
  try {
    await makeTree(root);
    const list = denyRules();
    const rules = await loadRules({ allow: [{ source: 'bench', rules: 'Bash,Read,Grep' }], deny: [{ source: 'bench', rules: list }] });
    const paths = await confinedPaths(rules, root);
    const expand = await medianOf(() => confinedPaths(rules, root));
    const env = toolEnvironment(process.env);
    const sandbox = await prepareSandbox({ mode: 'auto', network: 'off', workspace: root, env });
    const sandboxed = sandbox.kind === 'bubblewrap';
    const confined = sandbox.wrap.confine?.(paths) ?? sandbox.wrap;
    const run = (argv: string[]) => execFileSync(argv[0]!, argv.slice(1), { stdio: 'ignore' });
    const plainCommand = await medianOf(() => run(sandbox.wrap(['true'])));
    const confinedCommand = await medianOf(() => run(confined(['true'])));
    await sandbox.dispose();
    const check = bashPathCheck(rules)!;
    const wordCheck = await medianOf(() => {
      for (let i = 0; i < 100; i++) check('npm test 2>&1 | tail -20 && git diff --stat src/index.ts', root);
    });
    const workspace = await Workspace.open(root);
    const ctx = { workspace, signal: new AbortController().signal, env, outputLimit: 30000 };
    const input = { pattern: 'v17 ', output_mode: 'files_with_matches' as const };
    const grep = await medianOf(() => grepTool.run(input, ctx));
    const hidden = hiddenPaths(rules, root)!;
    const grepHidden = await medianOf(() => grepTool.run(input, { ...ctx, hidden }));
    return {
      files: FILES,
      rules: list.length,
      unreadable: paths.unreadable.length,
      readOnly: paths.readOnly.length,
      expand,
      plainCommand,
      confinedCommand,
      wordCheck: wordCheck / 100,
      grep,
      grepHidden,
      sandboxed,
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
