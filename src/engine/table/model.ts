// Reads the `decisionTable` of a rule document into columns and rows (§2.1–2.4), tolerating both column forms
// (`inputVariable` and `definition.content`), cells with or without `type`, and ids given as numbers. Cells are
// matched to columns by id, never by position.
import type { Problem } from '../errors.ts';

export type ColumnKind = 'input' | 'output' | 'calc';

export interface ColumnModel {
  readonly id: string;
  /** Position in `decisionTable.columns`. */
  readonly position: number;
  readonly kind: ColumnKind;
  readonly alias: string | undefined;
  /** input: the bound path (`client.age`); output: the output path (`prices.final`); calc: the variable name. */
  readonly target: string;
}

export interface RowModel {
  /** Position in `decisionTable.rows`; rowNumber in traces is position + 1. */
  readonly position: number;
  readonly active: boolean;
  readonly timeValidation: unknown;
  /**
   * The cell object of each column, by index in TableModel.columns (undefined: the row has no cell for it; the
   * last of several wins). Cells naming no known column are left out.
   */
  readonly cells: readonly (Record<string, unknown> | undefined)[];
  /** The row's stored `cells` array, to find a cell's position for messages (cellPosition). */
  readonly stored: readonly unknown[];
}

/** Position of a cell of `row` in its stored `cells` array. */
export function cellPosition(row: RowModel, cell: Record<string, unknown>): number {
  return row.stored.lastIndexOf(cell);
}

export interface TableModel {
  readonly columns: readonly ColumnModel[];
  readonly rows: readonly RowModel[];
}

const KINDS: readonly ColumnKind[] = ['input', 'output', 'calc'];

export function readTableModel(document: Record<string, unknown>, problems: Problem[]): TableModel {
  const table = document.decisionTable;
  if (table === null || typeof table !== 'object' || Array.isArray(table)) {
    problems.push({ path: 'decisionTable', message: 'a decision table needs a decisionTable object with columns and rows' });
    return { columns: [], rows: [] };
  }
  const { columns: rawColumns, rows: rawRows } = table as Record<string, unknown>;
  const columns = readColumns(rawColumns, problems);
  const rows = readRows(rawRows, columns, problems);
  return { columns, rows };
}

function readColumns(raw: unknown, problems: Problem[]): ColumnModel[] {
  if (!Array.isArray(raw)) {
    problems.push({ path: 'decisionTable.columns', message: 'must be an array of columns' });
    return [];
  }
  const columns: ColumnModel[] = [];
  const seen = new Set<string>();
  raw.forEach((entry, position) => {
    const where = `decisionTable.columns[${position}]`;
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      problems.push({ path: where, message: 'a column must be an object' });
      return;
    }
    const column = entry as Record<string, unknown>;
    const id = idText(column.columnId);
    if (id === undefined) {
      problems.push({ path: `${where}.columnId`, message: 'a column needs a columnId (string or number)' });
      return;
    }
    if (seen.has(id)) {
      problems.push({ path: `${where}.columnId`, message: `duplicate columnId ${JSON.stringify(id)}` });
      return;
    }
    seen.add(id);
    const kind = column.type as ColumnKind;
    if (!KINDS.includes(kind)) {
      problems.push({ path: `${where}.type`, message: `unknown column type ${JSON.stringify(column.type)} (expected input, output or calc)` });
      return;
    }
    const alias = typeof column.alias === 'string' && column.alias !== '' ? column.alias : undefined;
    const target = columnTarget(kind, column, where, problems);
    if (target === undefined) return;
    columns.push({ id, position, kind, alias, target });
  });
  return columns;
}

function columnTarget(kind: ColumnKind, column: Record<string, unknown>, where: string, problems: Problem[]): string | undefined {
  if (kind === 'input') {
    const condition = asObject(column.condition);
    const definition = asObject(condition?.definition);
    const path = nonEmptyText(condition?.inputVariable) ?? nonEmptyText(definition?.content);
    if (path === undefined) problems.push({ path: `${where}.condition`, message: 'a condition column needs condition.inputVariable or condition.definition.content' });
    return path;
  }
  if (kind === 'output') {
    const path = nonEmptyText(asObject(column.columnOutput)?.outputVariable);
    if (path === undefined) problems.push({ path: `${where}.columnOutput.outputVariable`, message: 'a result column needs an output path' });
    return path;
  }
  const variable = nonEmptyText(asObject(column.calculation)?.variable);
  if (variable === undefined) problems.push({ path: `${where}.calculation.variable`, message: 'a calculation column needs a variable name' });
  return variable;
}

const NO_CELLS: readonly unknown[] = [];

function readRows(raw: unknown, columns: readonly ColumnModel[], problems: Problem[]): RowModel[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    problems.push({ path: 'decisionTable.rows', message: 'must be an array of rows' });
    return [];
  }
  const columnIndex = new Map(columns.map((column, i) => [column.id, i]));
  const rows: RowModel[] = [];
  raw.forEach((entry, position) => {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      problems.push({ path: rowPath(position), message: 'a row must be an object with cells' });
      return;
    }
    const row = entry as Record<string, unknown>;
    const cells = new Array<Record<string, unknown> | undefined>(columns.length);
    const stored = Array.isArray(row.cells) ? (row.cells as unknown[]) : NO_CELLS;
    if (row.cells !== undefined && !Array.isArray(row.cells)) {
      problems.push({ path: `${rowPath(position)}.cells`, message: 'must be an array of cells' });
    } else {
      stored.forEach((cell, cellPosition) => {
        if (cell === null || typeof cell !== 'object' || Array.isArray(cell)) {
          problems.push({ path: `${rowPath(position)}.cells[${cellPosition}]`, message: 'a cell must be an object' });
          return;
        }
        const column = idText((cell as Record<string, unknown>).column);
        if (column === undefined) {
          problems.push({ path: `${rowPath(position)}.cells[${cellPosition}].column`, message: 'a cell needs the columnId it belongs to' });
          return;
        }
        const index = columnIndex.get(column);
        if (index !== undefined) cells[index] = cell as Record<string, unknown>;
      });
    }
    rows.push({ position, active: row.active !== false, timeValidation: row.timeValidation, cells, stored });
  });
  return rows;
}

/** Built only for messages: a large table has tens of thousands of rows. */
function rowPath(position: number): string {
  return `decisionTable.rows[${position}]`;
}

function idText(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function nonEmptyText(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
