// A command line as the permission rules see it: simple commands of words, in source order.

export interface CommandWord {
  /** The source text, quotes and escapes kept: rules are compared against this. */
  readonly raw: string;
  /** The word after quote removal, when it has no expansion or glob in it. */
  readonly value: string | undefined;
  /** A `NAME=value` before the command name (or an assignment argument of `export` and kin). */
  readonly assignment: boolean;
}

export interface SimpleCommand {
  /** The command's own source text, for refusal messages. */
  readonly text: string;
  /** Assignments, name and arguments in source order; redirections are checked, not listed. */
  readonly words: readonly CommandWord[];
  /** A word that takes a variable's value (`$X`, `${X:-y}`): an allow rule cannot know what it runs with. */
  readonly expands?: string;
}

export type CommandLine =
  | {
      ok: true;
      commands: readonly SimpleCommand[];
      /**
       * Why no allow rule can approve the line although each command is known (a command in the
       * background or a subshell, a here-document, a write by redirection); deny rules still see
       * every command.
       */
      unapprovable?: string;
    }
  | { ok: false; reason: string };
