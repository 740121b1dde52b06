// Which aliases an import leaves shared by several rules of a space. Solving by such an alias fails (400, "alias
// is ambiguous"), so `verdict import` warns about them and `--strict` refuses the import.
import type { RuleHead } from '../store/ports.ts';

export interface SharedAlias {
  alias: string;
  /** The rules that would use the alias, sorted. */
  ruleIds: string[];
}

interface Version {
  ruleId: string;
  version: number;
  alias: string;
}

/**
 * The aliases of `incoming` that, once it is written over `existing`, belong to more than one rule. A version
 * written again replaces the stored one, alias included, as the store does. Aliases the import does not touch
 * are not reported: their sharing is older than this import.
 */
export function sharedAliases(existing: readonly RuleHead[], incoming: readonly Version[]): SharedAlias[] {
  const after = new Map<string, Version>();
  for (const v of [...existing, ...incoming]) after.set(`${v.ruleId}\u0000${v.version}`, v);
  const rulesByAlias = new Map<string, Set<string>>();
  for (const v of after.values()) {
    if (v.alias === '') continue;
    let rules = rulesByAlias.get(v.alias);
    if (!rules) rulesByAlias.set(v.alias, (rules = new Set()));
    rules.add(v.ruleId);
  }
  const touched = [...new Set(incoming.map((v) => v.alias))].sort();
  return touched
    .map((alias) => ({ alias, ruleIds: [...(rulesByAlias.get(alias) ?? [])].sort() }))
    .filter((shared) => shared.ruleIds.length > 1);
}
