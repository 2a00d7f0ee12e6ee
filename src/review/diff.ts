/** Inclusive line numbers `[from, to]` of one side of a hunk. */
export type LineRange = [from: number, to: number];

/** One `@@ -a,b +c,d @@` hunk and the lines a review comment may use on each side of it. */
export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** New-file lines the hunk shows (context and added), or null when it shows none. */
  right: LineRange | null;
  /** Old-file lines the hunk shows (context and deleted), or null when it shows none. */
  left: LineRange | null;
}

export type DiffFileStatus = 'added' | 'removed' | 'modified' | 'renamed';

/** One file of a pull request's diff; `path` is the file's name after the change (before it, when removed). */
export interface DiffFile {
  path: string;
  oldPath?: string;
  status: DiffFileStatus;
  hunks: Hunk[];
  binary?: boolean;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
const DEV_NULL = '/dev/null';

function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  // A final newline is not an empty last line: counted as context it would stretch a short hunk.
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function range(start: number, count: number): LineRange | null {
  return count > 0 ? [start, start + count - 1] : null;
}

/**
 * Reads the hunk whose header is at `lines[at]`, line by line as far as its counts say, so a
 * deleted line that happens to read `--- x` or `diff --git` is never taken for a file header.
 * The ranges come from the lines actually present, in case the text was cut short.
 */
function readHunk(lines: readonly string[], at: number, header: RegExpExecArray): { hunk: Hunk; next: number } {
  const oldStart = Number(header[1]);
  const oldLines = header[2] === undefined ? 1 : Number(header[2]);
  const newStart = Number(header[3]);
  const newLines = header[4] === undefined ? 1 : Number(header[4]);
  let oldLeft = oldLines;
  let newLeft = newLines;
  let i = at + 1;
  for (; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.startsWith('\\')) continue; // "\ No newline at end of file" belongs to the line before
    if (oldLeft <= 0 && newLeft <= 0) break;
    const mark = line[0];
    // An empty line is a context line whose leading space an editor or mail client trimmed.
    if ((mark === ' ' || line === '') && oldLeft > 0 && newLeft > 0) {
      oldLeft--;
      newLeft--;
    } else if (mark === '+' && newLeft > 0) newLeft--;
    else if (mark === '-' && oldLeft > 0) oldLeft--;
    else break;
  }
  const hunk: Hunk = {
    oldStart,
    oldLines,
    newStart,
    newLines,
    right: range(newStart, newLines - Math.max(newLeft, 0)),
    left: range(oldStart, oldLines - Math.max(oldLeft, 0)),
  };
  return { hunk, next: i };
}

/** The hunks of one file's `patch`, as `GET /repos/{o}/{r}/pulls/{n}/files` gives it; other lines are skipped. */
export function parsePatch(patch: string): Hunk[] {
  const lines = splitLines(patch);
  const hunks: Hunk[] = [];
  let i = 0;
  while (i < lines.length) {
    const header = HUNK_HEADER.exec(lines[i] ?? '');
    if (!header) {
      i++;
      continue;
    }
    const read = readHunk(lines, i, header);
    hunks.push(read.hunk);
    i = read.next;
  }
  return hunks;
}

const C_ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/** Git quotes a path with unusual characters C-style (`"a/t\303\251st"`); returns it and the index after it. */
function unquote(text: string, start: number): { value: string; end: number } {
  const bytes: number[] = [];
  let i = start + 1;
  while (i < text.length && text[i] !== '"') {
    const ch = text[i] ?? '';
    if (ch !== '\\') {
      bytes.push(...Buffer.from(ch, 'utf8'));
      i += 1;
      continue;
    }
    const octal = /^[0-7]{3}/.exec(text.slice(i + 1, i + 4));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i += 4;
    } else {
      const next = text[i + 1] ?? '';
      bytes.push(C_ESCAPES[next] ?? next.charCodeAt(0));
      i += 2;
    }
  }
  return { value: Buffer.from(bytes).toString('utf8'), end: i + 1 };
}

function stripPrefix(name: string, prefix: 'a/' | 'b/'): string {
  return name !== DEV_NULL && name.startsWith(prefix) ? name.slice(2) : name;
}

/** The path of a `---`/`+++` line; git ends a path holding a space with a tab, other tools add a date after one. */
function markerPath(rest: string, prefix: 'a/' | 'b/'): string {
  const raw = rest.startsWith('"') ? unquote(rest, 0).value : (rest.split('\t')[0] ?? rest);
  return stripPrefix(raw, prefix);
}

/** The two paths of `diff --git a/x b/y`; unquoted ones with spaces are split where both halves agree. */
function gitHeaderPaths(rest: string): { from?: string; to?: string } {
  if (rest.startsWith('"')) {
    const first = unquote(rest, 0);
    const second = rest.slice(first.end + 1);
    const to = second.startsWith('"') ? unquote(second, 0).value : second;
    return { from: stripPrefix(first.value, 'a/'), to: stripPrefix(to, 'b/') };
  }
  const quoted = rest.indexOf(' "');
  if (quoted !== -1) return { from: stripPrefix(rest.slice(0, quoted), 'a/'), to: stripPrefix(unquote(rest, quoted + 1).value, 'b/') };
  const splits = [...rest.matchAll(/ /g)].map((m) => m.index);
  const halves = splits.map((at) => ({ from: stripPrefix(rest.slice(0, at), 'a/'), to: stripPrefix(rest.slice(at + 1), 'b/') }));
  // Without a rename the two names are the same, which finds the one true split of a name with spaces.
  return halves.find((h) => h.from === h.to) ?? halves[0] ?? {};
}

/** What the lines of one file's section say, gathered before its path and status are settled. */
interface Section {
  header: { from?: string; to?: string };
  minus?: string;
  plus?: string;
  renameFrom?: string;
  renameTo?: string;
  created?: boolean;
  deleted?: boolean;
  binary?: boolean;
  markers?: boolean;
  hunks: Hunk[];
}

function readExtendedHeader(section: Section, line: string): void {
  if (line.startsWith('new file mode')) section.created = true;
  else if (line.startsWith('deleted file mode')) section.deleted = true;
  else if (/^(rename|copy) from /.test(line)) section.renameFrom = pathAfter(line, line.indexOf(' from ') + 6);
  else if (/^(rename|copy) to /.test(line)) section.renameTo = pathAfter(line, line.indexOf(' to ') + 4);
  else if (line.startsWith('GIT binary patch')) section.binary = true;
  else {
    const binary = /^Binary files (.+) and (.+) differ$/.exec(line);
    if (!binary) return;
    section.binary = true;
    section.minus ??= stripPrefix(binary[1] ?? '', 'a/');
    section.plus ??= stripPrefix(binary[2] ?? '', 'b/');
  }
}

function pathAfter(line: string, at: number): string {
  return line[at] === '"' ? unquote(line, at).value : line.slice(at);
}

function settle(section: Section): DiffFile {
  const minus = section.minus === DEV_NULL ? undefined : section.minus;
  const plus = section.plus === DEV_NULL ? undefined : section.plus;
  const oldPath = section.renameFrom ?? minus ?? section.header.from ?? plus ?? '';
  const newPath = section.renameTo ?? plus ?? section.header.to ?? oldPath;
  const added = section.created === true || section.minus === DEV_NULL;
  const removed = !added && (section.deleted === true || section.plus === DEV_NULL);
  // A copy is reported like a rename: its LEFT side is the file it was copied from.
  const status = added ? 'added' : removed ? 'removed' : oldPath !== newPath ? 'renamed' : 'modified';
  const file: DiffFile = { path: removed ? oldPath : newPath, status, hunks: section.hunks };
  if (status === 'renamed') file.oldPath = oldPath;
  if (section.binary) file.binary = true;
  return file;
}

/**
 * The files of a whole diff: `git diff` output or GitHub's `application/vnd.github.diff`. A plain
 * unified diff without `diff --git` lines works too: each `---`/`+++` pair then starts a file.
 */
export function parseUnifiedDiff(diff: string): DiffFile[] {
  const lines = splitLines(diff);
  const files: DiffFile[] = [];
  let section: Section | undefined;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    const header = section ? HUNK_HEADER.exec(line) : null;
    if (line.startsWith('diff --git ')) {
      if (section) files.push(settle(section));
      section = { header: gitHeaderPaths(line.slice('diff --git '.length)), hunks: [] };
    } else if (section && header) {
      const read = readHunk(lines, i, header);
      section.hunks.push(read.hunk);
      i = read.next;
      continue;
    } else if (line.startsWith('--- ') && lines[i + 1]?.startsWith('+++ ')) {
      if (!section || section.markers || section.hunks.length > 0) {
        if (section) files.push(settle(section));
        section = { header: {}, hunks: [] };
      }
      section.minus = markerPath(line.slice(4), 'a/');
      section.plus = markerPath((lines[i + 1] ?? '').slice(4), 'b/');
      section.markers = true;
      i += 2;
      continue;
    } else if (section && section.hunks.length === 0) {
      readExtendedHeader(section, line);
    }
    i++;
  }
  if (section) files.push(settle(section));
  return files;
}

/** A file of `GET /repos/{o}/{r}/pulls/{n}/files`, as far as comments need it. */
export interface PullFile {
  filename: string;
  status: string;
  previous_filename?: string;
  /** Missing for binary files and for diffs too large for GitHub to show. */
  patch?: string;
}

const PULL_FILE_STATUS: Readonly<Record<string, DiffFileStatus>> = {
  added: 'added',
  removed: 'removed',
  renamed: 'renamed',
  // A copy is commented on like a rename: its LEFT side is the file it was copied from.
  copied: 'renamed',
};

/** One entry of the pull request's file list as a DiffFile; `changed` and `unchanged` count as modified. */
export function diffFileFromPullFile(file: PullFile): DiffFile {
  const status = PULL_FILE_STATUS[file.status] ?? 'modified';
  const result: DiffFile = { path: file.filename, status, hunks: file.patch === undefined ? [] : parsePatch(file.patch) };
  if (file.previous_filename !== undefined && status === 'renamed') result.oldPath = file.previous_filename;
  return result;
}
