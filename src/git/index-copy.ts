import { copyFile, stat, utimes } from 'node:fs/promises';

/**
 * A copy of the index with the original's modification time: git trusts an entry's stat data
 * only for files older than the index, so a fresh mtime would make a same-size edit made just
 * after the checkout look unchanged.
 */
export async function copyIndex(from: string, to: string): Promise<void> {
  try {
    await copyFile(from, to);
    const { atime, mtime } = await stat(from);
    await utimes(to, atime, mtime);
  } catch {
    // No index yet (a repository without commits): git starts an empty one.
  }
}
