// What a search asks and answers, shared by the git-backed search and the fallback scan.

export type GrepMode = 'content' | 'files_with_matches' | 'count';

export interface GrepMatch {
  line: number;
  text: string;
}

export interface FileHits {
  /** Path relative to the searched directory, '/'-separated. */
  name: string;
  count: number;
  /** Matching lines; filled in content mode only. */
  matches: GrepMatch[];
}

export interface GrepQuery {
  pattern: string;
  ignoreCase: boolean;
  mode: GrepMode;
  /** Directory searched. */
  base: string;
  /** A single file (name inside base) to search instead of the whole directory. */
  file?: string;
  glob?: string;
  /** Entries (matching lines in content mode, files otherwise) past which the search may stop. */
  maxEntries: number;
  env: Record<string, string>;
  signal: AbortSignal;
  /** Names (relative to base) never read nor shown: the files the deny rules hide. */
  hidden?: (name: string) => boolean;
}

export interface GrepResult {
  /** The directory the names in files are relative to. */
  base: string;
  /** Sorted by name. */
  files: FileHits[];
  /** The search stopped before the end: there are more matches than collected. */
  truncated: boolean;
  /**
   * Files in the search's scope left out because they are hidden, counted by name alone, whatever
   * they hold: a count of hidden files that matched would let a pattern read them bit by bit.
   */
  hidden?: number;
}
