// Maps each rule type to its compiler. engine/compile.ts wires the built-in ones; keeping the map here
// lets table/tree/lookup and script/flow compilers live in their own folders without importing each other.
import type { CompileOptions, CompiledRule } from './types.ts';

export type RuleCompiler = (document: Record<string, unknown>, options: Required<CompileOptions>) => CompiledRule;
