// Branch names the action checks out, creates and pushes, and the branches that already exist.
import type { RunGit } from './safe.js';

/** Letters, digits and `._-/+#,=`: valid refs may hold `$(id)` or quotes, which a branch we push never needs. */
const BRANCH_CHARS = /^[\p{L}\p{N}._\-/+#,=]+$/u;

export async function isValidBranchName(git: RunGit, name: string): Promise<boolean> {
  if (name.startsWith('-') || !BRANCH_CHARS.test(name)) return false;
  try {
    // --branch also expands `@{-1}` and friends; only a name that comes back unchanged is literal.
    return (await git(['check-ref-format', '--branch', name])).trim() === name;
  } catch {
    return false;
  }
}

export async function requireBranchName(git: RunGit, name: string): Promise<void> {
  if (!(await isValidBranchName(git, name))) throw new Error(`Refusing invalid branch name: ${JSON.stringify(name)}`);
}

async function remoteBranches(git: RunGit): Promise<Set<string>> {
  const out = await git(['ls-remote', '--heads', 'origin']);
  const names = new Set<string>();
  for (const line of out.split('\n')) {
    const ref = line.split('\t')[1];
    if (ref?.startsWith('refs/heads/')) names.add(ref.slice('refs/heads/'.length));
  }
  return names;
}

async function localBranches(git: RunGit): Promise<Set<string>> {
  const out = await git(['for-each-ref', '--format=%(refname:lstrip=2)', 'refs/heads/']);
  return new Set(out.split('\n').filter((line) => line.length > 0));
}

export async function remoteBranchExists(git: RunGit, branch: string): Promise<boolean> {
  await requireBranchName(git, branch);
  // A pattern argument would match by suffix (`x` finds `a/x`), so compare exact names.
  return (await remoteBranches(git)).has(branch);
}

/** `base`, or `base-2`, `base-3`, ...: the first name neither origin nor this clone has. */
export async function uniqueBranchName(git: RunGit, base: string): Promise<string> {
  await requireBranchName(git, base);
  const [remote, local] = await Promise.all([remoteBranches(git), localBranches(git)]);
  const taken = (name: string) => remote.has(name) || local.has(name);
  let candidate = base;
  for (let n = 2; taken(candidate); n += 1) candidate = `${base}-${n}`;
  return candidate;
}
