// What compiling a boxed expression needs to know: where it is (its model, the names in scope, the model's types
// for FEEL), and the compiler's problems and type lookup, which decision tables share with the other boxed
// expressions.
import type { DmnModel } from '../../rules/dmn/model.ts';
import type { CompileProblems, FeelNames } from './feel.ts';
import type { DmnType } from './types.ts';

/** Where an expression is compiled: the model it belongs to, the names in scope and the model's types (for FEEL). */
export interface CompileScope extends FeelNames {
  readonly model: DmnModel;
}

export interface TypedCompiler {
  readonly problems: CompileProblems;
  type(typeRef: string | undefined, scope: CompileScope, path: string): DmnType;
}
