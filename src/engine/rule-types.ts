// The engine's half of each rule type's descriptor: its compiler. The static facts (which types exist, which are
// solvable, their strategies) are src/rules/rule-types.ts; this table is typed against them, so a solvable type
// without a compiler, or a compiler for a type that is not solvable, does not compile.
import type { RuleModel, SolvableRuleType } from '../rules/rule-types.ts';
import { isSolvableType } from '../rules/rule-types.ts';
import type { RuleCompiler } from './registry.ts';
import type { CompileOptions, CompiledRule } from './types.ts';
import { compileDecisionTable } from './table/compile.ts';
import { compileDecisionTree } from './tree/compile.ts';
import { compileLookupTable } from './lookup/compile.ts';
import { compileScriptRule } from './script/compile.ts';
import { compileComposition } from './flow/composition.ts';
import { compileWorkflow } from './flow/workflow.ts';
import { compileDecisionGraph } from './graph/compile.ts';
import { compileDmnRule } from './dmn-rule/compile.ts';

/**
 * Each compiler lists the rules its rule needs on the compiled rule (`dependencies`, walked by dependencies.ts),
 * found as the type's descriptor says (`references`: flow nodes, SOLVE / LOOKUP_* calls, or none).
 */
export const RULE_COMPILERS = {
  'decision-table': compileDecisionTable,
  'decision-tree': compileDecisionTree,
  'lookup-table': compileLookupTable,
  'complex-rule': compileScriptRule,
  composition: compileComposition,
  workflow: compileWorkflow,
  'decision-graph': compileDecisionGraph,
  dmn: compileDmnRule,
} as const satisfies { [T in SolvableRuleType]: RuleCompiler<T> };

/** Whether the engine compiles rules of `type` (it is solvable: integration flows are not). */
export function hasCompiler(type: unknown): type is SolvableRuleType {
  return isSolvableType(type) && Object.hasOwn(RULE_COMPILERS, type);
}

/** Compiles a model with its type's compiler; undefined when rules of that type are never solved. */
export function compileModel(model: RuleModel, options: Required<CompileOptions>): CompiledRule | undefined {
  if (!hasCompiler(model.type)) return undefined;
  // The table above pairs each type with the compiler of its own model; TypeScript cannot follow the pairing
  // through the union, so the lookup is widened here, once.
  const compile = RULE_COMPILERS[model.type] as (model: RuleModel, options: Required<CompileOptions>) => CompiledRule;
  return compile(model, options);
}
