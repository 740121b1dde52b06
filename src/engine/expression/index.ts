// The expression ("function") language: the public surface the rest of the engine uses.
// Pipeline: lexer.ts -> parser.ts (AST with positions) | stored-ast.ts (legacy `value` AST) -> compile.ts
// (closures) with the function library in functions/ and output casting in cast.ts.
import type { Node } from './ast.ts';
import type { CompiledExpression, ExpressionCompileOptions, Scope, StoredExpression } from './contract.ts';
import type { Problem } from '../errors.ts';
import { ValidationError } from '../errors.ts';
import { getAt } from '../path.ts';
import { SyntaxProblem, lineAndColumn } from './lexer.ts';
import { parseExpression } from './parser.ts';
import { readStoredValue } from './stored-ast.ts';
import { printExpression } from './print.ts';
import { compileAst, ExpressionError } from './compile.ts';

export type {
  Scope,
  StoredExpression,
  ConditionOutcome,
  CompiledExpression,
  ExpressionFootprint,
  ArithmeticAssociativity,
  ExpressionCompileOptions,
  PerSolveSharing,
  ExpressionComparison,
  SlotRef,
} from './contract.ts';
export { ExpressionError } from './compile.ts';
export { castExpressionOutput, castSimpleValueText } from './cast.ts';
export { PerSolveSlots } from './per-solve.ts';
export { compareFinite } from './constant-operand.ts';
export { functionNames } from './functions/index.ts';

function compileText(text: string, path: string, options: ExpressionCompileOptions | undefined): CompiledExpression {
  let ast: Node;
  try {
    ast = parseExpression(text, options?.associativity ?? 'left');
    return compileAst(ast, text, options?.perSolve);
  } catch (error) {
    if (error instanceof SyntaxProblem) {
      const { line, column } = lineAndColumn(text, error.offset);
      throw new ValidationError([{ path, message: `${error.reason} at line ${line}, column ${column}` }]);
    }
    throw error;
  }
}

/**
 * Compiles expression text (flow expressions, tests). `where` names the place in the rule document for errors.
 * Throws ValidationError (`<where>: <reason> at line L, column C`) on a syntax error or an unknown function.
 */
export function compileExpressionText(
  text: string,
  where: string,
  options?: ExpressionCompileOptions,
): CompiledExpression {
  return compileText(text, where, options);
}

/**
 * Compiles a stored cell / node expression: `stringValue` when it is a string, otherwise the stored `value`
 * (AST, JSON literal or plain value, §4.7); also the stored AST when `stringValue` does not parse but `value`
 * holds the product's AST of it. `where` is the JSON path of the cell, used in error messages.
 * Throws ValidationError (`<where>.stringValue: <reason> at line L, column C`) on a syntax error.
 */
export function compileStoredExpression(
  stored: StoredExpression,
  where: string,
  options?: ExpressionCompileOptions,
): CompiledExpression {
  const cell: StoredExpression = stored !== null && typeof stored === 'object' ? stored : {};
  if (typeof cell.stringValue === 'string') {
    try {
      return compileText(cell.stringValue, `${where}.stringValue`, options);
    } catch (error) {
      // the product's own parse of the same text is authoritative when ours disagrees (old exports)
      if (!isStoredAst(cell.value)) throw error;
    }
  }
  const problems: Problem[] = [];
  const ast = readStoredValue(cell.value, `${where}.value`, problems);
  if (problems.length > 0) throw new ValidationError(problems);
  try {
    return compileAst(ast, printExpression(ast), options?.perSolve);
  } catch (error) {
    if (error instanceof SyntaxProblem) throw new ValidationError([{ path: `${where}.value`, message: error.reason }]);
    throw error;
  }
}

/**
 * A cell expression that did not compile (docs/decisions/tables-invalid-cells.md): it evaluates as invalid, so
 * the cell is null / its condition false with `message` in traces, and the rest of the rule still solves.
 */
export function invalidExpression(source: string, message: string): CompiledExpression {
  const outcome = { matched: false, error: message };
  const fail = (): never => {
    throw new ExpressionError(message, source);
  };
  return {
    source,
    async: false,
    ruleRefs: [],
    evaluateOutput: () => null,
    evaluateCondition: () => outcome,
    evaluateRaw: fail,
  };
}

function isStoredAst(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, 'functionName');
}

/** A Scope over one plain object (flows, tests): `{a.b}` reads `root.a.b`. */
export function objectScope(root: unknown): Scope {
  return { resolve: (segments) => getAt(root, segments) };
}
