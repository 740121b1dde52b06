// The shape of a rule type's compiler. engine/index.ts (compileRule) maps each rule type to its compiler; sharing
// only this type lets table/tree/lookup and script/flow compilers live in their own folders without importing
// each other.
import type { CompileOptions, CompiledRule } from './types.ts';

export type RuleCompiler = (document: Record<string, unknown>, options: Required<CompileOptions>) => CompiledRule;
