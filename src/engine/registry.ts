// The shape of a rule type's compiler: it compiles the type's typed model (src/rules, readRule), never the raw
// document. engine/rule-types.ts maps each solvable type to its compiler; keeping the type here lets
// table/tree/lookup and script/flow compilers live in their own folders without importing each other or the entry.
import type { RuleModelOf, SolvableRuleType } from '../rules/rule-types.ts';
import type { CompileOptions, CompiledRule } from './types.ts';

export type RuleCompiler<T extends SolvableRuleType = SolvableRuleType> = (model: RuleModelOf<T>, options: Required<CompileOptions>) => CompiledRule;
