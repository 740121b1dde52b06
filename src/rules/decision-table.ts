// Decision-table bodies (spec/rule-format.md §2): columns in both condition forms, calc columns, aliases,
// rows with time validity, and cells checked against the column they reference. The same pass reads the table
// into its typed model (model/decision-table.ts), which is what the engine compiles.
import {
  FirstSeen,
  at,
  boolean,
  checkFields,
  describe,
  expectArray,
  expectObject,
  isObject,
  listOf,
  Problems,
  quote,
  text,
} from './check.ts';
import type { Check, FieldRule, JsonObject } from './check.ts';
import { checkOutputScalarValue, checkScalarCondition } from './scalar-values.ts';
import type { ColumnKind, ColumnModel, DecisionTableModel, RowModel, TableCell, TimeValidation } from './model/decision-table.ts';

export const COLUMN_KINDS = ['input', 'output', 'calc'] as const satisfies readonly ColumnKind[];
export type { ColumnKind };

export const MAX_COLUMN_ALIAS_LENGTH = 30;
const COLUMN_ALIAS = /^[A-Za-z0-9-]+$/;

interface ColumnKindRule {
  /** The column's payload field and its required fields. */
  payload: string;
  fields: readonly FieldRule[];
  /** The cell field holding this column's value, and its check. */
  cellField: string;
  cellCheck: Check;
}

const COLUMN_KIND_RULES: Record<ColumnKind, ColumnKindRule> = {
  input: {
    payload: 'condition',
    fields: [{ key: 'name', check: text() }],
    cellField: 'scalarCondition',
    cellCheck: checkScalarCondition,
  },
  output: {
    payload: 'columnOutput',
    fields: [
      { key: 'outputVariable', required: true, hint: '(the output path this column writes)', check: text({ nonEmpty: true }) },
      { key: 'name', check: text() },
    ],
    cellField: 'outputScalarValue',
    cellCheck: checkOutputScalarValue,
  },
  calc: {
    payload: 'calculation',
    fields: [
      { key: 'variable', required: true, hint: '(the name of the calculated variable)', check: text({ nonEmpty: true }) },
      { key: 'name', check: text() },
    ],
    cellField: 'outputScalarValue',
    cellCheck: checkOutputScalarValue,
  },
};

/** Condition columns bind an input in the old form (`inputVariable`) or the ≥1.19 form (`definition.content`). */
function checkConditionBinding(condition: JsonObject, path: string, out: Problems): void {
  const definition = condition.definition;
  if (definition !== undefined && definition !== null) {
    if (!expectObject(definition, at(path, 'definition'), out)) return;
    checkFields(definition, at(path, 'definition'), [{ key: 'content', required: true, check: text({ nonEmpty: true }) }], out);
    return;
  }
  if (condition.inputVariable === undefined || condition.inputVariable === null) {
    out.add(path, 'needs the input it tests (inputVariable or definition.content)');
    return;
  }
  text({ nonEmpty: true })(condition.inputVariable, at(path, 'inputVariable'), out);
}

/** The model's columns and each one's index among them by id (how cells find their column); the kind of every
 * column with a usable id and type, by id (how cells are checked, even when the column's payload is malformed). */
interface ReadColumns {
  readonly columns: ColumnModel[];
  readonly byId: Map<string, number>;
  readonly kindOf: Map<string, ColumnKind>;
}

function readColumns(columns: unknown[], path: string, out: Problems): ReadColumns {
  const read: ReadColumns = { columns: [], byId: new Map(), kindOf: new Map() };
  const ids = new FirstSeen();
  const aliases = new FirstSeen();
  columns.forEach((column, i) => {
    const columnPath = at(path, i);
    if (!expectObject(column, columnPath, out)) return;
    const id = columnIdOf(column.columnId, at(columnPath, 'columnId'), out);
    const kind = column.type;
    if (!(COLUMN_KINDS as readonly unknown[]).includes(kind)) {
      const got = kind === undefined ? 'is required' : `unknown column type ${typeof kind === 'string' ? quote(kind) : describe(kind)}`;
      out.add(at(columnPath, 'type'), `${got} (expected ${listOf(COLUMN_KINDS)})`);
    }
    if (id !== undefined) {
      const earlier = ids.check(id, columnPath);
      if (earlier) out.add(at(columnPath, 'columnId'), `duplicate column id ${quote(id)} (also ${earlier})`);
      else if (isColumnKind(kind)) {
        read.kindOf.set(id, kind);
        const target = columnTarget(column, kind);
        if (target !== undefined) {
          const alias = typeof column.alias === 'string' && column.alias !== '' ? column.alias : undefined;
          read.byId.set(id, read.columns.length);
          read.columns.push({ id, position: i, kind, alias, target });
        }
      }
    }
    if (column.alias !== undefined && column.alias !== null && column.alias !== '') {
      const aliasPath = at(columnPath, 'alias');
      const before = out.count;
      text({ max: MAX_COLUMN_ALIAS_LENGTH, pattern: COLUMN_ALIAS, patternText: 'may contain only letters, digits and "-"' })(column.alias, aliasPath, out);
      if (out.count === before) {
        const earlier = aliases.check(column.alias as string, aliasPath);
        if (earlier) out.add(aliasPath, `duplicate column alias ${quote(column.alias)} (also ${earlier})`);
      }
    }
    if (isColumnKind(kind)) checkColumnPayload(column, kind, columnPath, out);
  });
  return read;
}

function isColumnKind(kind: unknown): kind is ColumnKind {
  return (COLUMN_KINDS as readonly unknown[]).includes(kind);
}

/**
 * What a column binds, in one form: a condition's input path (`inputVariable`, else the ≥1.19
 * `definition.content`), a result's output path, a calculation's variable. Undefined when it has none (the
 * payload's checks report why).
 */
function columnTarget(column: JsonObject, kind: ColumnKind): string | undefined {
  const payload = column[COLUMN_KIND_RULES[kind].payload];
  if (!isObject(payload)) return undefined;
  if (kind === 'input') {
    const definition = payload.definition;
    return nonEmptyText(payload.inputVariable) ?? (isObject(definition) ? nonEmptyText(definition.content) : undefined);
  }
  return nonEmptyText(kind === 'output' ? payload.outputVariable : payload.variable);
}

function nonEmptyText(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function checkColumnPayload(column: JsonObject, kind: ColumnKind, path: string, out: Problems): void {
  const rule = COLUMN_KIND_RULES[kind];
  const payloadPath = at(path, rule.payload);
  const payload = column[rule.payload];
  if (payload === undefined || payload === null) {
    out.add(payloadPath, `is required for a column of type ${quote(kind)}`);
    return;
  }
  if (!expectObject(payload, payloadPath, out)) return;
  checkFields(payload, payloadPath, rule.fields, out);
  if (kind === 'input') checkConditionBinding(payload, payloadPath, out);
}

function columnIdOf(value: unknown, path: string, out: Problems): string | undefined {
  if (value === undefined || value === null) {
    out.add(path, 'is required');
    return undefined;
  }
  if ((typeof value === 'string' && value !== '') || (typeof value === 'number' && Number.isFinite(value))) return String(value);
  out.add(path, `must be a non-empty string or a number (got ${describe(value)})`);
  return undefined;
}

const DATE_TEXT = /^\s*\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?\s*$/;

/** A row's validity bound: `"YYYY-MM-DD HH:mm Z"` / ISO-8601 text, or the legacy `{date, time?, timezone?}` (§2.3, §11 F7). */
const timeBound: Check = (value, path, out) => {
  if (typeof value === 'string' && DATE_TEXT.test(value)) return;
  if (isObject(value) && typeof value.date === 'string' && DATE_TEXT.test(value.date)) return;
  out.add(path, `must be a date such as "2024-05-15 01:25 +00:00" or {"date":"2024-05-15","time":"01:25","timezone":"+00:00"} (got ${typeof value === 'string' ? quote(value) : describe(value)})`);
};

const ROW_FIELDS: readonly FieldRule[] = [
  { key: 'active', check: boolean },
  {
    key: 'timeValidation',
    check: (value, path, out) => {
      if (expectObject(value, path, out)) checkFields(value, path, [{ key: 'from', check: timeBound }, { key: 'to', check: timeBound }], out);
    },
  },
];

// Rows and cells are the bulk of a large table (40,000 rows and more): their checks build a path only where it
// is passed on or reported, loop by index, and look each cell's column up once.
function readRows(rows: unknown[], path: string, columns: ReadColumns, out: Problems): RowModel[] {
  const read: RowModel[] = [];
  const cellColumns = new CellColumns(columns);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const rowPath = at(path, i);
    if (!expectObject(row, rowPath, out)) continue;
    checkFields(row, rowPath, ROW_FIELDS, out);
    const stored = row.cells;
    if (stored === undefined || stored === null) {
      out.add(at(rowPath, 'cells'), 'is required');
      continue;
    }
    const cellsPath = at(rowPath, 'cells');
    if (!expectArray(stored, cellsPath, out)) continue;
    const cells = new Array<TableCell | undefined>(columns.columns.length);
    for (let j = 0; j < stored.length; j++) {
      const index = checkCell(stored[j], cellsPath, i, j, cellColumns, out);
      if (index !== undefined) cells[index] = stored[j] as TableCell;
    }
    const timeValidation = isObject(row.timeValidation) ? (row.timeValidation as TimeValidation) : undefined;
    read.push({ position: i, active: row.active !== false, timeValidation, cells, stored });
  }
  return read;
}

/**
 * A cell's value is checked first against a scratch list with no path (a valid value then builds none) and, only
 * when that finds a problem, again with its full path for the report. The checks are pure, so both runs agree; a
 * scratch list left with problems only makes the next cell check twice.
 */
let scratch = new Problems();

function checkCellValue(rule: ColumnKindRule, value: unknown, cellsPath: string, position: number, out: Problems): void {
  rule.cellCheck(value, '', scratch);
  if (scratch.count === 0) return;
  scratch = new Problems();
  rule.cellCheck(value, at(at(cellsPath, position), rule.cellField), out);
}

/** A column as the cells see it: its kind, its index in the model, and the row and cell where a cell last named it. */
interface CellColumn {
  readonly kind: ColumnKind;
  readonly index: number | undefined;
  row: number;
  cell: number;
}

/**
 * The table's columns by id, each remembering the last cell that named it: one lookup tells a cell its column's
 * kind and model index and whether an earlier cell of its row named the same column, without a map per row.
 */
class CellColumns {
  private readonly byId = new Map<string, CellColumn>();

  constructor(columns: ReadColumns) {
    for (const [id, kind] of columns.kindOf) this.byId.set(id, { kind, index: columns.byId.get(id), row: -1, cell: -1 });
  }

  get(id: string): CellColumn | undefined {
    return this.byId.get(id);
  }
}

/** Checks a cell; answers the index of its column in the model when it has a known column of its own. */
function checkCell(cell: unknown, cellsPath: string, row: number, position: number, columns: CellColumns, out: Problems): number | undefined {
  if (!isObject(cell)) {
    expectObject(cell, at(cellsPath, position), out);
    return undefined;
  }
  if (cell.column === undefined || cell.column === null) {
    out.add(at(at(cellsPath, position), 'column'), 'is required (the columnId of the cell\'s column)');
    return undefined;
  }
  const id = String(cell.column);
  const column = columns.get(id);
  if (column === undefined) {
    out.add(at(at(cellsPath, position), 'column'), `unknown column ${quote(id)}`);
    return undefined;
  }
  if (column.row === row) {
    out.add(at(at(cellsPath, position), 'column'), `a second cell for column ${quote(id)} (first at ${at(cellsPath, column.cell)})`);
    return undefined;
  }
  column.row = row;
  column.cell = position;
  // The cell's own `type` repeats its column's and is ignored: the column decides how a cell is read.
  const kind = column.kind;
  const rule = COLUMN_KIND_RULES[kind];
  const value = cell[rule.cellField];
  if (value === undefined || value === null) {
    out.add(at(at(cellsPath, position), rule.cellField), `is required in a cell of a column of type ${quote(kind)}`);
    return column.index;
  }
  checkCellValue(rule, value, cellsPath, position, out);
  return column.index;
}

/**
 * Checks a decision table's body and reads it into its model in one pass. The model is whole only when `out` got
 * no problem from it; with problems it holds what could be read (columns and cells that were well formed).
 */
export function readDecisionTable(doc: JsonObject, out: Problems): DecisionTableModel {
  const model = { type: 'decision-table' as const, document: doc, columns: [] as ColumnModel[], rows: [] as RowModel[] };
  const table = doc.decisionTable;
  if (table === undefined || table === null) {
    out.add('decisionTable', 'is required for a decision table ({"columns": [...], "rows": [...]})');
    return model;
  }
  if (!expectObject(table, 'decisionTable', out)) return model;
  let columns: ReadColumns = { columns: [], byId: new Map(), kindOf: new Map() };
  if (table.columns === undefined || table.columns === null) out.add('decisionTable.columns', 'is required');
  else if (expectArray(table.columns, 'decisionTable.columns', out)) {
    columns = readColumns(table.columns, 'decisionTable.columns', out);
    checkColumnMix(table.columns, out);
  }
  model.columns = columns.columns;
  if (table.rows === undefined || table.rows === null) out.add('decisionTable.rows', 'is required (it may be empty)');
  else if (expectArray(table.rows, 'decisionTable.rows', out)) model.rows = readRows(table.rows, 'decisionTable.rows', columns, out);
  return model;
}

/** At least one condition (or calc) column and one result column (§1.1). */
function checkColumnMix(columns: unknown[], out: Problems): void {
  const kinds = new Set(columns.map((c) => (isObject(c) ? c.type : undefined)));
  if (!kinds.has('output')) out.add('decisionTable.columns', 'a decision table needs at least one result column (type "output")');
  if (!kinds.has('input') && !kinds.has('calc')) {
    out.add('decisionTable.columns', 'a decision table needs at least one condition or calculation column (type "input" or "calc")');
  }
}
