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

/** What one process adds to the sandbox it runs in (a hook's CLAUDE_PROJECT_DIR, trusted files bound over the workspace's). */
export interface WrapExtras {
  /** More variables, set after the allowlisted ones. */
  env?: Record<string, string>;
  /** Read-only binds, mounted last in order: both paths absolute, the source existing. */
  binds?: readonly { source: string; dest: string }[];
}
