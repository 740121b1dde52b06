// The engine's entry: compile a rule document once, solve it many times.
import { contextAt } from './context.ts';
import { RuleError, ValidationError } from './errors.ts';
import type { CompileOptions, CompiledRule, SolveOptions, SolveResult } from './types.ts';
import type { RuleCompiler } from './registry.ts';
import { validateRuleDocument } from '../rules/validate.ts';
import { compileDecisionTable } from './table/compile.ts';
import { compileDecisionTree } from './tree/compile.ts';
import { compileLookupTable } from './lookup/compile.ts';
import { compileScriptRule } from './script/compile.ts';
import { compileComposition } from './flow/composition.ts';
import { compileWorkflow } from './flow/workflow.ts';
import { compileDecisionGraph } from './graph/compile.ts';

export * from './types.ts';
export * from './errors.ts';
export { createContext, childContext, normaliseStrategy, normaliseLookupMethod, supportedStrategy } from './context.ts';

const COMPILERS: Record<string, RuleCompiler> = {
  'decision-table': compileDecisionTable,
  'decision-tree': compileDecisionTree,
  'lookup-table': compileLookupTable,
  'complex-rule': compileScriptRule,
  composition: compileComposition,
  workflow: compileWorkflow,
  'decision-graph': compileDecisionGraph,
};

/** Validates and compiles a rule document. Throws ValidationError listing every problem. */
export function compileRule(document: unknown, options: CompileOptions = {}): CompiledRule {
  const problems = validateRuleDocument(document);
  if (problems.length > 0) throw new ValidationError(problems);
  const doc = document as Record<string, unknown>;
  const compiler = COMPILERS[doc.type as string];
  if (!compiler) throw new ValidationError([{ path: 'type', message: `rule type "${String(doc.type)}" cannot be solved` }]);
  return compiler(doc, { timeZone: options.timeZone ?? 'UTC', arithmeticAssociativity: options.arithmeticAssociativity ?? 'left' });
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
