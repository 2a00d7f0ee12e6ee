import { closeSync, constants, createReadStream, fstatSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import * as z from '../../core/schema.js';
import { defineTool, ToolError } from '../tool.js';
import { readResponse } from './hook-response.js';
import type { Workspace } from '../workspace.js';

const DEFAULT_LIMIT = 2000;
const MAX_LINE_LENGTH = 2000;
const SNIFF_BYTES = 8192;

/** Extensions whose content is never useful as text, refused before a byte is read. */
export const BINARY_EXTENSIONS: ReadonlySet<string> = new Set(
  (
    'png jpg jpeg gif bmp ico webp tiff psd pdf zip gz tgz bz2 xz zst 7z rar tar jar war ear class ' +
    'exe dll so dylib o a lib obj bin dat wasm pyc pyo mp3 mp4 m4a mov avi mkv webm wav ogg flac ' +
    'woff woff2 ttf otf eot sqlite sqlite3 db node iso dmg deb rpm'
  )
    .split(' ')
    .map((ext) => `.${ext}`),
);

const schema = z.object({
  file_path: z.string().check(z.minLength(1), z.describe('The file to read: an absolute path, or a path relative to the workspace root.')),
  offset: z
    .optional(z.number().check(z.int(), z.minimum(0)))
    .check(z.describe('The line number to start reading from (1 is the first line). Only needed for files too long to read at once.')),
  limit: z
    .optional(z.number().check(z.int(), z.minimum(1)))
    .check(z.describe(`The number of lines to read (default ${DEFAULT_LIMIT}). Only needed for files too long to read at once.`)),
});

/** `cat -n`'s prefix of a line: its number right-aligned in six columns, then a tab; the first lines' kept, made once. */
const PREFIXES: string[] = [];
const KEPT_PREFIXES = 10_000;

function prefix(number: number): string {
  if (number >= KEPT_PREFIXES) return `${String(number).padStart(6)}\t`;
  return (PREFIXES[number] ??= `${String(number).padStart(6)}\t`);
}

/** The lines shown so far, numbered as they come, within the output budget. */
class Shown {
  text = '';
  count = 0;
  /** The number of the last line shown. */
  last = 0;
  private used = 0;

  constructor(private readonly budget: number) {}

  /** Adds a line (`cut`: characters past MAX_LINE_LENGTH left out), unless it goes past the budget; the first one always fits. */
  add(number: number, line: string, cut: number): boolean {
    const head = prefix(number);
    const marker = cut > 0 ? ` [... ${cut} more characters on this line]` : '';
    const size = head.length + line.length + marker.length + 1;
    if (this.used + size > this.budget && this.count > 0) return false;
    this.text += (this.count > 0 ? '\n' : '') + head + line + marker;
    this.count++;
    this.last = number;
    this.used += size;
    return true;
  }
}

interface Scan {
  shown: Shown;
  /** Why reading stopped before the end of the file, if it did. */
  stopped?: 'limit' | 'budget';
  /** Lines in the file; known only when the scan reached the end. */
  totalLines?: number;
}

/** Cuts text into lines from `start`, at most `count` lines and `budget` characters shown, as the stream below does. */
function scanText(text: string, start: number, count: number, budget: number): Scan {
  const scan: Scan = { shown: new Shown(budget) };
  let number = 1;
  for (let from = 0; from < text.length; number++) {
    const newline = text.indexOf('\n', from);
    const end = newline === -1 ? text.length : newline;
    if (number >= start) {
      if (scan.shown.count >= count) {
        scan.stopped = 'limit';
        return scan;
      }
      const full = text.charCodeAt(end - 1) === 13 && end > from ? end - from - 1 : end - from;
      if (!scan.shown.add(number, text.slice(from, from + Math.min(full, MAX_LINE_LENGTH)), Math.max(0, full - MAX_LINE_LENGTH))) {
        scan.stopped = 'budget';
        return scan;
      }
    }
    from = end + 1;
  }
  scan.totalLines = number - 1;
  return scan;
}

/** Streams the file, holding at most MAX_LINE_LENGTH characters of any line not yet shown. */
async function scanLines(abs: string, start: number, count: number, budget: number): Promise<Scan> {
  const scan: Scan = { shown: new Shown(budget) };
  let number = 1;
  let text = '';
  let length = 0;
  const finish = (): void => {
    if (number >= start) {
      // A CR is only stripped when the whole line is held; a cut line ends in the cut part anyway.
      const whole = text.length === length && text.endsWith('\r');
      const full = whole ? length - 1 : length;
      if (!scan.shown.add(number, text.slice(0, Math.min(full, MAX_LINE_LENGTH)), Math.max(0, full - MAX_LINE_LENGTH)))
        scan.stopped = 'budget';
    }
    number += 1;
    text = '';
    length = 0;
  };
  const stream = createReadStream(abs, { encoding: 'utf8', highWaterMark: 64 * 1024 });
  for await (const chunk of stream as AsyncIterable<string>) {
    for (let from = 0; from <= chunk.length && !scan.stopped;) {
      const newline = chunk.indexOf('\n', from);
      const end = newline === -1 ? chunk.length : newline;
      if (end === from && newline === -1) break;
      if (number >= start && scan.shown.count >= count) scan.stopped = 'limit';
      else {
        if (number >= start && text.length <= MAX_LINE_LENGTH) text += chunk.slice(from, Math.min(end, from + MAX_LINE_LENGTH + 1));
        length += end - from;
        if (newline === -1) break;
        finish();
      }
      from = end + 1;
    }
    if (scan.stopped) break;
  }
  if (!scan.stopped && length > 0) finish();
  if (!scan.stopped) scan.totalLines = number - 1;
  return scan;
}

/** Text past this is not sniffed for credentials: a credentials file is small. Files up to it are read whole, at once. */
const CREDENTIAL_SNIFF_BYTES = 1 << 20;

const NON_TEXT_HINT = 'Read shows text files only; use Bash (e.g. `file`, `xxd | head`) to inspect it.';

/**
 * The file's first CREDENTIAL_SNIFF_BYTES, and whether that is all of it, after refusing what is
 * not a text file. One open, fstat, read and close, without the thread pool: a local file of that
 * size reads in microseconds, less than a round trip through the pool costs, and many Reads in one
 * answer then cost a few system calls each. O_NONBLOCK keeps a FIFO from blocking the open (fstat
 * then refuses it); the path is real already (resolve()), so no symlink is followed here.
 */
function readHead(abs: string, shown: string): { bytes: Buffer; whole: boolean } {
  let fd: number;
  try {
    fd = openSync(abs, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new ToolError(`${shown} does not exist. Use Glob to find the file you mean.`);
    throw error;
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) {
      throw new ToolError(`${shown} is a directory. Use Glob (e.g. pattern "${shown}/*") or Bash ls to list it.`);
    }
    if (!stat.isFile()) throw new ToolError(`${shown} is not a regular file (a device, socket or pipe); Read only reads files.`);
    const ext = path.extname(abs).toLowerCase();
    if (BINARY_EXTENSIONS.has(ext)) throw new ToolError(`${shown} is a binary file (${ext}). ${NON_TEXT_HINT}`);
    const bytes = Buffer.allocUnsafe(Math.min(stat.size, CREDENTIAL_SNIFF_BYTES));
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    // A file that grew since fstat is read again by the stream, whole.
    const head = bytes.subarray(0, read);
    if (head.subarray(0, SNIFF_BYTES).includes(0)) throw new ToolError(`${shown} looks binary (it contains NUL bytes). ${NON_TEXT_HINT}`);
    return { bytes: head, whole: stat.size <= CREDENTIAL_SNIFF_BYTES && read === stat.size };
  } finally {
    closeSync(fd);
  }
}

/** A file holding a private key or a known token is refused whole: any part of it shown could be the secret. */
function refuseCredentialText(text: string, shown: string, workspace: Workspace): void {
  const reason = workspace.credentialText(text);
  if (reason) throw new ToolError(`Refused: ${shown} is a credentials file (${reason}); its contents are never shown.`);
}

function footer(scan: Scan, start: number): string {
  const { count, last } = scan.shown;
  if (!scan.stopped || count === 0) return '';
  const why = scan.stopped === 'budget' ? 'Output limit reached' : `Showing lines ${start}-${last}`;
  return `\n\n[${why}; the file has more lines. Call Read with offset ${last + 1} to continue.]`;
}

export const readTool = defineTool({
  name: 'Read',
  description:
    'Reads a text file from the workspace. Lines come numbered like `cat -n` (line number, tab, text); ' +
    'the numbers are not part of the file, so leave them out of Edit strings. Reads up to ' +
    `${DEFAULT_LIMIT} lines from the start by default; use offset and limit for longer files. ` +
    `Lines longer than ${MAX_LINE_LENGTH} characters are cut. Binary files and directories are refused ` +
    '(use Glob to list a directory). Read a file before editing it.',
  schema,
  readOnly: true,
  keyArgument: 'file_path',
  ruleTarget: { kind: 'path', field: 'file_path' },
  async run(input, ctx) {
    const abs = await ctx.workspace.resolve(input.file_path, 'read');
    const shown = ctx.workspace.relative(abs);
    // The paths Grep and Glob hide, by the name asked for or the file it resolves to.
    const asked = ctx.workspace.relative(path.resolve(ctx.workspace.root, input.file_path));
    if (ctx.hidden && [shown, asked].some((p) => ctx.hidden?.(p))) {
      throw new ToolError(`Permission denied: ${input.file_path} is hidden by the deny rules.`);
    }
    const head = readHead(abs, shown);
    const text = head.bytes.toString('utf8');
    refuseCredentialText(text, shown, ctx.workspace);
    const start = Math.max(1, input.offset ?? 1);
    const limit = input.limit ?? DEFAULT_LIMIT;
    const scan = head.whole ? scanText(text, start, limit, ctx.outputLimit) : await scanLines(abs, start, limit, ctx.outputLimit);
    if (scan.shown.count === 0) {
      if (scan.totalLines === 0) return `${shown} exists but is empty.`;
      return `${shown} has ${scan.totalLines ?? 'fewer'} lines; offset ${start} is past the end. Use a smaller offset.`;
    }
    return { text: scan.shown.text + footer(scan, start), hookResponse: readResponse(abs, start, limit) };
  },
});
