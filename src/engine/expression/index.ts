// The expression ("function") language: the public surface the rest of the engine uses.
// Placeholder implementation: the expression-language issue replaces the body of compileStoredExpression;
// the interface below is the contract between tables/trees/flows and the expression compiler.
import type { EvaluationContext, RuleRef } from '../types.ts';
import type { PathSegment } from '../path.ts';
import { ValidationError } from '../errors.ts';

/**
 * Resolves `{name}` / `{a.b[0].c}` references. Returns undefined when the reference cannot be resolved
 * (an unresolved reference makes an expression invalid -> null). Tables resolve in the order
 * lambda -> calc variable -> output written earlier in the row -> rule variable -> input path.
 */
export interface Scope {
  resolve(segments: readonly PathSegment[], path: string): unknown;
}

/** What a cell or flow node stores: `{stringValue, value}` (stringValue preferred when it is a string). */
export interface StoredExpression {
  stringValue?: unknown;
  value?: unknown;
}

export interface ConditionOutcome {
  matched: boolean;
  /** Why the condition is false when evaluation failed or did not give a boolean (for the debug trace). */
  error?: string;
}

export interface CompiledExpression {
  /** The expression text (stringValue, or a rendering of the stored AST). */
  readonly source: string;
  /** True when evaluation may await (HTTP_* calls, SOLVE of a rule whose target is only known at run time). */
  readonly async: boolean;
  /** SOLVE / LOOKUP_* targets given as literals, for dependency resolution at compile time. */
  readonly ruleRefs: readonly RuleRef[];
  /** Result/calc cell value, §2.10: output casting applied (unless RAW_VALUE), null when evaluation is invalid. */
  evaluateOutput(scope: Scope, ctx: EvaluationContext): unknown;
  evaluateOutputAsync(scope: Scope, ctx: EvaluationContext): Promise<unknown>;
  /** Function condition, §2.12: matched only when the value is boolean true; errors and non-booleans are false. */
  evaluateCondition(scope: Scope, ctx: EvaluationContext): ConditionOutcome;
  evaluateConditionAsync(scope: Scope, ctx: EvaluationContext): Promise<ConditionOutcome>;
  /** The raw value (no output casting). Throws ExpressionError when the evaluation is invalid. */
  evaluateRaw(scope: Scope, ctx: EvaluationContext): unknown;
  evaluateRawAsync(scope: Scope, ctx: EvaluationContext): Promise<unknown>;
}

/**
 * Compiles a stored cell / node expression. `where` is the JSON path of the cell, used in error messages.
 * Throws ValidationError (`<where>.stringValue: <reason> at line L, column C`) on a syntax error.
 */
export function compileStoredExpression(_stored: StoredExpression, where: string): CompiledExpression {
  throw new ValidationError([{ path: where, message: 'function cells are not supported yet' }]);
}
