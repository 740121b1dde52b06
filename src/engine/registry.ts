// The shape of a rule type's compiler. engine/index.ts maps each rule type to its compiler (COMPILERS); keeping
// the type here lets table/tree/lookup and script/flow compilers live in their own folders without importing each
// other or the entry.
import type { CompileOptions, CompiledRule } from './types.ts';

export type RuleCompiler = (document: Record<string, unknown>, options: Required<CompileOptions>) => CompiledRule;
