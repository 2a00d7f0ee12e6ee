/** git's diff output and NUL-separated lists, as the repository handle reads them. */

/** The work tree against HEAD, untracked files included once staged in a copy of the index. */
export const DIFF = ['diff', '--cached', '--no-color', '--no-ext-diff', '--no-textconv', '--no-renames', 'HEAD', '--'];
export const DIFF_STAT = ['diff', '--cached', '--stat', '--no-color', '--no-ext-diff', '--no-renames', 'HEAD', '--'];

/** The entries of a `-z` list. */
export function nulList(output: string): string[] {
  return output.split('\0').filter((entry) => entry.length > 0);
}

/** A diff cut at a line to maxChars, saying how much was left out. */
export function cutAtLine(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const lastNewline = text.lastIndexOf('\n', maxChars);
  const kept = text.slice(0, lastNewline > 0 ? lastNewline + 1 : maxChars);
  return `${kept}${kept.endsWith('\n') ? '' : '\n'}[… diff cut: ${text.length - kept.length} of ${text.length} characters not shown]\n`;
}
