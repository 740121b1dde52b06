// The rules a rule needs, found before any solve: each compiled rule lists the rules it references by a literal
// id or alias (`dependencies`); this walks them transitively through a resolver, so the service and the CLI can
// load everything up front and refuse rules that call each other in a cycle.
import { RuleError } from './errors.ts';
import type { CompiledRule, RuleRef, RuleResolver } from './types.ts';

/** A reference the resolver could not find, with the rule that makes it (the first one the walk met). */
export interface MissingReference extends RuleRef {
  from: CompiledRule;
}

export interface DependencyWalk {
  /** Every rule reachable from the root (the root excluded), each once, callees before their callers. */
  rules: CompiledRule[];
  /** References the resolver could not find (shown to the author; a solve that needs them fails then), each once. */
  missing: MissingReference[];
}

function identity(rule: CompiledRule): string {
  return `${rule.ruleId ?? rule.ruleAlias ?? rule.name}@${rule.version ?? 'latest'}`;
}

function label(rule: CompiledRule): string {
  return rule.ruleAlias ?? rule.ruleId ?? rule.name;
}

/**
 * Walks `root`'s dependencies. Throws RuleError `rule cycle: a -> b -> a` when a rule reaches itself;
 * UnresolvedRuleError from the resolver passes through (the caller loads that rule and walks again).
 */
export function collectDependencies(root: CompiledRule, resolver: RuleResolver): DependencyWalk {
  const rules: CompiledRule[] = [];
  const missing: MissingReference[] = [];
  const missingKeys = new Set<string>();
  const finished = new Set<string>();
  const stack: CompiledRule[] = [];
  const onStack = new Map<string, number>();

  const visit = (rule: CompiledRule): void => {
    const key = identity(rule);
    onStack.set(key, stack.length);
    stack.push(rule);
    for (const ref of rule.dependencies) {
      const target = resolver.resolve(ref.idOrAlias, ref.version);
      if (!target) {
        const missingKey = `${ref.idOrAlias}@${ref.version ?? 'latest'}`;
        if (!missingKeys.has(missingKey)) {
          missingKeys.add(missingKey);
          missing.push({ ...ref, from: rule });
        }
        continue;
      }
      const targetKey = identity(target);
      const at = onStack.get(targetKey);
      if (at !== undefined) {
        const cycle = [...stack.slice(at), target].map(label).join(' -> ');
        throw new RuleError(`rule cycle: ${cycle}`);
      }
      if (finished.has(targetKey)) continue;
      visit(target);
    }
    stack.pop();
    onStack.delete(key);
    finished.add(key);
    if (rule !== root) rules.push(rule);
  };

  visit(root);
  return { rules, missing };
}
