// Decision tables as an assistant reads and edits them: a compact view (the shape first, then a page of rows, each
// cell keyed by its column's alias) and structured edits (add, change, move and delete rows and columns) applied
// to the stored DecisionRules document. Cells keep their stored form (`scalarCondition`, `outputScalarValue`), so
// what a model reads is what it writes back. The edited document is validated by the write that stores it, with
// every problem and its path; the edits only check what they need to apply (a known column, a row in range).
import { randomUUID } from 'node:crypto';
import { ValidationError } from '../rules/problems.ts';
import type { Problem } from '../rules/problems.ts';

type Json = unknown;
type Obj = Record<string, Json>;

export type ColumnKind = 'condition' | 'calculation' | 'output';

export interface ColumnView {
  id: string;
  /** The column's alias (what cells are keyed by); the id when the column has none. */
  key: string;
  kind: ColumnKind;
  name: string;
  /** The input path a condition reads, the variable a calculation defines, the output path a result writes. */
  path: string;
}

export interface RowView {
  /** 1-based, as edits name rows. */
  row: number;
  active: boolean;
  cells: Record<string, Json>;
  timeValidation?: Json;
}

export interface TableView {
  shape: { columns: ColumnView[]; rows: number };
  rows: { from: number; to: number; items: RowView[]; more: boolean };
}

/** A cell as an edit gives it: the stored object, or a bare value (`=` for a condition, a simple value for a result). */
export type CellInput = string | number | boolean | null | Obj;

export type TableEdit =
  | { op: 'add_row'; at?: number; active?: boolean; cells: Record<string, CellInput> }
  | { op: 'change_row'; row: number; active?: boolean; cells?: Record<string, CellInput> }
  | { op: 'move_row'; row: number; to: number }
  | { op: 'delete_row'; row: number }
  | { op: 'add_column'; kind: ColumnKind; name: string; path: string; alias?: string; at?: number; fill?: CellInput }
  | { op: 'change_column'; column: string; name?: string; path?: string; alias?: string }
  | { op: 'move_column'; column: string; to: number }
  | { op: 'delete_column'; column: string };

const isObj = (value: Json): value is Obj => value !== null && typeof value === 'object' && !Array.isArray(value);

function tableOf(document: Obj): { columns: Obj[]; rows: Obj[] } {
  const table = document.decisionTable;
  if (document.type !== 'decision-table' || !isObj(table)) {
    throw new ValidationError([{ path: 'type', message: `table edits and pages apply to decision tables; this rule is a ${String(document.type)}` }]);
  }
  return { columns: Array.isArray(table.columns) ? (table.columns as Obj[]) : [], rows: Array.isArray(table.rows) ? (table.rows as Obj[]) : [] };
}

function kindOf(column: Obj): ColumnKind {
  return column.type === 'output' ? 'output' : column.type === 'calc' ? 'calculation' : 'condition';
}

function text(value: Json): string {
  return typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
}

export function columnView(column: Obj): ColumnView {
  const id = text(column.columnId);
  const alias = text(column.alias);
  const kind = kindOf(column);
  const payload = (kind === 'output' ? column.columnOutput : kind === 'calculation' ? column.calculation : column.condition) as Obj | undefined;
  const definition = isObj(payload?.definition) ? payload.definition : undefined;
  const path = kind === 'output' ? payload?.outputVariable : kind === 'calculation' ? payload?.variable : (definition?.content ?? payload?.inputVariable);
  return { id, key: alias || id, kind, name: text(payload?.name), path: text(path) };
}

function rowView(row: Obj, index: number, columns: ColumnView[]): RowView {
  const byId = new Map(columns.map((c) => [c.id, c]));
  const cells: Record<string, Json> = {};
  for (const cell of Array.isArray(row.cells) ? (row.cells as Obj[]) : []) {
    const column = byId.get(text(cell.column));
    if (column === undefined) continue;
    cells[column.key] = cell.scalarCondition ?? cell.outputScalarValue ?? null;
  }
  const view: RowView = { row: index + 1, active: row.active !== false, cells };
  if (row.timeValidation !== undefined) view.timeValidation = row.timeValidation;
  return view;
}

/** The table's shape and rows `from`..`from + limit - 1` (1-based). */
export function tableView(document: Obj, from = 1, limit = 50): TableView {
  const { columns, rows } = tableOf(document);
  const views = columns.map(columnView);
  const start = Math.max(1, from);
  const slice = rows.slice(start - 1, start - 1 + limit);
  return {
    shape: { columns: views, rows: rows.length },
    rows: { from: start, to: start + slice.length - 1, items: slice.map((row, i) => rowView(row, start - 1 + i, views)), more: start - 1 + slice.length < rows.length },
  };
}

class EditProblems {
  readonly problems: Problem[] = [];
  add(path: string, message: string): void {
    this.problems.push({ path, message });
  }
}

function emptyCell(kind: ColumnKind): Obj {
  if (kind === 'condition') return { operator: 'anything', value: '', type: 'general' };
  if (kind === 'calculation') return { type: 'function', value: '', stringValue: '' };
  return { type: 'common', value: '' };
}

/** The stored object of a cell input: objects as given, bare values as `=` conditions or simple results. */
function storedCell(kind: ColumnKind, input: CellInput): Obj {
  if (isObj(input)) return { ...input };
  const value = input === null ? '' : String(input);
  if (kind === 'condition') return { operator: '=', value, type: 'general' };
  if (kind === 'calculation') return { type: 'function', value, stringValue: value };
  return { type: 'common', value };
}

function cellOf(column: ColumnView, input: CellInput): Obj {
  const type = column.kind === 'condition' ? 'input' : column.kind === 'calculation' ? 'calc' : 'output';
  const payload = storedCell(column.kind, input);
  return column.kind === 'condition'
    ? { column: column.id, type, scalarCondition: payload }
    : { column: column.id, type, outputScalarValue: payload };
}

function slug(name: string): string {
  const base = name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 24);
  return `col-${base || 'column'}`;
}

/** Adds `path` (dotted) to a model object (`inputSchema`, `outputSchema`) when it is not there yet. */
function addToModel(document: Obj, field: 'inputSchema' | 'outputSchema', path: string): void {
  if (path === '' || /[{}[\]\s]/.test(path)) return;
  let node: Obj = isObj(document[field]) ? (document[field] as Obj) : (document[field] = {});
  for (const part of path.split('.')) {
    if (!isObj(node[part])) node[part] = {};
    node = node[part] as Obj;
  }
}

/**
 * Applies `edits` in order to a copy of `document` (a decision table) and returns the copy. Every edit that cannot
 * be applied is reported with its path (`edits[2].row`), and nothing is applied then.
 */
export function applyTableEdits(document: Obj, edits: readonly TableEdit[]): Obj {
  const copy = structuredClone(document);
  const table = tableOf(copy);
  const decisionTable = copy.decisionTable as Obj;
  decisionTable.columns = table.columns;
  decisionTable.rows = table.rows;
  const { columns, rows } = table;
  const problems = new EditProblems();
  const findColumn = (ref: string, path: string): number => {
    const index = columns.findIndex((c) => text(c.alias) === ref || text(c.columnId) === ref);
    if (index < 0) problems.add(path, `no column "${ref}"; columns are ${columns.map((c) => `"${columnView(c).key}"`).join(', ') || 'none yet'}`);
    return index;
  };
  const rowIndex = (row: number, path: string, extra = 0): number => {
    if (!Number.isInteger(row) || row < 1 || row > rows.length + extra) {
      problems.add(path, `must be a row number from 1 to ${rows.length + extra} (got ${row})`);
      return -1;
    }
    return row - 1;
  };
  const setCells = (row: Obj, cells: Record<string, CellInput>, path: string): void => {
    const list = Array.isArray(row.cells) ? (row.cells as Obj[]) : (row.cells = []);
    for (const [ref, input] of Object.entries(cells)) {
      const index = findColumn(ref, `${path}.${ref}`);
      if (index < 0) continue;
      const column = columnView(columns[index]!);
      const cell = cellOf(column, input);
      const at = list.findIndex((c) => text(c.column) === column.id);
      if (at >= 0) list[at] = cell;
      else list.push(cell);
    }
  };

  edits.forEach((edit, i) => {
    const at = `edits[${i}]`;
    const before = problems.problems.length;
    switch (edit.op) {
      case 'add_row': {
        const index = edit.at === undefined ? rows.length : rowIndex(edit.at, `${at}.at`, 1);
        if (index < 0) return;
        const row: Obj = { active: edit.active ?? true, cells: columns.map((c) => cellOf(columnView(c), emptyCell(columnView(c).kind))) };
        setCells(row, edit.cells, `${at}.cells`);
        if (problems.problems.length === before) rows.splice(index, 0, row);
        return;
      }
      case 'change_row': {
        const index = rowIndex(edit.row, `${at}.row`);
        if (index < 0) return;
        if (edit.active !== undefined) rows[index]!.active = edit.active;
        if (edit.cells !== undefined) setCells(rows[index]!, edit.cells, `${at}.cells`);
        return;
      }
      case 'move_row': {
        const from = rowIndex(edit.row, `${at}.row`);
        const to = rowIndex(edit.to, `${at}.to`);
        if (from < 0 || to < 0) return;
        rows.splice(to, 0, ...rows.splice(from, 1));
        return;
      }
      case 'delete_row': {
        const index = rowIndex(edit.row, `${at}.row`);
        if (index >= 0) rows.splice(index, 1);
        return;
      }
      case 'add_column': {
        const taken = new Set(columns.map((c) => text(c.alias)));
        let alias = edit.alias ?? slug(edit.name);
        if (edit.alias !== undefined && taken.has(alias)) return problems.add(`${at}.alias`, `column alias "${alias}" is already used in this table`);
        for (let n = 2; taken.has(alias); n++) alias = `${slug(edit.name)}-${n}`;
        const columnId = randomUUID();
        const column: Obj =
          edit.kind === 'output'
            ? { columnId, type: 'output', alias, columnOutput: { type: 'simple', name: edit.name, outputVariable: edit.path } }
            : edit.kind === 'calculation'
              ? { columnId, type: 'calc', alias, calculation: { name: edit.name, variable: edit.path } }
              : { columnId, type: 'input', alias, condition: { type: 'simple', name: edit.name, definition: { content: edit.path, type: 'INPUT_VARIABLE', valid: true } } };
        // Without a position: conditions and calculations after the last of them, results at the end.
        const lastCondition = columns.reduce((last, c, index) => (c.type === 'output' ? last : index), -1);
        const index = edit.at === undefined ? (edit.kind === 'output' ? columns.length : lastCondition + 1) : edit.at - 1;
        if (!Number.isInteger(index) || index < 0 || index > columns.length) return problems.add(`${at}.at`, `must be a column position from 1 to ${columns.length + 1}`);
        columns.splice(index, 0, column);
        const view = columnView(column);
        const fill = edit.fill === undefined ? emptyCell(edit.kind) : edit.fill;
        for (const row of rows) (Array.isArray(row.cells) ? (row.cells as Obj[]) : (row.cells = [])).push(cellOf(view, fill));
        if (edit.kind === 'condition') addToModel(copy, 'inputSchema', edit.path);
        if (edit.kind === 'output') addToModel(copy, 'outputSchema', edit.path);
        return;
      }
      case 'change_column': {
        const index = findColumn(edit.column, `${at}.column`);
        if (index < 0) return;
        const column = columns[index]!;
        const kind = kindOf(column);
        const payload = (kind === 'output' ? column.columnOutput : kind === 'calculation' ? column.calculation : column.condition) as Obj;
        if (edit.alias !== undefined) {
          if (columns.some((c, j) => j !== index && text(c.alias) === edit.alias)) return problems.add(`${at}.alias`, `column alias "${edit.alias}" is already used in this table`);
          column.alias = edit.alias;
        }
        if (edit.name !== undefined) payload.name = edit.name;
        if (edit.path !== undefined) {
          if (kind === 'output') payload.outputVariable = edit.path;
          else if (kind === 'calculation') payload.variable = edit.path;
          else {
            delete payload.inputVariable;
            payload.definition = { content: edit.path, type: 'INPUT_VARIABLE', valid: true };
          }
          if (kind === 'condition') addToModel(copy, 'inputSchema', edit.path);
          if (kind === 'output') addToModel(copy, 'outputSchema', edit.path);
        }
        return;
      }
      case 'move_column': {
        const index = findColumn(edit.column, `${at}.column`);
        if (index < 0) return;
        if (!Number.isInteger(edit.to) || edit.to < 1 || edit.to > columns.length) return problems.add(`${at}.to`, `must be a column position from 1 to ${columns.length}`);
        columns.splice(edit.to - 1, 0, ...columns.splice(index, 1));
        return;
      }
      case 'delete_column': {
        const index = findColumn(edit.column, `${at}.column`);
        if (index < 0) return;
        const [removed] = columns.splice(index, 1);
        for (const row of rows) if (Array.isArray(row.cells)) row.cells = (row.cells as Obj[]).filter((c) => text(c.column) !== text(removed!.columnId));
        return;
      }
    }
  });
  if (problems.problems.length > 0) throw new ValidationError(problems.problems);
  return copy;
}

/** A decision table with no columns or rows yet, to be filled by edits. */
export function emptyTable(name: string, description: string): Obj {
  return { name, description, type: 'decision-table', inputSchema: {}, outputSchema: {}, decisionTable: { columns: [], rows: [] } };
}
