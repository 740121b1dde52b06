// The envelope fields every compiled rule carries (spec/rule-format.md §1.1, §1.4), read tolerantly: the
// document has already been validated by rules/validate.ts.
import type { CompiledRule } from './types.ts';

export type RuleIdentity = Pick<CompiledRule, 'ruleId' | 'ruleAlias' | 'version' | 'name'>;

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Identity of a decision table, tree or lookup table: `ruleId`, else `baseId`. */
export function ruleIdentity(doc: Record<string, unknown>): RuleIdentity {
  return {
    ruleId: nonEmpty(doc.ruleId) ?? nonEmpty(doc.baseId),
    ruleAlias: nonEmpty(doc.ruleAlias),
    version: typeof doc.version === 'number' ? doc.version : undefined,
    name: typeof doc.name === 'string' ? doc.name : '',
  };
}

/**
 * Identity of a rule flow, decision flow or scripting rule: old composition exports carry their id as
 * `compositionId` (§1.1), and only a whole-number version counts.
 */
export function flowRuleIdentity(doc: Record<string, unknown>): RuleIdentity {
  const identity = ruleIdentity(doc);
  return {
    ...identity,
    ruleId: identity.ruleId ?? nonEmpty(doc.compositionId),
    version: Number.isInteger(identity.version) ? identity.version : undefined,
  };
}
