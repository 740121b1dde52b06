// DMN models evaluated (docs/dmn.md): compileDmn turns a typed model (src/rules/dmn) into an evaluation function.
export { compileDmn } from './compile.ts';
export type { CompiledDmn, DmnCompileOptions, DmnEvaluateOptions, DmnEvaluation } from './compile.ts';
export { evaluateJson } from './json.ts';
