// The engine's half of each rule type's descriptor: its compiler. The static facts (which types exist, which are
// solvable, their strategies) are src/rules/rule-types.ts; this table is typed against them, so a solvable type
// without a compiler, or a compiler for a type that is not solvable, does not compile.
import type { SolvableRuleType } from '../rules/rule-types.ts';
import { isSolvableType } from '../rules/rule-types.ts';
import type { RuleCompiler } from './registry.ts';
import { compileDecisionTable } from './table/compile.ts';
import { compileDecisionTree } from './tree/compile.ts';
import { compileLookupTable } from './lookup/compile.ts';
import { compileScriptRule } from './script/compile.ts';
import { compileComposition } from './flow/composition.ts';
import { compileWorkflow } from './flow/workflow.ts';

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
} as const satisfies Record<SolvableRuleType, RuleCompiler>;

/** The compiler of `type`, or undefined when rules of that type are never solved (or no type has that name). */
export function compilerOf(type: unknown): RuleCompiler | undefined {
  return isSolvableType(type) ? RULE_COMPILERS[type] : undefined;
}
