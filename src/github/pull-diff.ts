/**
 * A pull request's diff put together from its listed files' patches. GitHub refuses the diff
 * media type past 300 files (406), and the list of files carries the same patches, so one listing
 * serves both the prompt's diff and the review's line ranges.
 */

export interface ListedFile {
  filename: string;
  status: string;
  additions: number;
  deletions: number;
  previous_filename?: string;
  /** Missing for binary files and for patches too large for GitHub to show. */
  patch?: string;
}

function header(f: ListedFile): string {
  const from = f.previous_filename ?? f.filename;
  const minus = f.status === 'added' ? '/dev/null' : `a/${from}`;
  const plus = f.status === 'removed' ? '/dev/null' : `b/${f.filename}`;
  const rename = f.previous_filename !== undefined ? `rename from ${from}\nrename to ${f.filename}\n` : '';
  const mode = f.status === 'added' ? 'new file mode 100644\n' : f.status === 'removed' ? 'deleted file mode 100644\n' : '';
  return `diff --git a/${from} b/${f.filename}\n${mode}${rename}--- ${minus}\n+++ ${plus}\n`;
}

/** A file without a patch (binary, or too large for GitHub to show) is in the file list only. */
function section(f: ListedFile): string {
  return f.patch === undefined ? '' : `${header(f)}${f.patch}\n`;
}

/**
 * The diff up to `limit` characters, whole files first, and how many characters were left out.
 * Only the sections that fit are joined: an 11 MB pull request costs no 11 MB string.
 */
export function diffFromPatches(files: readonly ListedFile[], limit: number): { diff: string; cut: number } {
  const parts: string[] = [];
  let used = 0;
  let cut = 0;
  for (const f of files) {
    if (used >= limit) {
      cut += section(f).length;
      continue;
    }
    const s = section(f);
    const kept = s.length <= limit - used ? s : s.slice(0, limit - used);
    parts.push(kept);
    used += kept.length;
    cut += s.length - kept.length;
  }
  return { diff: parts.join(''), cut };
}
