import type { ToolCall, ToolOutcome, ToolSet } from '../../core/tools.js';
import { derivedSpecs } from '../compose.js';
import { decide, offered, type DecideOptions } from './decide.js';
import { realPathSync } from './paths.js';
import type { Rules } from './rules.js';

export interface PermissionOptions extends DecideOptions {
  /** Told about every refused call (e.g. so a report can count them); its errors are ignored. */
  readonly onRefusal?: (call: ToolCall, reason: string) => void;
  /** Resolves to whether Bash runs in a sandbox that enforces the path deny rules; without it, true. */
  readonly bashConfined?: Promise<boolean>;
}

/** The prefix of every refusal, which the model and the reports can recognise. */
export const PERMISSION_DENIED = 'Permission denied:';

/**
 * A ToolSet that offers only the tools the rules allow and refuses, without running anything,
 * each call they do not allow. Symlinks are resolved unless options.realPath says otherwise.
 */
export function withPermissions(set: ToolSet, rules: Rules, workspaceRoot: string, options: PermissionOptions = {}): ToolSet {
  const decideOptions: DecideOptions = {
    realPath: options.realPath ?? realPathSync,
    ...(options.home === undefined ? {} : { home: options.home }),
  };
  const refused = (call: ToolCall, reason: string): ToolOutcome => {
    try {
      options.onRefusal?.(call, reason);
    } catch {
      // A counting callback must not turn a refusal into a crash: execute never throws.
    }
    return { isError: true, content: `${PERMISSION_DENIED} ${reason}` };
  };
  return {
    specs: derivedSpecs(
      () => [set.specs()],
      (specs) => specs.filter((spec) => offered(spec.name, rules)),
    ),
    isReadOnly: (name) => set.isReadOnly(name),
    async execute(call, signal) {
      let decision;
      try {
        // Whether the sandbox holds is known once it is prepared; only Bash waits for that.
        const confined = call.name === 'Bash' && rules.bashPaths ? await (options.bashConfined ?? false) : true;
        decision = decide(call, rules, workspaceRoot, { ...decideOptions, bashUnconfined: !confined });
      } catch (error) {
        return refused(call, `the permission check failed (${error instanceof Error ? error.message : String(error)})`);
      }
      return decision.allowed ? set.execute(call, signal) : refused(call, decision.reason);
    },
  };
}
