#!/usr/bin/env node
import { scrubEnvironment } from '../secrets/environ.js';
import { isKeptVariable } from '../secrets/allowlist.js';
import { VERSION } from '../version.js';
import { keepCompiledCode } from './compile-cache.js';

// Before the rest of the CLI loads, so that all of it is kept.
keepCompiledCode();
const { main } = await import('./main.js');

const controller = new AbortController();
let signals = 0;
const onSignal = (name: NodeJS.Signals) => {
  signals++;
  // The first signal stops the run cleanly (the summary still prints); a second one means now.
  if (signals > 1) process.exit(130);
  process.stderr.write(`\nagent-action: ${name} received, stopping…\n`);
  controller.abort(new Error(name));
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

// Keep what the run needs, then wipe secrets from what other processes can read of ours.
const env = { ...process.env };
// An allowlist, not a list of secret names: a DATABASE_URL the shell exported is a secret too.
scrubEnvironment((name) => !isKeptVariable(name));

const code = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env,
  signal: controller.signal,
  version: VERSION,
});
// Keep-alive sockets must not hold the process once the answer is out.
process.stdout.write('', () => process.exit(code));
