// A lookup table as the designer edits it (spec/rule-format.md §7): named columns with aliases, one of them the
// primary key, and rows of cells keyed by column alias. Plain immutable data: every edit returns a new model that
// shares the untouched rows, so undo snapshots and 40,000-row tables stay cheap.
import type { RuleDocument } from '../api/types.ts';

export interface LookupColumn {
  name: string;
  alias: string;
}

/** Cells by column alias. Cells are text when the Studio wrote them; documents from elsewhere may hold numbers. */
export type LookupRow = Readonly<Record<string, unknown>>;

export interface LookupModel {
  readonly columns: readonly LookupColumn[];
  /** Alias of the primary-key column; that column is always first. */
  readonly primaryKey: string;
  readonly rows: readonly LookupRow[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A cell as the grid and CSV show it. */
export function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** The key a row is found by: the primary-key cell as text (lookups compare text, so 1 and "1" are one key). */
export function rowKey(model: LookupModel, row: LookupRow): string {
  return cellText(row[model.primaryKey]);
}

// ---- reading and writing rule documents ----

function readColumns(doc: RuleDocument): LookupColumn[] {
  const raw: unknown[] = Array.isArray(doc.columns) ? doc.columns : [];
  return raw.filter(isObject).map((c, i) => ({
    name: typeof c.name === 'string' ? c.name : `Column ${i + 1}`,
    alias: typeof c.alias === 'string' && c.alias !== '' ? c.alias : `column${i + 1}`,
  }));
}

function readPrimaryKey(doc: RuleDocument, columns: readonly LookupColumn[]): string {
  const declared = doc.primaryKeyColumn;
  const alias = typeof declared === 'string' ? declared : isObject(declared) && typeof declared.alias === 'string' ? declared.alias : undefined;
  if (alias !== undefined && columns.some((c) => c.alias === alias)) return alias;
  const flagged = Array.isArray(doc.columns) ? doc.columns.findIndex((c: unknown) => isObject(c) && c.isPrimaryKey === true) : -1;
  return columns[flagged]?.alias ?? columns[0]?.alias ?? 'key';
}

function withoutPosition(cells: Record<string, unknown>): LookupRow {
  if (!('_position' in cells)) return cells;
  const { _position: _dropped, ...rest } = cells;
  return rest;
}

/** Rows from every encoding the server reads (§7, §11 F8): `data` as a map keyed by primary key (ordered by `_position`), as an array of rows or of `[key, row]` pairs, or `sourceData`. */
function readRows(doc: RuleDocument, primaryKey: string): LookupRow[] {
  const has = (v: unknown) => (Array.isArray(v) ? v.length > 0 : isObject(v) && Object.keys(v).length > 0);
  const value: unknown = has(doc.data) || !has(doc.sourceData) ? doc.data : doc.sourceData;
  const withKey = (cells: Record<string, unknown>, key: string | undefined): LookupRow => {
    const row = withoutPosition(cells);
    const cell = row[primaryKey];
    return key !== undefined && (cell === undefined || cell === null || cell === '') ? { ...row, [primaryKey]: key } : row;
  };
  if (Array.isArray(value)) {
    return value.flatMap((entry): LookupRow[] => {
      if (isObject(entry)) return [withKey(entry, undefined)];
      if (Array.isArray(entry) && entry.length === 2 && isObject(entry[1])) return [withKey(entry[1], cellText(entry[0]))];
      return [];
    });
  }
  if (!isObject(value)) return [];
  const entries = Object.entries(value).filter((e): e is [string, Record<string, unknown>] => isObject(e[1]));
  const position = (cells: Record<string, unknown>, fallback: number) => (typeof cells._position === 'number' && Number.isFinite(cells._position) ? cells._position : fallback);
  return entries
    .map(([key, cells], i) => ({ at: position(cells, i), row: withKey(cells, key) }))
    .sort((a, b) => a.at - b.at)
    .map((e) => e.row);
}

/** The model of a lookup-table document; the primary-key column comes first. */
export function readLookup(doc: RuleDocument): LookupModel {
  const columns = readColumns(doc);
  const primaryKey = readPrimaryKey(doc, columns);
  const ordered = [...columns.filter((c) => c.alias === primaryKey), ...columns.filter((c) => c.alias !== primaryKey)];
  return { columns: ordered, primaryKey, rows: readRows(doc, primaryKey) };
}

/**
 * The document with the model written into it; every other field is kept. `data` takes the DecisionRules export
 * form (a map keyed by primary key, with `_position`) when every key is present and unique. Otherwise a map
 * cannot hold the rows, so `data` is an array of rows: nothing typed is lost, and the server names the bad keys
 * on save (docs/decisions/studio-lookup-tables.md).
 */
export function writeLookup(doc: RuleDocument, model: LookupModel): RuleDocument {
  const { sourceData: _replaced, ...rest } = doc;
  const columns = model.columns.map((c) => ({ name: c.name, alias: c.alias, isPrimaryKey: c.alias === model.primaryKey }));
  const data = keysAreValid(model)
    ? Object.fromEntries(model.rows.map((row, i) => [rowKey(model, row), positioned(row, i)]))
    : model.rows.map((row) => ({ ...row }));
  return { ...rest, primaryKeyColumn: model.primaryKey, columns, data };
}

/** Written rows by model row: an edit of one cell in 40,000 rows writes one new row object, not 40,000. */
const written = new WeakMap<LookupRow, { at: number; cells: LookupRow }>();

function positioned(row: LookupRow, at: number): LookupRow {
  const hit = written.get(row);
  if (hit && hit.at === at) return hit.cells;
  const cells = { ...row, _position: at };
  written.set(row, { at, cells });
  return cells;
}

/** A new lookup table the server accepts as it is: a key and a value column, no rows. */
export function blankLookup(name: string): RuleDocument {
  return {
    type: 'lookup-table',
    name,
    status: 'pending',
    inputSchema: { primaryKey: {}, outputColumn: {} },
    outputSchema: { output: {} },
    primaryKeyColumn: 'key',
    columns: [{ name: 'Key', alias: 'key', isPrimaryKey: true }, { name: 'Value', alias: 'value', isPrimaryKey: false }],
    data: {},
  };
}

// ---- keys ----

/** Rows by key text, for the uniqueness check. */
export function keyIndex(model: LookupModel): Map<string, number[]> {
  const index = new Map<string, number[]>();
  model.rows.forEach((row, i) => {
    const key = rowKey(model, row);
    const list = index.get(key);
    if (list) list.push(i);
    else index.set(key, [i]);
  });
  return index;
}

function listRows(rows: readonly number[]): string {
  const shown = rows.slice(0, 3).map((r) => r + 1).join(', ');
  return rows.length > 3 ? `${shown} and ${rows.length - 3} more` : shown;
}

/** What is wrong with `key` as the key of row `row` (0-based), given the other rows' keys; undefined when it is fine. */
export function keyProblem(index: ReadonlyMap<string, readonly number[]>, row: number, key: string): string | undefined {
  if (key === '') return 'A primary key is required: lookups find rows by it.';
  const others = (index.get(key) ?? []).filter((r) => r !== row);
  if (others.length === 0) return undefined;
  return `Duplicate primary key "${key}": also in row${others.length === 1 ? '' : 's'} ${listRows(others)}.`;
}

/** Every row whose key is empty or shared with another row, with the message to show on its key cell. */
export function keyProblems(model: LookupModel, index: ReadonlyMap<string, readonly number[]> = keyIndex(model)): Map<number, string> {
  const out = new Map<number, string>();
  for (const [key, rows] of index) {
    if (key !== '' && rows.length === 1) continue;
    for (const r of rows) out.set(r, keyProblem(index, r, key)!);
  }
  return out;
}

export function keysAreValid(model: LookupModel): boolean {
  const seen = new Set<string>();
  for (const row of model.rows) {
    const key = rowKey(model, row);
    if (key === '' || seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}

// ---- edits ----

/** An alias made from a column name as DecisionRules makes them ("Bank Name" -> "bankname"), unique in the table. */
export function aliasFor(name: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  const base = name.toLowerCase().replace(/[^a-z0-9]+/g, '') || 'column';
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}${n}`)) return `${base}${n}`;
}

/** A name not used by another column: "Column", "Column 2", … */
function freeName(model: LookupModel, base: string): string {
  const names = new Set(model.columns.map((c) => c.name));
  if (!names.has(base)) return base;
  for (let n = 2; ; n++) if (!names.has(`${base} ${n}`)) return `${base} ${n}`;
}

export function addColumn(model: LookupModel, name = 'Column'): { model: LookupModel; index: number } {
  const unique = freeName(model, name);
  const column = { name: unique, alias: aliasFor(unique, model.columns.map((c) => c.alias)) };
  return { model: { ...model, columns: [...model.columns, column] }, index: model.columns.length };
}

/** Checks a column's new name and alias: both non-empty and unique in the table. Returns the problem, if any. */
export function columnProblem(model: LookupModel, index: number, name: string, alias: string): string | undefined {
  if (name.trim() === '') return 'The column needs a name.';
  if (alias.trim() === '') return 'The column needs an alias (LOOKUP_VALUE finds columns by name or alias).';
  if (!/^[A-Za-z0-9_-]+$/.test(alias)) return 'An alias is letters, digits, "-" and "_" only.';
  if (alias === '_position') return '"_position" is reserved for the row order.';
  const other = model.columns.findIndex((c, i) => i !== index && (c.name === name || c.alias === alias));
  if (other >= 0) return model.columns[other]!.name === name ? `Column ${other + 1} is already called "${name}".` : `Column ${other + 1} already has the alias "${alias}".`;
  return undefined;
}

/** Renames a column; a new alias moves every row's cell to it. Throws with the problem when the name or alias is not allowed. */
export function renameColumn(model: LookupModel, index: number, name: string, alias = model.columns[index]!.alias): LookupModel {
  const problem = columnProblem(model, index, name, alias);
  if (problem) throw new Error(problem);
  const old = model.columns[index]!.alias;
  const columns = model.columns.map((c, i) => (i === index ? { name, alias } : c));
  if (old === alias) return { ...model, columns };
  const rows = model.rows.map((row) => {
    if (!(old in row)) return row;
    const { [old]: value, ...rest } = row;
    return { ...rest, [alias]: value };
  });
  return { columns, rows, primaryKey: model.primaryKey === old ? alias : model.primaryKey };
}

/** Removes a column and its cells. The primary-key column cannot go: make another column the key first. */
export function deleteColumn(model: LookupModel, index: number): LookupModel {
  const column = model.columns[index];
  if (!column) return model;
  if (column.alias === model.primaryKey) throw new Error(`"${column.name}" is the primary key; make another column the key before deleting it.`);
  const rows = model.rows.map((row) => {
    if (!(column.alias in row)) return row;
    const { [column.alias]: _dropped, ...rest } = row;
    return rest;
  });
  return { ...model, columns: model.columns.filter((_, i) => i !== index), rows };
}

/** Makes a column the primary key; it moves to the front, as the key column is always first. */
export function setPrimaryKey(model: LookupModel, index: number): LookupModel {
  const column = model.columns[index];
  if (!column || column.alias === model.primaryKey) return model;
  return { ...model, primaryKey: column.alias, columns: [column, ...model.columns.filter((_, i) => i !== index)] };
}

/** Inserts an empty row at `at` (default: the end). Its key is empty until typed, and flagged as such. */
export function addRow(model: LookupModel, at = model.rows.length): LookupModel {
  const rows = model.rows.slice();
  rows.splice(at, 0, Object.fromEntries(model.columns.map((c) => [c.alias, ''])));
  return { ...model, rows };
}

export function deleteRows(model: LookupModel, indices: Iterable<number>): LookupModel {
  const drop = new Set(indices);
  return drop.size === 0 ? model : { ...model, rows: model.rows.filter((_, i) => !drop.has(i)) };
}

export function setCell(model: LookupModel, row: number, col: number, text: string): LookupModel {
  const column = model.columns[col];
  const current = model.rows[row];
  if (!column || !current || cellText(current[column.alias]) === text) return model;
  const rows = model.rows.slice();
  rows[row] = { ...current, [column.alias]: text };
  return { ...model, rows };
}

/** Writes a block of texts (pasted from a spreadsheet) with its top-left at (top, left); rows are added as needed, fields right of the last column are counted and left out. */
export function pasteBlock(model: LookupModel, top: number, left: number, block: readonly (readonly string[])[]): { model: LookupModel; createdRows: number; droppedFields: number } {
  let next = model;
  let createdRows = 0;
  while (next.rows.length < top + block.length) {
    next = addRow(next);
    createdRows++;
  }
  const rows = next.rows.slice();
  let droppedFields = 0;
  block.forEach((line, i) => {
    const cells: Record<string, unknown> = { ...rows[top + i] };
    line.forEach((text, j) => {
      const column = model.columns[left + j];
      if (column) cells[column.alias] = text;
      else droppedFields++;
    });
    rows[top + i] = cells;
  });
  return { model: { ...next, rows }, createdRows, droppedFields };
}

/** The block's cells as text (for copying). */
export function blockTexts(model: LookupModel, top: number, left: number, bottom: number, right: number): string[][] {
  const out: string[][] = [];
  for (let r = top; r <= bottom && r < model.rows.length; r++) {
    out.push(model.columns.slice(left, right + 1).map((c) => cellText(model.rows[r]![c.alias])));
  }
  return out;
}

/** Empties the block's cells. */
export function clearBlock(model: LookupModel, top: number, left: number, bottom: number, right: number): LookupModel {
  const aliases = model.columns.slice(left, right + 1).map((c) => c.alias);
  const rows = model.rows.slice();
  for (let r = top; r <= bottom && r < rows.length; r++) rows[r] = { ...rows[r], ...Object.fromEntries(aliases.map((a) => [a, ''])) };
  return { ...model, rows };
}

// ---- server problems ----

export interface LookupProblem {
  path: string;
  message: string;
}

/**
 * Places the server's problems (JSON paths as src/rules writes them) on rows: `data[3].pk` (array encoding, row 3),
 * `data.KEY.pk` or `data["a key"].pk` (map encoding, the row with that key); the rest stays for the list above the grid.
 */
export function locateProblems(model: LookupModel, problems: readonly LookupProblem[]): { rows: Map<number, string[]>; other: LookupProblem[] } {
  const rows = new Map<number, string[]>();
  const other: LookupProblem[] = [];
  let index: Map<string, number[]> | undefined;
  for (const problem of problems) {
    const path = typeof problem.path === 'string' ? problem.path.replace(/^rule\./, '') : '';
    const match = /^(?:data|sourceData)(?:\[(\d+)\]|\.([A-Za-z_$][\w$]*)|\[("(?:[^"\\]|\\.)*")\])(.*)$/.exec(path);
    let row: number | undefined;
    if (match?.[1] !== undefined) row = Number(match[1]);
    else if (match) {
      const key = match[2] ?? (JSON.parse(match[3]!) as string);
      index ??= keyIndex(model);
      row = index.get(key)?.[0];
    }
    if (row === undefined || row >= model.rows.length) {
      other.push(problem);
      continue;
    }
    const detail = match![4] ? `${match![4].replace(/^[.[]/, '').replace(/\]$/, '')}: ${problem.message}` : problem.message;
    rows.set(row, [...(rows.get(row) ?? []), detail]);
  }
  return { rows, other };
}
