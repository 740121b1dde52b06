// Cells outside their column's valid values (issue 28; docs/decisions/valid-values.md). One checker for the three
// places that show them: the analysis findings (kind `valid-value`), the warnings a save answers, and the flags
// on the Studio's cells. It reads the document, not the compiled table: valid values are editor-only and the
// solver never sees them.
//
// A cell is outside when it names a value the column does not list, compared exactly as the solver's `=` compares
// (so `5` and "5" are the same value): an `=` or `!=` condition's value, each member of an `IN` / `NOT IN` list, a
// result cell's simple value. Cells that name no single value are exempt: other operators (ranges, comparisons,
// text), function conditions and expressions, date conditions, empty cells, and text holding a `{variable}`
// reference (its value is known only when solving).
import { isObject } from '../../rules/check.ts';
import { normaliseOperator } from '../../rules/operators.ts';
import { validValuesOf, type ValidValue } from '../../rules/valid-values.ts';
import { parseTemplate } from '../cells/references.ts';
import { cellText, equalsPrepared, prepareOperand, setMembers } from '../cells/operands.ts';

export interface OutsideCell {
  /** 0-based index into `decisionTable.rows` (inactive rows count, as in the analysis findings). */
  row: number;
  /** The cell's column id. */
  column: string;
  /** The column's name, or its id when it has none. */
  columnName: string;
  /** The value as the cell names it (one member of an IN list). */
  value: string;
  /** JSON path of the cell's value in the document, as validation problems name it. */
  path: string;
  /** "not a valid value of column …" with the value and the list. */
  message: string;
}

interface CheckedColumn {
  id: string;
  /** Position in decisionTable.columns: findings of a row follow column order, whatever the order of its cells. */
  position: number;
  kind: 'input' | 'output';
  name: string;
  values: readonly ValidValue[];
}

/** Valid values named in a message at most. */
const LISTED = 10;

function checkedColumns(columns: unknown): Map<string, CheckedColumn> {
  const out = new Map<string, CheckedColumn>();
  if (!Array.isArray(columns)) return out;
  columns.forEach((column, position) => {
    if (!isObject(column) || (column.type !== 'input' && column.type !== 'output')) return;
    if (column.columnId === undefined || column.columnId === null) return;
    const values = validValuesOf(column);
    if (values.length === 0) return;
    const payload = column.type === 'input' ? column.condition : column.columnOutput;
    const named = isObject(payload) && typeof payload.name === 'string' && payload.name.trim() !== '' ? payload.name : undefined;
    const id = String(column.columnId);
    out.set(id, { id, position, kind: column.type, name: named ?? id, values });
  });
  return out;
}

/** The values a cell names, or none when it is exempt. */
function namedValues(cell: Record<string, unknown>, kind: 'input' | 'output'): unknown[] {
  if (kind === 'output') {
    const result = cell.outputScalarValue;
    if (!isObject(result)) return [];
    if (result.type === 'function' || (result.type === undefined && isObject(result.value))) return [];
    return [result.value];
  }
  const condition = cell.scalarCondition;
  if (!isObject(condition) || condition.type === 'function' || condition.type === 'date') return [];
  const operator = normaliseOperator(condition.operator);
  if (operator === '=' || operator === '<>') return [condition.value];
  if (operator === 'IN' || operator === 'NOT IN') return setMembers(condition.value);
  return [];
}

function isListed(value: unknown, values: readonly ValidValue[]): boolean {
  const operand = prepareOperand(value);
  return values.some((valid) => equalsPrepared(valid, operand));
}

function describeList(values: readonly ValidValue[]): string {
  const shown = values.slice(0, LISTED).map((v) => JSON.stringify(v)).join(', ');
  return values.length > LISTED ? `${shown} and ${values.length - LISTED} more` : shown;
}

/** Every cell of a decision-table document outside its column's valid values, in row then column order. */
export function cellsOutsideValidValues(document: unknown): OutsideCell[] {
  const table = isObject(document) ? document.decisionTable : undefined;
  if (!isObject(table) || !Array.isArray(table.rows)) return [];
  const columns = checkedColumns(table.columns);
  if (columns.size === 0) return [];
  const found: OutsideCell[] = [];
  table.rows.forEach((row, r) => {
    if (!isObject(row) || !Array.isArray(row.cells)) return;
    const inRow: Array<OutsideCell & { position: number }> = [];
    row.cells.forEach((cell, c) => {
      if (!isObject(cell) || cell.column === undefined || cell.column === null) return;
      const column = columns.get(String(cell.column));
      if (!column) return;
      const field = column.kind === 'input' ? 'scalarCondition' : 'outputScalarValue';
      for (const named of namedValues(cell, column.kind)) {
        if (named === null || named === undefined || isObject(named) || Array.isArray(named)) continue;
        const text = typeof named === 'string' ? cellText(named).trim() : String(named);
        if (text === '' || parseTemplate(text) !== undefined) continue;
        if (isListed(typeof named === 'string' ? text : named, column.values)) continue;
        inRow.push({
          position: column.position,
          row: r,
          column: column.id,
          columnName: column.name,
          value: text,
          path: `decisionTable.rows[${r}].cells[${c}].${field}.value`,
          message: `${JSON.stringify(text)} is not a valid value of column "${column.name}" (valid values: ${describeList(column.values)})`,
        });
      }
    });
    inRow.sort((a, b) => a.position - b.position);
    for (const { position: _position, ...cell } of inRow) found.push(cell);
  });
  return found;
}
