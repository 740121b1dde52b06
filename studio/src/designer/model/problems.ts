// Places validation problems (paths into the rule document, as src/rules writes them:
// `decisionTable.rows[3].cells[1].scalarCondition.value`, `decisionTable.columns[2].columnOutput.outputVariable`)
// on the grid cell, row or column they name. Cell paths index the row's `cells` array, which need not follow
// column order, so the cell's `column` id decides the grid column.
import { cellsOutsideValidValues } from '../../../../src/engine/analysis/valid-values.ts';
import { COLUMN_KIND_LABEL, columnId, columnKind, columnTitle, tableOf } from './table.ts';
import type { Column, Rule } from './table.ts';

export interface Problem {
  path: string;
  message: string;
}

export interface ProblemIndex {
  /** Key `row:col` (grid positions). */
  cells: Map<string, string[]>;
  rows: Map<number, string[]>;
  columns: Map<number, string[]>;
  /** Problems of the table as a whole, the model, or anything the grid cannot point at. */
  other: Problem[];
  count: number;
}

export function cellKey(row: number, col: number): string {
  return `${row}:${col}`;
}

function push<K>(map: Map<K, string[]>, key: K, message: string): void {
  const list = map.get(key);
  if (list) list.push(message);
  else map.set(key, [message]);
}

const ROW = /^decisionTable\.rows\[(\d+)\](.*)$/;
const CELL = /^\.cells\[(\d+)\](.*)$/;
const COLUMN = /^decisionTable\.columns\[(\d+)\](.*)$/;

/** Where in the grid each problem belongs. A path may carry a prefix before `decisionTable` (e.g. `rule.`). */
export function locateProblems(rule: Rule, problems: readonly Problem[]): ProblemIndex {
  const index: ProblemIndex = { cells: new Map(), rows: new Map(), columns: new Map(), other: [], count: problems.length };
  const { columns, rows } = tableOf(rule);
  const columnById = new Map<string, number>();
  columns.forEach((c: unknown, i: number) => columnById.set(columnId(c), i));
  for (const problem of problems) {
    const path = typeof problem.path === 'string' ? problem.path : '';
    const at = path.indexOf('decisionTable.');
    const local = at >= 0 ? path.slice(at) : path;
    const detail = (rest: string) => (rest && rest !== '.' ? `${rest.replace(/^\./, '')}: ${problem.message}` : problem.message);
    const row = ROW.exec(local);
    if (row) {
      const r = Number(row[1]);
      const cell = CELL.exec(row[2]!);
      if (cell && r < rows.length) {
        const stored = rows[r]?.cells?.[Number(cell[1])];
        const c = stored === undefined ? undefined : columnById.get(String(stored?.column));
        if (c !== undefined) {
          push(index.cells, cellKey(r, c), detail(cell[2]!));
          continue;
        }
      }
      push(index.rows, r, detail(row[2]!));
      continue;
    }
    const column = COLUMN.exec(local);
    if (column) {
      push(index.columns, Number(column[1]), detail(column[2]!));
      continue;
    }
    index.other.push(problem);
  }
  return index;
}

/**
 * Cells outside their column's valid values, keyed `row:col`: the checker the server's save warnings and the
 * analysis use, run on the draft so the flags follow each edit.
 */
export function locateOutsideValues(rule: Rule): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const columnById = new Map<string, number>();
  tableOf(rule).columns.forEach((c: unknown, i: number) => columnById.set(columnId(c), i));
  for (const cell of cellsOutsideValidValues(rule)) {
    const c = columnById.get(cell.column);
    if (c !== undefined) push(out, cellKey(cell.row, c), cell.message);
  }
  return out;
}

/** "column Fee (result)": a column as a problem names it, by its caption and kind. */
export function columnWords(column: Column): string {
  return `column ${columnTitle(column)} (${COLUMN_KIND_LABEL[columnKind(column)].toLowerCase()})`;
}

/**
 * A located problem's message without the document path inside the cell or row it was placed on
 * ("outputScalarValue.stringValue: missing ')'" gives field "outputScalarValue.stringValue" and message "missing ')'"),
 * for lists that already say which row and column.
 */
export function splitDetail(detail: string): { field?: string; message: string } {
  const match = /^([A-Za-z_$][\w$]*(?:\[\d+\]|\.[A-Za-z_$][\w$]*)*): (.*)$/s.exec(detail);
  return match ? { field: match[1]!, message: match[2]! } : { message: detail };
}
