// The engine's entry: compile a rule document once, solve it many times.
import { contextAt } from './context.ts';
import { RuleError, ValidationError } from './errors.ts';
import type { CompileOptions, CompiledRule, SolveOptions, SolveResult } from './types.ts';
import { readRule } from '../rules/validate.ts';
import { compileModel } from './rule-types.ts';

export * from './types.ts';
export * from './errors.ts';
export { createContext, childContext, normaliseStrategy, normaliseLookupMethod, supportedStrategy } from './context.ts';

/** Reads a rule document into its model (src/rules) and compiles that. Throws ValidationError listing every problem. */
export function compileRule(document: unknown, options: CompileOptions = {}): CompiledRule {
  const { problems, model } = readRule(document);
  if (model === undefined) throw new ValidationError(problems);
  const compiled = compileModel(model, { timeZone: options.timeZone ?? 'UTC', arithmeticAssociativity: options.arithmeticAssociativity ?? 'left' });
  if (!compiled) throw new ValidationError([{ path: 'type', message: `rule type "${model.type}" cannot be solved` }]);
  return compiled;
}

/** Solves one input object. Works for every rule type. */
export async function solve(compiled: CompiledRule, input: unknown, options: SolveOptions = {}): Promise<SolveResult> {
  return compiled.evaluate(input, contextAt(options, options.now ?? Date.now));
}

/**
 * solve() without the promise when nothing waited: the answer, or a promise of it when something the rule called
 * did wait. The service's input loop runs every rule so (src/service/input-loop.ts); errors are thrown, not rejected,
 * when nothing waited.
 */
export function solveNow(compiled: CompiledRule, input: unknown, options: SolveOptions = {}): SolveResult | Promise<SolveResult> {
  return compiled.evaluate(input, contextAt(options, options.now ?? Date.now));
}

/** Synchronous solve for rules that never wait (tables, trees, lookups without HTTP or async SOLVE targets). */
export function solveSync(compiled: CompiledRule, input: unknown, options: SolveOptions = {}): SolveResult {
  if (compiled.async) {
    throw new RuleError(`rule "${compiled.name}" (${compiled.type}) needs asynchronous evaluation; use solve()`);
  }
  return compiled.evaluate(input, contextAt(options, options.now ?? Date.now)) as SolveResult;
}
