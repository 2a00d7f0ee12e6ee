export type Severity = 'blocking' | 'suggestion' | 'nit';
export type Side = 'LEFT' | 'RIGHT';

export const SEVERITIES: readonly Severity[] = ['blocking', 'suggestion', 'nit'];

/** One review comment, ready to post: `body` already holds the severity label and any suggestion block. */
export interface Finding {
  path: string;
  line: number;
  /** The first line of a multi-line comment, on the same side as `line`. */
  startLine?: number;
  side: Side;
  body: string;
  severity: Severity;
}

/** A review comment already on the pull request, as far as de-duplication needs it (outdated ones have no line). */
export interface EarlierComment {
  path: string;
  line: number | null | undefined;
  body: string;
}

const LABELS: Readonly<Record<Severity, string>> = { blocking: '**Blocking:**', suggestion: '**Suggestion:**', nit: '**Nit:**' };
const LABEL = /^\*\*(?:Blocking|Suggestion|Nit):\*\*/i;
/** Markdown that must start its own line, or the label in front of it would break it. */
const BLOCK_START = /^(?:#{1,6}\s|[-*+]\s|>|\d+[.)]\s|```|~~~|\|)/;

/**
 * A ```suggestion block that replaces the commented lines with `code`. The fence is longer than
 * any backtick run inside, so code holding its own fence cannot close the block early.
 */
export function suggestionBlock(code: string): string {
  const longest = Math.max(0, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  // GitHub takes every line inside the fence, so a trailing newline would add an empty line.
  const replacement = code.replace(/\r?\n$/, '');
  return code === '' ? `${fence}suggestion\n${fence}` : `${fence}suggestion\n${replacement}\n${fence}`;
}

/** The posted body: `**Blocking:** text`, then the suggestion block, if any, after a blank line. */
export function renderBody(text: string, severity: Severity, suggestion?: string): string {
  const trimmed = text.trim();
  const gap = BLOCK_START.test(trimmed) ? '\n\n' : ' ';
  const head = trimmed === '' ? LABELS[severity] : `${LABELS[severity]}${gap}${trimmed}`;
  return suggestion === undefined ? head : `${head}\n\n${suggestionBlock(suggestion)}`;
}

/**
 * The words of a body as compared for duplicates: without the severity label and hidden
 * `<!-- -->` markers, line endings and trailing spaces evened out, so a finding posted by an
 * earlier run and found again (perhaps rated differently) is recognised.
 */
export function commentText(body: string): string {
  const text = body
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trim()
    .replace(/^(?:<!--[\s\S]*?-->\s*)+/, '')
    .replace(/(?:\s*<!--[\s\S]*?-->)+$/, '')
    .trim();
  return text.replace(LABEL, '').trim();
}

function key(path: string, line: number, body: string): string {
  return JSON.stringify([path, line, commentText(body)]);
}

/** The comments of one review, collected as the model makes them and posted together at the end. */
export class Findings {
  private readonly items: Finding[] = [];
  private readonly seen = new Set<string>();

  /** `earlier`: the comments the action already left on the pull request, never posted twice. */
  constructor(earlier: Iterable<EarlierComment> = []) {
    for (const comment of earlier) {
      if (typeof comment.line === 'number') this.seen.add(key(comment.path, comment.line, comment.body));
    }
  }

  /** Keeps the finding unless one with the same path, line and text is already posted or kept. */
  add(finding: Finding): 'added' | 'duplicate' {
    const k = key(finding.path, finding.line, finding.body);
    if (this.seen.has(k)) return 'duplicate';
    this.seen.add(k);
    this.items.push({ ...finding });
    return 'added';
  }

  /**
   * The findings by path and line (ties in the order they came). Read-only calls of one turn run
   * together, so the order they arrive in can vary; the position order of the review cannot.
   */
  list(): Finding[] {
    return this.items
      .map((finding, index) => ({ finding, index }))
      .sort((a, b) => compare(a.finding, b.finding) || a.index - b.index)
      .map(({ finding }) => ({ ...finding }));
  }

  get size(): number {
    return this.items.length;
  }

  bySeverity(): Record<Severity, number> {
    const counts: Record<Severity, number> = { blocking: 0, suggestion: 0, nit: 0 };
    for (const finding of this.items) counts[finding.severity]++;
    return counts;
  }

  hasBlocking(): boolean {
    return this.items.some((finding) => finding.severity === 'blocking');
  }
}

function compare(a: Finding, b: Finding): number {
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  return a.line - b.line || (a.startLine ?? a.line) - (b.startLine ?? b.line);
}
