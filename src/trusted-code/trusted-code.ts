/**
 * How trusted commands get the trusted ref's files on a pull request run while the workspace
 * keeps the pull request's. In the sandbox each trusted unit is bound read-only over the
 * workspace's copy for the hook's or server's process alone, so the command runs unchanged and a
 * script finds its neighbours and `$CLAUDE_PROJECT_DIR/.claude/...` where it expects them.
 * Without a sandbox (or where the workspace's copy is missing, a symlink, or of another kind,
 * so nothing can be bound over it) the command's words that name the unit's files are rewritten
 * to the copies. Anything the model's own tools see stays the pull request's.
 */
import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { WrapExtras } from '../sandbox/types.js';
import { argvPaths, commandPaths, rewriteCommand } from './named-paths.js';
import { unitHolding } from './units.js';

/** A command to run, and what its sandbox adds for it. */
export interface Launch {
  command: string;
  extras: WrapExtras;
}

/** What a stdio server is started with (as tools/mcp/stdio.ts takes it). */
export interface StdioLaunch {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd?: string | undefined;
}

export class TrustedCode {
  constructor(
    /** The workspace's real path. */
    readonly workspace: string,
    /** Where the trusted units were written, laid out as the workspace. */
    readonly root: string,
    /** Workspace-relative files and folders that come from the trusted ref. */
    readonly units: readonly string[],
    /** Whether processes run in bubblewrap, which can bind the copies over the workspace's. */
    readonly sandboxed: boolean,
    /** The commit the files are of, for the log. */
    readonly commit: string,
  ) {}

  /** The trusted copy of a workspace-relative path, when a unit holds it. */
  trustedPath(rel: string): string | undefined {
    return unitHolding(this.units, rel) === undefined ? undefined : path.join(this.root, rel);
  }

  /** The units that can be bound over the workspace's copy now: a real file or folder of the same kind, no symlink on the way. */
  private overlays(): Set<string> {
    const out = new Set<string>();
    if (!this.sandboxed) return out;
    for (const unit of this.units) {
      const dest = path.join(this.workspace, unit);
      try {
        const [copy, here] = [lstatSync(path.join(this.root, unit)), lstatSync(dest)];
        // Checked at each launch: bwrap would create a missing mount point inside the real workspace.
        const sameKind = copy.isDirectory() === here.isDirectory() && !copy.isSymbolicLink() && !here.isSymbolicLink();
        if (sameKind && realpathSync(dest) === dest) out.add(unit);
      } catch {
        // Missing on either side: the command's words are rewritten instead.
      }
    }
    return out;
  }

  private extras(overlays: Set<string>): WrapExtras {
    const binds = [...overlays].map((u) => ({ source: path.join(this.root, u), dest: path.join(this.workspace, u) }));
    // The copies themselves too, for rewritten words and skills' folders (RUNNER_TEMP is hidden otherwise).
    return { binds: [{ source: this.root, dest: this.root }, ...binds] };
  }

  /** The rewrite for a named path: to its copy, unless bound over the workspace's copy. */
  private replacement(overlays: Set<string>): (rel: string) => string | undefined {
    return (rel) => {
      const unit = unitHolding(this.units, rel);
      return unit === undefined || overlays.has(unit) ? undefined : path.join(this.root, rel);
    };
  }

  /** A hook's shell command as it runs. */
  hook(command: string): Launch {
    const overlays = this.overlays();
    const rewritten = rewriteCommand(command, commandPaths(command, this.workspace), this.replacement(overlays));
    return { command: rewritten, extras: this.sandboxed ? this.extras(overlays) : {} };
  }

  /** A stdio server's argv as it runs, and its sandbox's extras. */
  stdio(p: StdioLaunch): { launch: StdioLaunch; extras: WrapExtras } {
    const overlays = this.overlays();
    const replace = this.replacement(overlays);
    const argv = [p.command, ...p.args];
    const named = argvPaths(argv, this.workspace);
    const out = argv.map((arg, i) => {
      const rel = named[i];
      return rel === undefined ? arg : (replace(rel) ?? arg);
    });
    return { launch: { ...p, command: out[0]!, args: out.slice(1) }, extras: this.sandboxed ? this.extras(overlays) : {} };
  }

  /** What every sandboxed command gets: the copies, read-only at their own path (a skill's scripts). */
  bashExtras(): WrapExtras {
    return this.sandboxed ? { binds: [{ source: this.root, dest: this.root }] } : {};
  }
}
