// Solving one rule from inside another (DR.solve, rule-flow and decision-flow nodes): resolution through the
// context's resolver, a child context with the caller's strategy, bulk input, and the nesting limit.
import { MAX_DEPTH, childContext, normaliseStrategy } from '../context.ts';
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
  const child = nestedContext(ctx, normaliseStrategy(strategy));
  if (Array.isArray(data)) {
    const results: Json[][] = [];
    for (const item of data as unknown[]) results.push((await rule.evaluate(item, child)).result);
    return results;
  }
  return (await rule.evaluate(data, child)).result;
}

/** The context of a nested solve; refuses to go deeper than MAX_DEPTH, so a rule calling itself cannot hang. */
export function nestedContext(ctx: EvaluationContext, strategy: Strategy): EvaluationContext {
  if (ctx.depth + 1 > MAX_DEPTH) {
    throw new RuleError(`rules call each other more than ${MAX_DEPTH} levels deep (does a rule call itself?)`);
  }
  return childContext(ctx, { strategy });
}
