import { closeSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';

/**
 * Wipes secret values from this process's initial environment block, the memory that
 * /proc/<pid>/environ shows to every process of the same user. Deleting a variable from
 * `process.env` only unlinks it; the bytes stay readable there, so a tool command could run
 * `cat /proc/$PPID/environ` and find the API key. Read what you need before calling this.
 * Every variable `isSecret` names is also deleted from `process.env`, so no child process
 * inherits it. Returns the names wiped from the block; the block is left alone where /proc is
 * missing (macOS, Windows).
 */
export function scrubEnvironment(isSecret: (name: string) => boolean): string[] {
  const wiped: string[] = [];
  let fd: number | undefined;
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after "(comm)": state is field 3, env_start and env_end are fields 50 and 51.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = Number(fields[47]);
    const end = Number(fields[48]);
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end <= start) return wiped;
    fd = openSync('/proc/self/mem', 'r+');
    const block = Buffer.alloc(end - start);
    readSync(fd, block, 0, block.length, start);
    for (let offset = 0; offset < block.length;) {
      let stop = block.indexOf(0, offset);
      if (stop < 0) stop = block.length;
      const eq = block.indexOf(0x3d, offset);
      if (eq > offset && eq < stop) {
        const name = block.toString('utf8', offset, eq);
        if (isSecret(name)) {
          block.fill(0, eq + 1, stop);
          wiped.push(name);
        }
      }
      offset = stop + 1;
    }
    if (wiped.length > 0) writeSync(fd, block, 0, block.length, start);
  } catch {
    // No /proc or no write access to our own memory: the sandbox is then the only defence.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  for (const name of Object.keys(process.env)) {
    if (isSecret(name)) delete process.env[name];
  }
  return wiped;
}
