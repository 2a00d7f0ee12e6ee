/**
 * The files `git ls-files -z -t --cached --others` lists, matched where they lie: entries are
 * offsets into git's one string, and only the paths a caller takes become strings. On a
 * 50,000-file tree the list is a 700 KB string; splitting it would make 30,000 strings to show 100.
 *
 * Each entry is a status tag, a space and a path. git lists the untracked files (`?`) sorted and
 * the index sorted, so the two runs are merged as they are read: showing 100 paths compares about
 * 100 pairs, whatever the size of the tree.
 */
export class PathList {
  private constructor(
    private readonly text: string,
    /** Start and end offsets of the paths kept: the untracked files, then the index. */
    private readonly runs: readonly [Run, Run],
  ) {}

  /**
   * The entries whose paths end with one of `endings` (when given) and pass `test` (when given;
   * it sees the path as a string, so a test that the endings already decide is best left out).
   */
  static matching(text: string, endings: readonly string[] | undefined, test?: (path: string) => boolean): PathList {
    const untracked: Run = { starts: [], ends: [] };
    const indexed: Run = { starts: [], ends: [] };
    let lastUnmerged = '';
    for (let entry = 0; entry < text.length;) {
      let end = text.indexOf('\0', entry);
      if (end === -1) end = text.length;
      const start = entry + 2;
      const tag = text[entry];
      if (end > start && (!endings || endsWithOne(text, start, end, endings)) && (!test || test(text.slice(start, end)))) {
        // An unmerged file is listed once per stage, one after the other: it is kept once.
        const unmerged = tag === 'M' ? text.slice(start, end) : undefined;
        if (unmerged === undefined || unmerged !== lastUnmerged) {
          const run = tag === '?' ? untracked : indexed;
          run.starts.push(start);
          run.ends.push(end);
        }
        if (unmerged !== undefined) lastUnmerged = unmerged;
      }
      entry = end + 1;
    }
    return new PathList(text, [untracked, indexed]);
  }

  get length(): number {
    return this.runs[0].starts.length + this.runs[1].starts.length;
  }

  /**
   * Visits the paths in order until visit returns false. Code-unit
   * order, as comparing the strings gives; git sorts by bytes, which agrees for every path
   * without characters beyond U+FFFF.
   */
  forEachInOrder(visit: (path: string) => boolean): void {
    const [a, b] = this.runs;
    let i = 0;
    let j = 0;
    let pathA = this.at(a, i);
    let pathB = this.at(b, j);
    while (pathA !== undefined || pathB !== undefined) {
      const takeA = pathB === undefined || (pathA !== undefined && pathA < pathB);
      if (!visit(takeA ? pathA! : pathB!)) return;
      if (takeA) pathA = this.at(a, ++i);
      else pathB = this.at(b, ++j);
    }
  }

  private at(run: Run, k: number): string | undefined {
    return k < run.starts.length ? this.text.slice(run.starts[k], run.ends[k]) : undefined;
  }
}

interface Run {
  starts: number[];
  ends: number[];
}

function endsWithOne(text: string, start: number, end: number, endings: readonly string[]): boolean {
  for (const ending of endings) {
    if (end - start >= ending.length && text.startsWith(ending, end - ending.length)) return true;
  }
  return false;
}
