// How Bash commands are wrapped (the sandbox), and the paths a sandbox can put out of their reach.

/** Paths inside the workspace, absolute and existing when the tools start. */
export interface ConfinedPaths {
  /** Read-denied: nothing in the sandbox can open them (a directory hides all it holds). */
  readonly unreadable: readonly { readonly path: string; readonly kind: 'dir' | 'file' }[];
  /** Edit-denied: read-only in the sandbox (a directory as a whole, so nothing new appears inside). */
  readonly readOnly: readonly string[];
}

/**
 * Turns a command's argv into the one that runs it. A sandbox that can enforce deny rules in its
 * mount namespace says so with confine; a plain function (or none) means commands see every path.
 */
export interface CommandWrap {
  (argv: string[], extras?: WrapExtras): string[];
  readonly confine?: (paths: ConfinedPaths) => (argv: string[], extras?: WrapExtras) => string[];
}

/**
 * The same wrap with variables set in every process it runs (the settings' `env`), beneath what
 * each process adds itself; a sandbox's confinement is kept.
 */
export function withVariables(wrap: CommandWrap, variables: Readonly<Record<string, string>>): CommandWrap {
  const add =
    (inner: (argv: string[], extras?: WrapExtras) => string[]) =>
    (argv: string[], extras?: WrapExtras): string[] =>
      inner(argv, { ...extras, env: { ...variables, ...extras?.env } });
  const { confine } = wrap;
  return Object.assign(add(wrap), confine ? { confine: (paths: ConfinedPaths) => add(confine(paths)) } : {});
}

/** What one process adds to the sandbox it runs in (a hook's CLAUDE_PROJECT_DIR, trusted files bound over the workspace's). */
export interface WrapExtras {
  /** More variables, set after the allowlisted ones. */
  env?: Record<string, string>;
  /** Read-only binds, mounted last in order: both paths absolute, the source existing. */
  binds?: readonly { source: string; dest: string }[];
}
