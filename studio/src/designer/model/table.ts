// The decision table as the designer edits it: the rule document itself (spec/rule-format.md §2), updated
// immutably. Every operation takes a rule document and returns a new one that shares every untouched row and
// column with the old, so undo snapshots cost little and a 10,000-row table edits in O(rows) at worst.
// Grid coordinates are positions in `decisionTable.rows` and `decisionTable.columns`; cells are matched to
// columns by `cell.column == column.columnId`, never by position (§2.3).
import { validValuesField, validValuesOf } from '../../../../src/rules/valid-values.ts';

export type Rule = any;
export type Column = any;
export type Row = any;
export type Cell = any;

export type ColumnKind = 'input' | 'calc' | 'output';

export const COLUMN_KIND_LABEL: Record<ColumnKind, string> = { input: 'Condition', calc: 'Calculation', output: 'Result' };

export interface TableParts {
  columns: Column[];
  rows: Row[];
}

export function tableOf(rule: Rule): TableParts {
  const table = rule?.decisionTable;
  return {
    columns: Array.isArray(table?.columns) ? table.columns : [],
    rows: Array.isArray(table?.rows) ? table.rows : [],
  };
}

export function withTable(rule: Rule, parts: Partial<TableParts>): Rule {
  const current = tableOf(rule);
  return {
    ...rule,
    decisionTable: { ...(rule?.decisionTable ?? {}), columns: parts.columns ?? current.columns, rows: parts.rows ?? current.rows },
  };
}

let fallbackCounter = 0;

/** A new column id: a GUID as DecisionRules writes them. */
export function newId(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (c?.randomUUID) return c.randomUUID();
  fallbackCounter++;
  return `col-${Date.now().toString(36)}-${fallbackCounter}`;
}

// ---- columns ---------------------------------------------------------------------------------------------

export function columnKind(column: Column): ColumnKind {
  const type = column?.type;
  return type === 'output' || type === 'calc' ? type : 'input';
}

export function columnId(column: Column): string {
  return String(column?.columnId ?? '');
}

function payloadKey(kind: ColumnKind): 'condition' | 'columnOutput' | 'calculation' {
  return kind === 'input' ? 'condition' : kind === 'output' ? 'columnOutput' : 'calculation';
}

export function columnPayload(column: Column): any {
  return column?.[payloadKey(columnKind(column))] ?? {};
}

export function columnName(column: Column): string {
  const name = columnPayload(column).name;
  return typeof name === 'string' ? name : '';
}

/** What the column is bound to: the input path it tests, the output path it writes, or the variable it defines. */
export function columnBinding(column: Column): string {
  const payload = columnPayload(column);
  switch (columnKind(column)) {
    case 'input': {
      const content = payload.definition?.content;
      if (typeof content === 'string') return content;
      return typeof payload.inputVariable === 'string' ? payload.inputVariable : '';
    }
    case 'output':
      return typeof payload.outputVariable === 'string' ? payload.outputVariable : '';
    case 'calc':
      return typeof payload.variable === 'string' ? payload.variable : '';
  }
}

/** The column's header caption: its name, else its binding. */
export function columnTitle(column: Column): string {
  return columnName(column) || columnBinding(column) || COLUMN_KIND_LABEL[columnKind(column)];
}

function withPayload(column: Column, change: (payload: any) => any): Column {
  const key = payloadKey(columnKind(column));
  return { ...column, [key]: change({ ...(column?.[key] ?? {}) }) };
}

export function withColumnName(column: Column, name: string): Column {
  return withPayload(column, (p) => ({ ...p, name }));
}

/** Binds a column; a condition keeps the form it was written in (old `inputVariable` or ≥1.19 `definition`). */
export function withColumnBinding(column: Column, binding: string): Column {
  switch (columnKind(column)) {
    case 'input':
      return withPayload(column, (p) => {
        if (p.definition === undefined && typeof p.inputVariable === 'string') return { ...p, inputVariable: binding };
        return { ...p, definition: { ...(p.definition ?? {}), content: binding, type: p.definition?.type ?? 'INPUT_VARIABLE' } };
      });
    case 'output':
      return withPayload(column, (p) => ({ ...p, outputVariable: binding }));
    case 'calc':
      return withPayload(column, (p) => ({ ...p, variable: binding }));
  }
}

export interface NewColumnOptions {
  name?: string;
  binding?: string;
  id?: string;
}

export function newColumn(kind: ColumnKind, options: NewColumnOptions = {}): Column {
  const columnId = options.id ?? newId();
  const name = options.name ?? COLUMN_KIND_LABEL[kind];
  const binding = options.binding ?? '';
  switch (kind) {
    case 'input':
      return { columnId, type: 'input', condition: { type: 'simple', name, definition: { content: binding, type: 'INPUT_VARIABLE', valid: true } } };
    case 'output':
      return { columnId, type: 'output', columnOutput: { type: 'simple', name, outputVariable: binding } };
    case 'calc':
      return { columnId, type: 'calc', calculation: { name, variable: binding } };
  }
}

// ---- cells -----------------------------------------------------------------------------------------------

/** The field of a cell holding its value: `scalarCondition` for conditions, `outputScalarValue` otherwise. */
export function cellField(kind: ColumnKind): 'scalarCondition' | 'outputScalarValue' {
  return kind === 'input' ? 'scalarCondition' : 'outputScalarValue';
}

/** The value object of an empty cell: `anything` for a condition, an empty simple value for a result, an empty expression for a calc. */
export function emptyCellValue(kind: ColumnKind): any {
  if (kind === 'input') return { operator: 'anything', value: '', type: 'general' };
  if (kind === 'calc') return { type: 'function', value: '', stringValue: '' };
  return { type: 'common', value: '' };
}

export function emptyCell(column: Column): Cell {
  const kind = columnKind(column);
  return { column: column?.columnId, type: kind, [cellField(kind)]: emptyCellValue(kind) };
}

export function cellOf(row: Row, column: Column): Cell | undefined {
  const cells = row?.cells;
  if (!Array.isArray(cells)) return undefined;
  const id = columnId(column);
  for (const cell of cells) if (String(cell?.column) === id) return cell;
  return undefined;
}

/** The value object of the cell of `column` in `row` (a missing cell reads as an empty one, §2.3). */
export function cellValueOf(row: Row, column: Column): any {
  const cell = cellOf(row, column);
  const field = cellField(columnKind(column));
  return cell?.[field] ?? emptyCellValue(columnKind(column));
}

/** The row with the cell of `column` holding `value`; the cell is added when the row had none. */
export function withCellValue(row: Row, column: Column, value: any): Row {
  const kind = columnKind(column);
  const field = cellField(kind);
  const id = columnId(column);
  const cells: Cell[] = Array.isArray(row?.cells) ? row.cells : [];
  let found = false;
  const next = cells.map((cell) => {
    if (found || String(cell?.column) !== id) return cell;
    found = true;
    return { ...cell, type: kind, [field]: value };
  });
  if (!found) next.push({ column: column?.columnId, type: kind, [field]: value });
  return { ...row, cells: next };
}

export function setCellValue(rule: Rule, rowIndex: number, columnIndex: number, value: any): Rule {
  const { columns, rows } = tableOf(rule);
  const column = columns[columnIndex];
  if (column === undefined || rowIndex < 0 || rowIndex >= rows.length) return rule;
  const nextRows = rows.slice();
  nextRows[rowIndex] = withCellValue(rows[rowIndex], column, value);
  return withTable(rule, { rows: nextRows });
}

// ---- rows ------------------------------------------------------------------------------------------------

export function newRow(columns: readonly Column[]): Row {
  return { active: true, cells: columns.map(emptyCell) };
}

export function isRowActive(row: Row): boolean {
  return row?.active !== false;
}

function clampIndex(index: number, length: number): number {
  return Math.max(0, Math.min(length, Math.trunc(index)));
}

/** Inserts `count` empty rows before position `at` (at = rows.length appends). */
export function insertRows(rule: Rule, at: number, count = 1): Rule {
  const { columns, rows } = tableOf(rule);
  const index = clampIndex(at, rows.length);
  const fresh = Array.from({ length: Math.max(0, count) }, () => newRow(columns));
  return withTable(rule, { rows: [...rows.slice(0, index), ...fresh, ...rows.slice(index)] });
}

export function addRow(rule: Rule): Rule {
  return insertRows(rule, tableOf(rule).rows.length, 1);
}

function sortedUnique(indices: readonly number[], length: number): number[] {
  return [...new Set(indices)].filter((i) => i >= 0 && i < length).sort((a, b) => a - b);
}

/** Copies of the given rows, each placed right after the last of them (like DecisionRules' duplicate). */
export function duplicateRows(rule: Rule, indices: readonly number[]): Rule {
  const { rows } = tableOf(rule);
  const picked = sortedUnique(indices, rows.length);
  if (picked.length === 0) return rule;
  const copies = picked.map((i) => structuredClone(rows[i]));
  const after = picked[picked.length - 1]! + 1;
  return withTable(rule, { rows: [...rows.slice(0, after), ...copies, ...rows.slice(after)] });
}

export function deleteRows(rule: Rule, indices: readonly number[]): Rule {
  const { rows } = tableOf(rule);
  const drop = new Set(sortedUnique(indices, rows.length));
  if (drop.size === 0) return rule;
  return withTable(rule, { rows: rows.filter((_: Row, i: number) => !drop.has(i)) });
}

/**
 * Moves the block of rows [from, from+count) by `delta` positions (negative = up), clamped to the table.
 * Returns the rule and the block's new first index.
 */
export function moveRows(rule: Rule, from: number, count: number, delta: number): { rule: Rule; start: number } {
  const { rows } = tableOf(rule);
  const start = clampIndex(from, rows.length);
  const size = Math.min(Math.max(0, count), rows.length - start);
  const target = Math.max(0, Math.min(rows.length - size, start + delta));
  if (size === 0 || target === start) return { rule, start };
  const block = rows.slice(start, start + size);
  const rest = [...rows.slice(0, start), ...rows.slice(start + size)];
  return { rule: withTable(rule, { rows: [...rest.slice(0, target), ...block, ...rest.slice(target)] }), start: target };
}

export function setRowsActive(rule: Rule, indices: readonly number[], active: boolean): Rule {
  const { rows } = tableOf(rule);
  const picked = sortedUnique(indices, rows.length);
  if (picked.length === 0) return rule;
  const next = rows.slice();
  for (const i of picked) next[i] = { ...rows[i], active };
  return withTable(rule, { rows: next });
}

// ---- column operations -----------------------------------------------------------------------------------

/** Adds a column at position `at` and an empty cell for it in every row. */
export function insertColumn(rule: Rule, at: number, column: Column): Rule {
  const { columns, rows } = tableOf(rule);
  const index = clampIndex(at, columns.length);
  const nextColumns = [...columns.slice(0, index), column, ...columns.slice(index)];
  const cell = emptyCell(column);
  const nextRows = rows.map((row: Row) => ({ ...row, cells: [...(Array.isArray(row?.cells) ? row.cells : []), { ...cell }] }));
  return withTable(rule, { columns: nextColumns, rows: nextRows });
}

/**
 * Where a new column of `kind` goes by DecisionRules' layout (conditions left, results right, calcs between):
 * after the last column of the same kind, else after the conditions (calc) / at the start (condition) / end.
 */
export function defaultColumnPosition(rule: Rule, kind: ColumnKind): number {
  const { columns } = tableOf(rule);
  let last = -1;
  columns.forEach((c: Column, i: number) => {
    if (columnKind(c) === kind) last = i;
  });
  if (last >= 0) return last + 1;
  if (kind === 'output') return columns.length;
  if (kind === 'input') return 0;
  let lastCondition = -1;
  columns.forEach((c: Column, i: number) => {
    if (columnKind(c) === 'input') lastCondition = i;
  });
  return lastCondition + 1;
}

export function addColumn(rule: Rule, kind: ColumnKind, options: NewColumnOptions & { at?: number } = {}): { rule: Rule; index: number } {
  const index = options.at ?? defaultColumnPosition(rule, kind);
  const column = newColumn(kind, options);
  return { rule: insertColumn(rule, index, column), index: clampIndex(index, tableOf(rule).columns.length) };
}

export function updateColumn(rule: Rule, index: number, change: (column: Column) => Column): Rule {
  const { columns } = tableOf(rule);
  if (index < 0 || index >= columns.length) return rule;
  const next = columns.slice();
  next[index] = change(columns[index]);
  return withTable(rule, { columns: next });
}

export function renameColumn(rule: Rule, index: number, name: string): Rule {
  return updateColumn(rule, index, (c) => withColumnName(c, name));
}

export function bindColumn(rule: Rule, index: number, binding: string): Rule {
  return updateColumn(rule, index, (c) => withColumnBinding(c, binding));
}

/** A column's valid values as the designer edits them, as text in stored order (both stored forms are read). */
export function columnValidValues(column: Column): string[] {
  return validValuesOf(column).map(String);
}

/**
 * Sets a column's valid values (the newer stored form). An unchanged list leaves the column as it was, so opening
 * and applying the column dialog never rewrites an older export's form.
 */
export function setValidValues(rule: Rule, index: number, values: readonly string[]): Rule {
  const column = tableOf(rule).columns[index];
  if (column === undefined) return rule;
  const current = columnValidValues(column);
  if (current.length === values.length && current.every((v, i) => v === values[i])) return rule;
  return updateColumn(rule, index, (c) => ({ ...c, validValues: validValuesField(values) }));
}

/** Moves a column; cells follow by id, so rows are untouched. */
export function moveColumn(rule: Rule, from: number, to: number): Rule {
  const { columns } = tableOf(rule);
  if (from < 0 || from >= columns.length) return rule;
  const target = Math.max(0, Math.min(columns.length - 1, to));
  if (target === from) return rule;
  const next = columns.slice();
  const [column] = next.splice(from, 1);
  next.splice(target, 0, column);
  return withTable(rule, { columns: next });
}

/** Deletes a column and its cell in every row. */
export function deleteColumn(rule: Rule, index: number): Rule {
  const { columns, rows } = tableOf(rule);
  const column = columns[index];
  if (column === undefined) return rule;
  const id = columnId(column);
  const nextRows = rows.map((row: Row) =>
    Array.isArray(row?.cells) ? { ...row, cells: row.cells.filter((cell: Cell) => String(cell?.column) !== id) } : row,
  );
  return withTable(rule, { columns: columns.filter((_: Column, i: number) => i !== index), rows: nextRows });
}

/** A blank decision table rule: one condition, one result, one row. */
export function blankTable(name = 'New decision table'): Rule {
  const condition = newColumn('input', { name: 'Condition', binding: 'input' });
  const result = newColumn('output', { name: 'Result', binding: 'output' });
  return {
    type: 'decision-table',
    name,
    status: 'pending',
    inputSchema: { input: {} },
    outputSchema: { output: {} },
    decisionTable: { columns: [condition, result], rows: [newRow([condition, result])] },
  };
}
