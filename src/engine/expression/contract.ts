// The interface of the expression language that tables, trees and flows code against (re-exported by index.ts).
import type { EvaluationContext, RuleRef } from '../types.ts';
import type { PathSegment } from '../path.ts';
import type { MaybePromise } from '../maybe-promise.ts';

/**
 * Resolves `{name}` / `{a.b[0].c}` references. Returns undefined when the reference cannot be resolved
 * (an unresolved reference makes an expression invalid -> null). Tables resolve in the order
 * lambda -> calc variable -> output written earlier in the row -> rule variable -> input path.
 * (Lambda parameters of ARRAY_MAP/FILTER/REDUCE are bound by the expression itself and never reach the scope.)
 */
export interface Scope {
  resolve(segments: readonly PathSegment[], path: string): unknown;
  /** The values of subexpressions shared within one table solve (expression/per-solve.ts); absent elsewhere. */
  readonly perSolve?: unknown[];
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

/** What an evaluation can depend on, as far as the compiler can tell (see CompiledExpression.footprint). */
export interface ExpressionFootprint {
  /** Every `{path}` the expression may ask the scope for (lambda parameters excluded), parsed. */
  readonly references: readonly (readonly PathSegment[])[];
  /**
   * True when two evaluations within one solve, with the scope answering these references alike, give the same
   * outcome and have no effects: no RANDOM, SOLVE, LOOKUP_*, HTTP_* or STRINGFORMAT (which reads names at run
   * time). NOW and the other clock functions are repeatable: ctx.now is fixed for a solve.
   */
  readonly repeatable: boolean;
  /**
   * Set when the whole expression is one reference (`{a.b}`): evaluateOutput then gives castExpressionOutput of
   * what the scope answers for these segments (null when it answers undefined), so a caller that can read the
   * reference faster (a flow's slots) may do that instead.
   */
  readonly reference?: readonly PathSegment[];
}

export interface CompiledExpression {
  /** The expression text (stringValue, or a rendering of the stored AST). */
  readonly source: string;
  /** Present when compiled by this module (test doubles may leave it out): lets callers share evaluations. */
  readonly footprint?: ExpressionFootprint;
  /**
   * True when evaluation may wait: HTTP_* calls, and SOLVE (its target is only known at run time and may be a
   * script or flow). Only then may the evaluate methods return a promise (engine/maybe-promise.ts); an
   * expression that does not wait always answers directly.
   */
  readonly async: boolean;
  /** SOLVE / LOOKUP_* targets given as literals, for dependency resolution at compile time. */
  readonly ruleRefs: readonly RuleRef[];
  /** Result/calc cell value, §2.10: output casting applied (unless RAW_VALUE), null when evaluation is invalid. */
  evaluateOutput(scope: Scope, ctx: EvaluationContext): MaybePromise<unknown>;
  /** Function condition, §2.12: matched only when the value is boolean true; errors and non-booleans are false. */
  evaluateCondition(scope: Scope, ctx: EvaluationContext): MaybePromise<ConditionOutcome>;
  /**
   * evaluateCondition(...).matched of an expression that does not wait, for a caller that remembers the outcome
   * for the solve itself (a table's memo, table/evaluate.ts): no outcome object, and the root is not stored in
   * its per-solve slot. Absent from test doubles.
   */
  matches?(scope: Scope, ctx: EvaluationContext): boolean;
  /**
   * Set when the whole expression compares a subexpression shared per solve with a constant number
   * (`GTE({a} * {b}, 500)`): a table compares all such cells of a column against one evaluation of it.
   */
  readonly comparison?: ExpressionComparison;
  /** The value of `comparison`'s shared operand in this solve; undefined when it fails. */
  comparedOperand?(scope: Scope, ctx: EvaluationContext): unknown;
  /** The raw value (no output casting). Throws (or rejects with) ExpressionError when the evaluation is invalid. */
  evaluateRaw(scope: Scope, ctx: EvaluationContext): MaybePromise<unknown>;
}

export interface ExpressionComparison {
  readonly name: 'GT' | 'GTE' | 'LT' | 'LTE';
  /** The operand's slot among the table's per-solve slots: cells with the same slot compare the same value. */
  readonly operand: { readonly ref: SlotRef };
  readonly constant: number;
}

export type ArithmeticAssociativity = 'left' | 'right';

export interface ExpressionCompileOptions {
  /**
   * How chains of one precedence level group: 'left' (standard, default) evaluates `10 - 5 - 2` as 3; 'right'
   * reproduces DecisionRules' right-to-left grouping (7). Stored ASTs are already grouped and ignore it.
   */
  associativity?: ArithmeticAssociativity;
  /** Tables: share subexpressions fixed per solve between cells (expression/per-solve.ts). */
  perSolve?: PerSolveSharing;
}

/** Slots of subexpressions shared within one table solve, by canonical text (PerSolveSlots in per-solve.ts). */
export interface PerSolveSlotRegistry {
  readonly size: number;
  /** The slot of `key`; `repeated`: the node runs more than once per evaluation of its cell (a lambda body). */
  slotOf(key: string, repeated: boolean): SlotRef;
}

/**
 * A shared subexpression's slot in the solve's array (Scope.perSolve), read when evaluating: the table settles it
 * once all its cells are compiled; -1 = not shared, evaluated at each use.
 */
export interface SlotRef {
  readonly slot: number;
}

/** What the expression compiler needs to share subexpressions of a cell (ExpressionCompileOptions.perSolve). */
export interface PerSolveSharing {
  readonly slots: PerSolveSlotRegistry;
  /** True when the scope answers `{segments}` alike everywhere in one solve where this cell is evaluated. */
  fixed(segments: readonly PathSegment[]): boolean;
}
