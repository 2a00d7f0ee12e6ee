// The names the action writes into git: its commit identity and the slugs of its branches.

export interface Identity {
  name: string;
  email: string;
}

export const BOT_IDENTITY: Identity = {
  name: 'github-actions[bot]',
  email: '41898282+github-actions[bot]@users.noreply.github.com',
};

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
