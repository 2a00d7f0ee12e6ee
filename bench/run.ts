// `npm run bench`: agent-action's figures beside baselines measured in this same process, with
// clean child environments. Figures, not tests: nothing here fails on a number.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { actionStartup, ANSWER_DELAY_MS, buildSdkFloor, cliStartup } from './startup.js';
import { cachePerformance, contextEconomy, loopOverhead, memoryPeak } from './loop.js';
import { searchSpeed } from './search.js';
import { denyCost } from './deny.js';
import { bundleSize } from './bundle.js';
import { mcpStartup, subagentFanOut } from './extensions.js';
import { providerRuns } from './providers.js';
import { streamBench } from './stream.js';
import { fmt, row } from './stats.js';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 15);
const only = process.argv.slice(2);
const want = (name: string) => only.length === 0 || only.includes(name);

const dir = await mkdtemp(join(tmpdir(), 'agent-bench-'));
await writeFile(join(dir, 'README.md'), 'bench\n');
console.log(`agent-action bench · node ${process.version} · medians of ${RUNS} runs unless said`);
try {
  if (want('startup')) {
    const cli = await cliStartup(dir, RUNS, [], buildSdkFloor());
    const floor = cli.floor!;
    // As many runs as the CLI: a run now and then takes 30-60 ms longer, which a median of few would show.
    const action = await actionStartup(RUNS);
    console.log('\n# start-up: process start to the first model request');
    console.log(row('node -e 0 (baseline, interleaved)', fmt(cli.baseline), '1.00x'));
    console.log(row('SDK floor: bundled @anthropic-ai/sdk sending one streaming request', fmt(floor.first), '1.00x floor'));
    console.log(row('dist/cli/index.js "task"', fmt(cli.subject), `${(cli.subject / floor.first).toFixed(2)}x floor`));
    console.log(
      row(
        'dist/index.js on a PR comment (loopback GitHub, git, model)',
        fmt(action.subject),
        `${(action.subject / cli.subject).toFixed(2)}x CLI`,
      ),
    );
    console.log('\n# exit: from the last byte of the final answer to process exit, one-step runs');
    console.log(row('SDK floor (the global fetch)', fmt(floor.exit)));
    console.log(row('dist/cli/index.js', fmt(cli.exit)));
    console.log(row(`dist/index.js (answer after ${ANSWER_DELAY_MS} ms), delivery, thread and final comment included`, fmt(action.exit)));
    console.log(row('dist/index.js, from the final answer to the final comment', fmt(action.toFinalComment)));
    console.log(row('dist/index.js, from its last GitHub request', fmt(action.lastRequestToExit)));
  }
  if (want('loop')) {
    const loop = await loopOverhead(dir);
    console.log('\n# loop overhead per step: instant model, no-op tool (TodoWrite), tool time excluded');
    console.log(row(`per step over ${loop.steps} steps (model round trip on loopback included)`, fmt(loop.perStep)));
    console.log(row('of which the loop itself (request build, accounting, transcript, results)', fmt(loop.ownPerStep)));
  }
  if (want('memory')) {
    const mem = await memoryPeak(dir);
    console.log('\n# peak memory: 60 steps whose tool prints 1 MB each (CLI, whole process)');
    console.log(row('node -e 0 peak RSS (baseline)', `${mem.baselineMb.toFixed(1)} MB`));
    console.log(row('dist/cli/index.js peak RSS', `${mem.peakMb.toFixed(1)} MB`, `${mem.steps} steps, ${mem.conclusion}`));
  }
  if (want('cache')) {
    const c = await cachePerformance(dir);
    console.log(`\n# prompt cache: ${c.requests}-request session against the cache simulation`);
    console.log(row('input tokens read from cache, requests 2..n', `${(c.readShare * 100).toFixed(1)}%`));
    console.log(row('lowest share of the previous prompt read back by a request', `${(c.minCarry * 100).toFixed(1)}%`));
    console.log(row('stable prefix (tools + system) identical in every request', c.stablePrefix ? 'yes' : 'NO'));
  }
  if (want('context')) {
    const x = await contextEconomy(dir);
    console.log(`\n# context economy: ${x.steps} steps whose tool prints 20 KB (window ${x.window} tokens)`);
    console.log(row('conclusion', x.conclusion));
    console.log(row('largest prompt sent', `${x.maxPrompt} tokens`, `${((x.maxPrompt / x.window) * 100).toFixed(0)}% of the window`));
    console.log(row('compactions (old tool output cleared) / summaries', `${x.compactions} / ${x.summaries}`));
    console.log(row('transcript records kept (every message)', String(x.transcriptMessages)));
  }
  if (want('search')) {
    const s = await searchSpeed();
    console.log(
      `\n# Grep and Glob on a git tree of ${s.files} files, ${s.ignored} of them in an ignored node_modules (medians of ${s.runs}, after ${s.warmUp} uncounted pairs)`,
    );
    console.log(row('git ls-files (baseline)', fmt(s.lsFiles), '1.00x'));
    console.log(row('Glob "**/*.ts"', fmt(s.glob), `${(s.glob / s.lsFiles).toFixed(2)}x`));
    console.log(row('git ls-files (baseline, again)', fmt(s.lsFilesAgain), '1.00x'));
    console.log(row('Glob "pkg1*/**/file1*.{ts,js}"', fmt(s.globDirs), `${(s.globDirs / s.lsFilesAgain).toFixed(2)}x`));
    console.log(row('git grep (baseline)', fmt(s.gitGrep), '1.00x'));
    console.log(row('Grep "needle_\\d+" files_with_matches', fmt(s.grep), `${(s.grep / s.gitGrep).toFixed(2)}x`));
    console.log(row('files found by git grep / by Grep (node_modules left out by both)', `${s.found.gitGrep} / ${s.found.grep}`));
    console.log(row(`grep -r in node_modules, ${s.ignored} files (baseline)`, fmt(s.grepR), '1.00x'));
    console.log(row('Grep with path node_modules (ignored by git, so walked and read)', fmt(s.walk), `${(s.walk / s.grepR).toFixed(2)}x`));
  }
  if (want('deny')) {
    const d = await denyCost();
    console.log(`\n# ${d.rules} deny rules over a tree of ${d.files} files (medians of 9)`);
    console.log(row('paths they cover when the tools start', `${d.unreadable} unreadable, ${d.readOnly} read-only`));
    console.log(row('expanding the rules over the tree, once per run', fmt(d.expand)));
    const how = d.sandboxed ? 'in bubblewrap' : 'WITHOUT bubblewrap';
    console.log(row(`one command (true) ${how}, no deny rules (baseline)`, fmt(d.plainCommand), '1.00x'));
    console.log(
      row(`one command (true) ${how}, the rules mounted`, fmt(d.confinedCommand), `${(d.confinedCommand / d.plainCommand).toFixed(2)}x`),
    );
    console.log(row('checking one command line for denied paths (no sandbox)', `${(d.wordCheck * 1000).toFixed(0)} µs`));
    console.log(row('Grep over the tree, no hidden files (baseline)', fmt(d.grep), '1.00x'));
    console.log(
      row('Grep over the tree, Read-denied files skipped and counted', fmt(d.grepHidden), `${(d.grepHidden / d.grep).toFixed(2)}x`),
    );
  }
  if (want('extensions')) {
    const m = await mcpStartup(dir, Math.max(5, Math.floor(RUNS / 2)));
    console.log('\n# MCP servers and subagents');
    console.log(row('CLI start to first request, no MCP server', fmt(m.baseline), '1.00x'));
    console.log(row('CLI start to first request, two stdio MCP servers', fmt(m.subject), `${(m.subject / m.baseline).toFixed(2)}x`));
    const f = await subagentFanOut();
    console.log(row(`one turn starting ${f.subagents} subagents, each answering after 1 s`, fmt(f.ms)));
  }
  if (want('providers')) {
    const p = await providerRuns(dir, Math.max(5, Math.floor(RUNS / 2)));
    console.log('\n# providers: a one-step CLI run, start to exit, against each fake');
    for (const [name, ms] of Object.entries(p)) console.log(row(name, fmt(ms), `${(ms / p['anthropic']!).toFixed(2)}x`));
  }
  if (want('stream')) await streamBench(Math.max(3, Math.floor(RUNS / 3)));
  if (want('bundle')) {
    const b = bundleSize();
    console.log('\n# bundle (committed dist/, nothing installed at run time)');
    for (const [name, bytes] of b) console.log(row(name, `${(bytes / 1024).toFixed(0)} KB`));
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
