import type { RuleList, RuleLists } from '../tools/permissions/rules.js';
import type { TrustedSettings } from './merge.js';

/**
 * The run's allow and deny lists: the inputs' own rules first, then every rule of the trusted
 * settings, each keeping the name of its source so that a refusal can say where it came from.
 */
export function ruleLists(inputs: { allow: RuleList; deny: RuleList }, trusted: TrustedSettings | null): RuleLists {
  const sourced = (rules: TrustedSettings['allow']): RuleList[] => rules.map((r) => ({ source: r.source, rules: [r.rule] }));
  return {
    allow: [inputs.allow, ...sourced(trusted?.allow ?? [])],
    deny: [inputs.deny, ...sourced(trusted?.deny ?? [])],
  };
}
