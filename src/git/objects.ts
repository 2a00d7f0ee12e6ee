import { spawn } from 'node:child_process';
import { ISOLATED_ENV, SAFE_CONFIG } from './safe.js';

/** One path a commit changed, as `git diff-tree --raw` says: its modes and objects before and after. */
export interface TreeChange {
  path: string;
  /** `A`dded, `D`eleted, `M`odified, `T`ype changed (a file became a symlink, say). */
  status: 'A' | 'D' | 'M' | 'T';
  oldMode: string;
  newMode: string;
  /** The object after the change; all zeros for a deletion. */
  newSha: string;
}

/** `git diff-tree -r -z --raw --no-renames` output: `:old new oldsha newsha S\0path\0` per change. */
export function parseRawDiff(out: string): TreeChange[] {
  const fields = out.split('\0');
  const changes: TreeChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const head = fields[i]!;
    if (!head.startsWith(':')) break;
    const [oldMode = '', newMode = '', , newSha = '', status = ''] = head.slice(1).split(' ');
    const s = status.charAt(0);
    if (s !== 'A' && s !== 'D' && s !== 'M' && s !== 'T') throw new Error(`unexpected change ${status} of ${fields[i + 1]}`);
    changes.push({ path: fields[i + 1]!, status: s, oldMode, newMode, newSha });
  }
  return changes;
}

/**
 * The bytes of blobs, by id, through one `git cat-file --batch` (thousands of files are one
 * process, and binary content stays bytes). A missing object is an error.
 */
export function readBlobs(dir: string, env: Record<string, string>, shas: readonly string[]): Promise<Map<string, Buffer>> {
  const wanted = [...new Set(shas)];
  if (wanted.length === 0) return Promise.resolve(new Map<string, Buffer>());
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...SAFE_CONFIG, 'cat-file', '--batch'], {
      cwd: dir,
      env: { ...env, ...ISOLATED_ENV },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.once('error', reject);
    child.stdin.on('error', () => undefined);
    child.once('close', (code) => {
      if (code !== 0) return reject(new Error(`git cat-file --batch exited with code ${code}: ${Buffer.concat(err).toString('utf8')}`));
      try {
        resolve(parseBatch(Buffer.concat(out), wanted));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    child.stdin.end(wanted.map((sha) => `${sha}\n`).join(''));
  });
}

/** `<sha> <type> <size>\n<content>\n` per object, or `<sha> missing\n`. */
function parseBatch(all: Buffer, wanted: readonly string[]): Map<string, Buffer> {
  const blobs = new Map<string, Buffer>();
  let at = 0;
  for (const sha of wanted) {
    const eol = all.indexOf(0x0a, at);
    const header = all.subarray(at, eol).toString('utf8').split(' ');
    if (header[1] !== 'blob') throw new Error(`object ${sha} is ${header[1] ?? 'unreadable'}, not a blob`);
    const size = Number(header[2]);
    blobs.set(sha, all.subarray(eol + 1, eol + 1 + size));
    at = eol + 1 + size + 1;
  }
  return blobs;
}
