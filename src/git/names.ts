// The names the action writes into git: its commit identity and the slugs of its branches.

export interface Identity {
  name: string;
  email: string;
}

export const BOT_IDENTITY: Identity = {
  name: 'github-actions[bot]',
  email: '41898282+github-actions[bot]@users.noreply.github.com',
};

/** Newlines or angle brackets in a name would forge extra trailers or break the ident line. */
export function cleanIdentity(who: Identity): Identity {
  const clean = (s: string) =>
    s
      .replace(/[\p{Cc}<>]/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  return { name: clean(who.name), email: clean(who.email) };
}

/**
 * How a git command that writes commits is told who wrote and who committed them: the
 * environment and `-c user.*` (a checkout has no identity configured, and must not need one).
 */
export function identityFor(committer: Identity, author: Identity = committer): { env: Record<string, string>; args: string[] } {
  const c = cleanIdentity(committer);
  const a = cleanIdentity(author);
  return {
    env: { GIT_AUTHOR_NAME: a.name, GIT_AUTHOR_EMAIL: a.email, GIT_COMMITTER_NAME: c.name, GIT_COMMITTER_EMAIL: c.email },
    args: ['-c', `user.name=${c.name}`, '-c', `user.email=${c.email}`],
  };
}

/** 'Fix the failing test!' -> 'fix-the-failing-test'; cut at a word boundary when it can be. */
export function slugify(text: string, max = 40): string {
  const slug = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (slug.length <= max) return slug;
  const head = slug.slice(0, max + 1);
  const boundary = head.lastIndexOf('-');
  return (boundary >= max / 2 ? head.slice(0, boundary) : slug.slice(0, max)).replace(/-+$/, '');
}
