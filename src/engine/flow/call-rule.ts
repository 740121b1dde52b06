// Solving one rule from inside another (DR.solve, rule-flow and decision-flow nodes): resolution through the
// context's resolver, a child context with the caller's strategy, bulk input, and the nesting limit.
import { enterCall, normaliseStrategy } from '../context.ts';
import { RuleError } from '../errors.ts';
import type { CompiledRule, EvaluationContext, Json, RuleRef, Strategy } from '../types.ts';

/** The compiled rule for `ref`, or undefined when it does not exist. Throws when there is no resolver. */
export function resolveRule(ctx: EvaluationContext, ref: RuleRef, where: string): CompiledRule | undefined {
  if (!ctx.resolver) {
    throw new RuleError(`cannot solve rule "${ref.idOrAlias}": no rule resolver is configured`, where);
  }
  return ctx.resolver.resolve(ref.idOrAlias, ref.version);
}

/** Solves `rule` for `data` (an array: each element, giving an array of results) with the given strategy. */
export async function callRule(
  rule: CompiledRule,
  data: unknown,
  ctx: EvaluationContext,
  strategy: Strategy | string | undefined,
): Promise<Json[] | Json[][]> {
  const overrides = { strategy: normaliseStrategy(strategy) };
  if (Array.isArray(data)) {
    // Each element is a call of its own against the solve's budget: bulk data is fan-out too.
    const results: Json[][] = [];
    for (const item of data as unknown[]) results.push((await rule.evaluate(item, enterCall(ctx, rule.name, overrides))).result);
    return results;
  }
  return (await rule.evaluate(data, enterCall(ctx, rule.name, overrides))).result;
}
