/** Says that files the deny rules hide were left out of a search, how many, never which. */
export function hiddenNote(count: number): string {
  if (count === 0) return '';
  return `\n[${count} ${count === 1 ? 'file' : 'files'} hidden by the deny rules (Read) or as credentials files, not searched or shown.]`;
}
