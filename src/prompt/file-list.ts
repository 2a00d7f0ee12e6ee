import type { ListedFile } from '../github/pull-diff.js';
import { sanitizeUntrusted } from '../untrusted/sanitize.js';

/** File names listed one per line in the prompt; the rest are counted by folder. */
export const LISTED_FILES = 100;
/** Folders named for the files past the list; the remaining ones are only counted. */
const LISTED_FOLDERS = 40;

function folderOf(filename: string): string {
  const parts = filename.split('/');
  // Two levels say more than one (src/ holds everything) and stay few enough to list.
  return parts.length <= 1 ? '(top level)' : `${parts.slice(0, Math.min(2, parts.length - 1)).join('/')}/`;
}

function foldersOf(files: readonly ListedFile[]): string {
  const counts = new Map<string, number>();
  for (const f of files) counts.set(folderOf(f.filename), (counts.get(folderOf(f.filename)) ?? 0) + 1);
  const sorted = [...counts].sort((a, b) => b[1] - a[1]);
  const named = sorted.slice(0, LISTED_FOLDERS).map(([folder, n]) => `  - ${sanitizeUntrusted(folder)} (${n})`);
  const others = sorted.length - named.length;
  return named.join('\n') + (others > 0 ? `\n  - ${others} more folders` : '');
}

/**
 * The changed files as the prompt lists them: every one of a small pull request, the first
 * LISTED_FILES of a large one and the rest counted by folder (3,000 names would fill a fifth of
 * the first request). Every file is in the workspace, so the model reads the rest with its tools.
 */
export function changedFilesList(files: readonly ListedFile[], changedFiles: number, limit = LISTED_FILES): string {
  if (files.length === 0) return '(none)';
  const line = (f: ListedFile) => `- ${sanitizeUntrusted(f.filename)} (${f.status}, +${f.additions} -${f.deletions})`;
  const shown = files.slice(0, limit).map(line).join('\n');
  const rest = files.slice(limit);
  // GitHub lists 3,000 files at most; a larger pull request's count comes from the pull request itself.
  const unlisted = Math.max(0, changedFiles - files.length);
  if (rest.length === 0 && unlisted === 0) return shown;
  const more = rest.length + unlisted;
  const notes = [`[${more} more changed files not listed here (${files.length + unlisted} in all), by folder:`, foldersOf(rest)];
  if (unlisted > 0) notes.push(`  - ${unlisted} past the 3,000 files GitHub lists`);
  notes.push('Every one of them is in the workspace: Read, Grep and Glob see them.]');
  return `${shown}\n${notes.join('\n')}`;
}
