// The typed model of a decision table (rule-format §2.1–2.4), read by src/rules/decision-table.ts in the same pass
// that checks it; the engine compiles tables from this only (src/engine/table/compile.ts). Columns are in both
// stored forms (`inputVariable` and `definition.content`) and ids may be numbers: the model has one form. Cells
// are matched to columns by id, never by position.
import type { JsonObject } from '../check.ts';
import type { OutputScalarValue, ScalarCondition } from './cells.ts';

export type ColumnKind = 'input' | 'output' | 'calc';

export interface ColumnModel {
  /** The columnId as text (a number id becomes its decimal text). */
  readonly id: string;
  /** Position in `decisionTable.columns`. */
  readonly position: number;
  readonly kind: ColumnKind;
  readonly alias: string | undefined;
  /** input: the bound path (`client.age`); output: the output path (`prices.final`); calc: the variable name. */
  readonly target: string;
}

/** A stored cell: its condition (condition columns) or its value (result and calculation columns). */
export interface TableCell {
  readonly column: string | number;
  readonly scalarCondition?: ScalarCondition;
  readonly outputScalarValue?: OutputScalarValue;
}

/** A row's validity window as stored: text or the legacy `{date, time?, timezone?}` per bound (§2.3). */
export interface TimeValidation {
  readonly from?: unknown;
  readonly to?: unknown;
}

export interface RowModel {
  /** Position in `decisionTable.rows`; rowNumber in traces is position + 1. */
  readonly position: number;
  readonly active: boolean;
  readonly timeValidation: TimeValidation | undefined;
  /** The cell of each column, by index in DecisionTableModel.columns (undefined: the row has no cell for it). */
  readonly cells: readonly (TableCell | undefined)[];
  /** The row's stored `cells` array, to find a cell's position for messages (cellPosition). */
  readonly stored: readonly unknown[];
}

export interface DecisionTableModel {
  readonly type: 'decision-table';
  /** The whole document: its envelope (ids, schemas, userVariables) is read where it is used. */
  readonly document: JsonObject;
  readonly columns: readonly ColumnModel[];
  readonly rows: readonly RowModel[];
}

/** Position of a cell of `row` in its stored `cells` array. */
export function cellPosition(row: RowModel, cell: TableCell): number {
  return row.stored.lastIndexOf(cell);
}
