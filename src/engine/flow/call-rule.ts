// Solving one rule from inside another (DR.solve, rule-flow and decision-flow nodes): resolution through the
// context's resolver, a child context with the caller's strategy, bulk input, and the nesting limit.
import { countCall, enterCall, normaliseStrategy } from '../context.ts';
import { RuleError } from '../errors.ts';
import type { CompiledRule, EvaluationContext, Json, RuleRef, SolveResult, Strategy } from '../types.ts';
import type { MaybePromise } from '../maybe-promise.ts';

/** The compiled rule for `ref`, or undefined when it does not exist. Throws when there is no resolver. */
export function resolveRule(ctx: EvaluationContext, ref: RuleRef, where: string): CompiledRule | undefined {
  if (!ctx.resolver) {
    throw new RuleError(`cannot solve rule "${ref.idOrAlias}": no rule resolver is configured`, where);
  }
  return ctx.resolver.resolve(ref.idOrAlias, ref.version);
}

/**
 * Solves `rule` for `data` (an array: each element, giving an array of results) with the given strategy: the
 * results, or a promise of them when the rule waits (engine/maybe-promise.ts).
 */
export function callRule(
  rule: CompiledRule,
  data: unknown,
  ctx: EvaluationContext,
  strategy: Strategy | string | undefined,
): MaybePromise<Json[] | Json[][]> {
  const overrides = { strategy: normaliseStrategy(strategy) };
  if (Array.isArray(data)) return callEach(rule, data as unknown[], ctx, overrides, [], 0);
  const solved = rule.evaluate(data, enterCall(ctx, rule.name, overrides));
  return solved instanceof Promise ? solved.then(resultOf) : solved.result;
}

/**
 * callRule for one input given as the values of the rule's input columns (`rule.columnInput` present, the context
 * not tracing: flow/column-call.ts).
 */
export function callColumns(rule: CompiledRule, values: readonly unknown[], ctx: EvaluationContext, strategy: Strategy): MaybePromise<Json[]> {
  const solved = rule.columnInput!.evaluateColumns(values, enterCall(ctx, rule.name, { strategy }));
  return solved instanceof Promise ? solved.then(resultOf) : solved.result;
}

/**
 * callColumns with FIRST_MATCH, as its one answer: the first matching row's output, or undefined when none matched.
 * The answer is shared between solves and frozen (ColumnInput.firstMatch): the node only reads it, and copies what
 * it passes on.
 */
export function callFirstColumns(rule: CompiledRule, values: readonly unknown[], ctx: EvaluationContext): Json | undefined {
  countCall(ctx, rule.name);
  return rule.columnInput!.firstMatch(values, ctx);
}

type Overrides = { strategy: Strategy };

/** Bulk data: each element is a call of its own against the solve's budget (fan-out too), in order. */
function callEach(rule: CompiledRule, items: readonly unknown[], ctx: EvaluationContext, overrides: Overrides, results: Json[][], from: number): MaybePromise<Json[][]> {
  for (let i = from; i < items.length; i++) {
    const solved = rule.evaluate(items[i], enterCall(ctx, rule.name, overrides));
    if (solved instanceof Promise) return resumeEach(solved, rule, items, ctx, overrides, results, i);
    results.push(solved.result);
  }
  return results;
}

function resumeEach(pending: Promise<SolveResult>, rule: CompiledRule, items: readonly unknown[], ctx: EvaluationContext, overrides: Overrides, results: Json[][], i: number): Promise<Json[][]> {
  return pending.then((solved) => {
    results.push(solved.result);
    return callEach(rule, items, ctx, overrides, results, i + 1);
  });
}

function resultOf(solved: SolveResult): Json[] {
  return solved.result;
}
