import { realpathSync } from 'node:fs';
import path from 'node:path';
import { isInside } from '../core/paths.js';
import type { DiffFile, LineRange } from './diff.js';
import type { Side } from './findings.js';

/** A value, or the words that tell the model what to change. */
export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

const fail = (error: string): { ok: false; error: string } => ({ ok: false, error });

/** Files named when a path is not in the pull request; enough to spot a typo, not a whole listing. */
const FILES_SHOWN = 30;
const RANGES_SHOWN = 40;

/**
 * The roots an absolute path may start with: the workspace as given and as resolved, because the
 * model may have seen either spelling (e.g. /tmp and /private/tmp on macOS).
 */
export function workspaceRoots(workspaceRoot: string): string[] {
  const given = path.resolve(workspaceRoot);
  let real = given;
  try {
    real = realpathSync(given);
  } catch {
    // A root that cannot be resolved is still a valid prefix as given.
  }
  return real === given ? [given] : [given, real];
}

/** The repository-relative path, with `/`, of an absolute path inside the workspace or a relative one. */
export function repoPath(filePath: string, roots: readonly string[]): Checked<string> {
  let relative = filePath;
  if (path.isAbsolute(filePath)) {
    const root = roots.find((r) => isInside(path.resolve(filePath), r));
    if (root === undefined)
      return fail(`${filePath} is outside the workspace (${roots[0] ?? ''}); use a path relative to the repository root.`);
    relative = path.relative(root, path.resolve(filePath));
  }
  const normal = path.posix.normalize(relative.split(path.sep).join('/')).replace(/^(?:\.\/)+/, '');
  if (normal === '' || normal === '.' || normal === '..' || normal.startsWith('../')) {
    return fail(`${filePath} does not name a file inside the repository; use a path relative to the repository root.`);
  }
  return { ok: true, value: normal.replace(/\/+$/, '') };
}

/** The pull request's file at `relative`; a path copied from diff text (`b/src/x.ts`) is forgiven. */
export function findFile(files: readonly DiffFile[], relative: string): Checked<DiffFile> {
  const exact = files.find((f) => f.path === relative);
  if (exact) return { ok: true, value: exact };
  const prefixed = /^[ab]\//.test(relative) ? files.find((f) => f.path === relative.slice(2)) : undefined;
  if (prefixed) return { ok: true, value: prefixed };
  const renamed = files.find((f) => f.oldPath === relative);
  if (renamed) {
    return fail(
      `${relative} is renamed to ${renamed.path} in this pull request: comment on ${renamed.path} (side LEFT for its old lines).`,
    );
  }
  if (files.length === 0) return fail(`${relative} is not in this pull request, which changes no files that can take comments.`);
  const shown = files.slice(0, FILES_SHOWN).map((f) => f.path);
  const more = files.length > FILES_SHOWN ? ` (and ${files.length - FILES_SHOWN} more)` : '';
  return fail(`${relative} is not one of the files this pull request changes. Changed files: ${shown.join(', ')}${more}.`);
}

function formatRanges(ranges: readonly LineRange[]): string {
  const shown = ranges.slice(0, RANGES_SHOWN).map(([from, to]) => (from === to ? String(from) : `${from}-${to}`));
  const more = ranges.length > RANGES_SHOWN ? ` (and ${ranges.length - RANGES_SHOWN} more)` : '';
  return `${shown.join(', ')}${more}`;
}

/** The ranges a comment may use on one side of a file, in diff order. */
export function sideRanges(file: DiffFile, side: Side): LineRange[] {
  return file.hunks.map((h) => (side === 'RIGHT' ? h.right : h.left)).filter((r): r is LineRange => r !== null);
}

/** Why the file has no lines on `side` at all, or undefined when it has some. */
function sideUnavailable(file: DiffFile, side: Side): string | undefined {
  const summary = 'Mention it in your final summary instead.';
  if (side === 'LEFT' && file.status === 'added') {
    return `${file.path} is a new file in this pull request, so it has no LEFT (old) side. Use side RIGHT.`;
  }
  if (side === 'RIGHT' && file.status === 'removed') {
    return `${file.path} is deleted by this pull request, so it has no RIGHT (new) side. Use side LEFT for its removed lines.`;
  }
  if (file.binary) return `${file.path} is a binary file: the diff has no lines to comment on. ${summary}`;
  if (file.hunks.length === 0) {
    return `${file.path} has no changed lines in the diff (only a rename or mode change, or a diff too large to show). ${summary}`;
  }
  if (sideRanges(file, side).length > 0) return undefined;
  const other: Side = side === 'RIGHT' ? 'LEFT' : 'RIGHT';
  const only = side === 'RIGHT' ? 'delete' : 'add';
  return (
    `${file.path} has no ${side}-side lines in the diff: its hunks only ${only} lines. ` +
    `Use side ${other}; ${file.path} has these ${other}-side ranges in the diff: ${formatRanges(sideRanges(file, other))}.`
  );
}

export interface Place {
  line: number;
  startLine?: number;
  side: Side;
}

/** Accepts the place only when its lines lie inside one hunk of the file on that side. */
export function checkPlace(file: DiffFile, place: Place): Checked<Place> {
  const unavailable = sideUnavailable(file, place.side);
  if (unavailable) return fail(unavailable);
  const ranges = sideRanges(file, place.side);
  const listing = `${file.path} has these ${place.side}-side ranges in the diff: ${formatRanges(ranges)}.`;
  const hunk = ranges.find(([from, to]) => place.line >= from && place.line <= to);
  if (!hunk) {
    return fail(
      `Line ${place.line} (${place.side}) of ${file.path} is not in the diff: a comment must be on lines of one hunk. ${listing}`,
    );
  }
  const start = place.startLine;
  if (start !== undefined && (start < hunk[0] || start > hunk[1])) {
    return fail(
      `start_line ${start} and line ${place.line} are not in the same hunk: a multi-line comment must lie inside one hunk ` +
        `(line ${place.line} is in ${formatRanges([hunk])}). ${listing}`,
    );
  }
  return { ok: true, value: place };
}
