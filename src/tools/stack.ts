import type { HostPolicy } from '../network/hosts.js';
import type { CommandWrap } from '../core/confine.js';
import type { Todo } from '../core/todo.js';
import type { ToolCall, ToolSet } from '../core/tools.js';
import { BUILTIN_TOOL_NAMES, specsFor } from './catalog.js';
import { lazyToolSet, type LazyToolSet } from './lazy.js';
import { mergeToolSets } from './compose.js';
import { confinedWrap } from './permissions/confine-wrap.js';
import { offered } from './permissions/decide.js';
import { hiddenPaths } from './permissions/hidden.js';
import type { Rules } from './permissions/rules.js';
import { withPermissions } from './permissions/with-permissions.js';
import { definitionToolSet } from './tool-set.js';
import { trackChanges } from './track-changes.js';
import type { Workspace } from './workspace.js';

export interface StackOptions {
  workspace: Workspace;
  /** The environment commands see: an allowlist, never the action's secrets. */
  env: Record<string, string>;
  outputLimit: number;
  rules: Rules;
  /** Turns each Bash command's argv into the one that runs it (the sandbox); may still be in preparation. */
  wrap?: Promise<CommandWrap> | undefined;
  /** Waited for before the first tool runs: the work tree's baseline, so no change is missed. */
  ready: () => Promise<unknown>;
  /** More tools beside the built-in ones: MCP servers', the Skill tool. */
  extra?: readonly ToolSet[] | undefined;
  /** The hosts WebFetch may reach. */
  fetchHosts?: HostPolicy | undefined;
  /** A mode's choice of tools, inside the rules. */
  shape?: ((set: ToolSet) => ToolSet) | undefined;
  /** Adds the Task tool over what the mode kept, inside the rules (which name subagents as `Task(type)`). */
  subagents?: ((set: ToolSet) => ToolSet) | undefined;
  /** The hooks around each call: inside the rules (a refused call runs no hook) and checked again by them. */
  hooks?: ((set: ToolSet) => ToolSet) | undefined;
  onTodos?: ((todos: Todo[]) => void) | undefined;
  onRefusal?: ((call: ToolCall, reason: string) => void) | undefined;
  onWrite: (filePath: string) => void;
}

/**
 * The run's tools, outside in: change tracking, then the permission rules (deny first, then allow:
 * a refused call reaches nothing inside), then the hooks and the rules once more, then the mode,
 * then the built-in tools, whose code loads only once the model is answering.
 */
export function toolStack(o: StackOptions): { tools: ToolSet; lazy: LazyToolSet; names: string[] } {
  const names = BUILTIN_TOOL_NAMES.filter((name) => offered(name, o.rules));
  const lazy = lazyToolSet(specsFor(names), async () => {
    const [{ selectTools }, sandbox] = await Promise.all([import('./builtin/index.js'), o.wrap, o.ready()]);
    // After the checkout: the deny rules are expanded over the files that are there now.
    const wrap = await confinedWrap(sandbox, o.rules, o.workspace.root);
    const hidden = hiddenPaths(o.rules, o.workspace.root, [(relative) => o.workspace.isCredentialFile(relative)]);
    const context = {
      workspace: o.workspace,
      env: o.env,
      outputLimit: o.outputLimit,
      ...(o.onTodos ? { onTodos: o.onTodos } : {}),
      ...(hidden ? { hidden } : {}),
      ...(o.fetchHosts ? { fetchHosts: o.fetchHosts } : {}),
    };
    return definitionToolSet(selectTools(names, wrap ? { wrap } : {}), context);
  });
  const all = o.extra && o.extra.length > 0 ? mergeToolSets(lazy, ...o.extra) : lazy;
  const moded = o.shape ? o.shape(all) : all;
  const shaped = o.subagents ? o.subagents(moded) : moded;
  const bashConfined = (o.wrap ?? Promise.resolve(undefined)).then((w) => w?.confine !== undefined);
  bashConfined.catch(() => undefined);
  const options = { bashConfined, ...(o.onRefusal ? { onRefusal: o.onRefusal } : {}) };
  const guard = (set: ToolSet) => withPermissions(set, o.rules, o.workspace.root, options);
  // A PreToolUse hook may rewrite a call's input: the rules see the rewritten call too.
  const guarded = o.hooks ? guard(o.hooks(guard(shaped))) : guard(shaped);
  return { tools: trackChanges(guarded, o.onWrite), lazy, names };
}
