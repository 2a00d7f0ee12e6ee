/**
 * Runs one turn's calls: neighbouring read-only calls together, the others one at a time, so a
 * read never races a write; results come back in call order.
 */
export async function runInBatches<C, R>(calls: readonly C[], isReadOnly: (call: C) => boolean, run: (call: C) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let i = 0;
  while (i < calls.length) {
    let end = i + 1;
    if (isReadOnly(calls[i]!)) while (end < calls.length && isReadOnly(calls[end]!)) end++;
    results.push(...(await Promise.all(calls.slice(i, end).map(run))));
    i = end;
  }
  return results;
}
