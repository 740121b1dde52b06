// The compiled form of a decision table's rows: the cells of each row in column order, as the solve loop
// (evaluate.ts) runs them and the column index (column-index.ts) reads them. Shared by both, owned by neither.
import type { PathSegment } from '../path.ts';
import type { CompiledCondition } from '../cells/condition.ts';
import type { LeftTest } from '../cells/general.ts';
import type { CompiledValue } from '../cells/result.ts';
import type { SlotValues } from '../cells/output-layout.ts';
import type { TimeWindow } from './time-window.ts';
import type { CompiledExpression } from '../expression/index.ts';

export const STEP_CONDITION = 0;
export const STEP_CALC = 1;
export const STEP_OUTPUT = 2;

/** Where a condition column's left operand comes from (§2.6). */
export type LeftBinding =
  | { readonly kind: 'input'; readonly read: (input: unknown) => unknown }
  | { readonly kind: 'variable'; readonly value: unknown }
  | { readonly kind: 'calc'; readonly calcIndex: number; readonly segments: readonly PathSegment[] };

export interface ConditionColumn {
  readonly id: string;
  readonly alias: string | undefined;
  /** The bound path as written (`client.age`): the name include/exclude options and traces use. */
  readonly path: string;
  readonly condIndex: number;
  readonly left: LeftBinding;
}

/**
 * A condition cell in its column. One object per distinct cell of a column (identical cells share it), so it also
 * serves as the fast loop's entry and the index's view of the cell.
 */
export interface ConditionStep {
  readonly kind: typeof STEP_CONDITION;
  readonly column: ConditionColumn;
  readonly condition: CompiledCondition;
  readonly condIndex: number;
  readonly isElse: boolean;
  /** The scope-free test; undefined for date cells, which need ctx.now, and for scope-reading cells. */
  readonly test: LeftTest | undefined;
  /**
   * Slot in the per-solve memo of a function cell whose outcome is the same in every row of one solve (repeatable,
   * synchronous, reading nothing a calc column or earlier output could answer); -1 for other cells.
   */
  readonly memo: number;
}

export interface OutputStep {
  readonly kind: typeof STEP_OUTPUT;
  readonly slot: number;
  readonly value: CompiledValue;
  /** `value.expression`: what direct rows call for a function value (they never wait). */
  readonly expression: CompiledExpression | undefined;
}

export type TableStep = ConditionStep | { readonly kind: typeof STEP_CALC; readonly calcIndex: number; readonly value: CompiledValue } | OutputStep;

export interface TableRow {
  /** 1-based position in the document's rows (inactive rows keep their numbers). */
  readonly number: number;
  readonly window: TimeWindow | undefined;
  /** The row's cells in column order (condition cells sit at their column's position, see IndexRow). */
  readonly steps: readonly TableStep[];
  /** Constant conditions and constant outputs only: matched without a scope. */
  readonly fast: boolean;
  readonly async: boolean;
  /** Fast rows: the output value of each slot. */
  readonly constValues: SlotValues;
  readonly hasObjectConstants: boolean;
  /**
   * Every condition before every output, each one ELSE, constant on an input column, or a function cell memoised
   * per solve (ConditionStep.memo); no calc cell and nothing that waits. Its conditions cannot read its outputs,
   * so an untraced solve tests them all first and evaluates the outputs of a matching row only, without the
   * general step loop (table/evaluate.ts). Fast rows are direct too.
   */
  readonly direct: boolean;
  /** Fast and direct rows: the conditions to check, `anything` left out. */
  readonly fastConditions: readonly ConditionStep[];
  /**
   * Direct rows whose first checked condition is a memoised function cell: its memo slot, else -1. Once that cell
   * is known to fail in a solve (a comparison group set it, or an earlier row asked), the row is passed over.
   */
  readonly firstMemo: number;
  /** Direct rows: the output cells, in column order. */
  readonly outputs: readonly OutputStep[];
}

/** Memoised cells comparing one shared value with constants (table/compile.ts comparisonGroups). */
export interface ComparisonGroup {
  /** One of the cells' expressions: evaluates the shared value (CompiledExpression.comparedOperand). */
  readonly expression: CompiledExpression;
  readonly cells: readonly ComparisonCell[];
}

export interface ComparisonCell {
  /** The cell's memo slot (ConditionStep.memo). */
  readonly memo: number;
  readonly name: 'GT' | 'GTE' | 'LT' | 'LTE';
  readonly constant: number;
}
