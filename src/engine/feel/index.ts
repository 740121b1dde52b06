// FEEL (DMN 1.5 Friendly Enough Expression Language): the public API of the engine's FEEL implementation.
// Parse text (`parseFeel`), compile it to closures (`compileFeel`, `compileUnaryTests`), and the value model.
export {
  FeelNumber,
  FeelDate,
  FeelTime,
  FeelDateTime,
  FeelDaysTimeDuration,
  FeelYearsMonthsDuration,
  FeelContext,
  FeelRange,
  FeelFunction,
  isNumber,
  isTemporal,
  isDuration,
  num,
  type FeelValue,
  type FeelArguments,
  type Zoned,
} from './values.ts';
export type { FeelScope } from './scope.ts';
export { feelEquals, feelCompare, inRange } from './compare.ts';
export { typeOf, conformsTo, parseType, conforms, instanceOf, coerce, resolveType, type FeelType } from './types.ts';
export { fromJson, toJson } from './json.ts';
export { feelString, feelText } from './text.ts';
export { parseDate, parseTime, parseDateTime, parseDuration } from './temporal.ts';
export { FeelSyntaxError, type FeelNode } from './ast.ts';
export { BUILTINS, BUILTIN_NAMES } from './library.ts';

import { FeelSyntaxError, type FeelNode } from './ast.ts';
import { Compiler, passes } from './compile.ts';
import { Env } from './env.ts';
import { BUILTINS, BUILTIN_NAMES } from './library.ts';
import { parseExpression, parseUnaryTests } from './parser.ts';
import type { FeelScope } from './scope.ts';
import type { FeelType } from './types.ts';
import type { FeelValue } from './values.ts';

export interface FeelOptions {
  /** Names in scope, so that names holding spaces or operator characters (`Applicant's age`) are read whole. */
  readonly names?: Iterable<string>;
  /**
   * The host's named types (DMN item definitions such as `tPerson`), for `instance of` and typed parameters of
   * function definitions; FEEL's own type names never reach it. A name it does not know matches no value.
   */
  readonly resolveType?: (name: string) => FeelType | undefined;
}

export type ParseResult = { ok: true; node: FeelNode | FeelNode[] } | { ok: false; error: FeelSyntaxError };

/** Parses FEEL text as an expression or as unary tests; the error names the offset of the problem. */
export function parseFeel(text: string, options: FeelOptions & { mode?: 'expression' | 'unaryTests' } = {}): ParseResult {
  const names = options.mode === 'unaryTests' ? ['?', ...(options.names ?? [])] : (options.names ?? []);
  try {
    const node = options.mode === 'unaryTests' ? parseUnaryTests(text, names, BUILTIN_NAMES) : parseExpression(text, names, BUILTIN_NAMES);
    return { ok: true, node };
  } catch (error) {
    if (error instanceof FeelSyntaxError) return { ok: false, error };
    throw error;
  }
}

/**
 * A compiled expression: evaluate it in a scope. Runtime errors are null, but a FEEL function calling itself
 * without end overflows the stack (RangeError): the evaluator that runs the model catches it once, where it
 * knows which decision it was evaluating (src/engine/dmn does).
 */
export type FeelExpression = (scope?: FeelScope) => FeelValue;
/** Compiled unary tests: does the input pass? (null when the tests cannot tell, e.g. types that do not compare.) */
export type FeelUnaryTests = (input: FeelValue, scope?: FeelScope) => boolean | null;

/** Compiles a FEEL expression to closures; throws FeelSyntaxError for text that does not parse. */
export function compileFeel(text: string, options: FeelOptions = {}): FeelExpression {
  const node = parseExpression(text, options.names ?? [], BUILTIN_NAMES);
  const code = new Compiler(BUILTINS, options.resolveType).compile(node);
  return (scope = {}) => code(Env.root(scope));
}

/**
 * Compiles unary tests (a decision table input entry: `< 10`, `[1..5]`, `"a", "b"`, `not(1)`, `-`, `? > 3`)
 * to a test of an input value; throws FeelSyntaxError for text that does not parse.
 */
export function compileUnaryTests(text: string, options: FeelOptions = {}): FeelUnaryTests {
  const tests = parseUnaryTests(text, ['?', ...(options.names ?? [])], BUILTIN_NAMES);
  const code = new Compiler(BUILTINS, options.resolveType).compileTests(tests);
  return (input, scope = {}) => code(input, Env.root(scope));
}

/** Whether `input` passes a test whose value is `result` (a range, a list, a value to equal, or a boolean). */
export function satisfiesTest(input: FeelValue, result: FeelValue): boolean | null {
  return passes(input, result, false);
}
