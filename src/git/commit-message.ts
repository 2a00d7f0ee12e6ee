import { cleanIdentity, type Identity } from './names.js';

/** The commit message with a Co-authored-by trailer for each co-author other than the author (once per email). */
export function withTrailers(message: string, author: Identity, coAuthors: Identity[]): string {
  const seen = new Set([author.email.toLowerCase()]);
  const lines: string[] = [];
  for (const who of coAuthors.map(cleanIdentity)) {
    if (who.email === '' || seen.has(who.email.toLowerCase())) continue;
    seen.add(who.email.toLowerCase());
    lines.push(`Co-authored-by: ${who.name} <${who.email}>`);
  }
  const body = message.trim() || 'Changes by agent-action';
  return lines.length === 0 ? body : `${body}\n\n${lines.join('\n')}`;
}
