// Lookup-table bodies (spec/rule-format.md §7, §11 F8): columns with exactly one primary key, and rows in any
// of the known `data` encodings. Reading the rows is shared with the lookup compiler so both agree on them.
import { FirstSeen, at, checkFields, describe, expectArray, expectObject, isObject, quote, text } from './check.ts';
import type { FieldRule, JsonObject, Problems } from './check.ts';
import type { LookupColumn, LookupRow, LookupTableData, LookupTableModel } from './model/lookup-table.ts';

export type { LookupColumn, LookupRow, LookupTableData };

const COLUMN_FIELDS: readonly FieldRule[] = [
  { key: 'name', required: true, check: text({ nonEmpty: true }) },
  { key: 'alias', required: true, check: text({ nonEmpty: true }) },
];

/** Checks a lookup table's body and reads its model (whole only when `out` got no problem from it). */
export function readLookupTableModel(doc: JsonObject, out: Problems): LookupTableModel {
  const data = readLookupTable(doc, out);
  const empty = { name: '', alias: '' };
  return { type: 'lookup-table', document: doc, columns: data?.columns ?? [], primaryKey: data?.primaryKey ?? empty, rows: data?.rows ?? [] };
}

/**
 * Reads columns, primary key and rows. Problems go to `out`; the result is undefined when the table cannot be
 * read at all (then `out` says why). The compiler calls this on validated documents only.
 */
export function readLookupTable(doc: JsonObject, out: Problems): LookupTableData | undefined {
  const columns = readColumns(doc, out);
  const primaryKey = columns && readPrimaryKey(doc, columns, out);
  const rows = readRows(doc, primaryKey, out);
  if (!columns || !primaryKey || !rows) return undefined;
  return { columns, primaryKey, rows };
}

function readColumns(doc: JsonObject, out: Problems): LookupColumn[] | undefined {
  if (doc.columns === undefined || doc.columns === null) {
    out.add('columns', 'is required for a lookup table ([{"name": …, "alias": …}, …])');
    return undefined;
  }
  if (!expectArray(doc.columns, 'columns', out)) return undefined;
  if (doc.columns.length === 0) {
    out.add('columns', 'a lookup table needs at least its primary-key column');
    return undefined;
  }
  const columns: LookupColumn[] = [];
  const names = new FirstSeen();
  const aliases = new FirstSeen();
  const before = out.count;
  doc.columns.forEach((column, i) => {
    const path = at('columns', i);
    if (!expectObject(column, path, out)) return;
    const start = out.count;
    checkFields(column, path, COLUMN_FIELDS, out);
    if (out.count !== start) return;
    const name = column.name as string;
    const alias = column.alias as string;
    const earlierName = names.check(name, path);
    if (earlierName) out.add(at(path, 'name'), `duplicate column name ${quote(name)} (also ${earlierName})`);
    const earlierAlias = aliases.check(alias, path);
    if (earlierAlias) out.add(at(path, 'alias'), `duplicate column alias ${quote(alias)} (also ${earlierAlias})`);
    columns.push({ name, alias });
  });
  return out.count === before ? columns : undefined;
}

/** `primaryKeyColumn` names the key column by alias (a string, or an object with `alias`); `isPrimaryKey` flags must agree. */
function readPrimaryKey(doc: JsonObject, columns: LookupColumn[], out: Problems): LookupColumn | undefined {
  const flagged: number[] = [];
  (doc.columns as JsonObject[]).forEach((column, i) => {
    if (column.isPrimaryKey === true) flagged.push(i);
  });
  if (flagged.length > 1) {
    out.add('columns', `a lookup table has exactly one primary-key column (isPrimaryKey is true on ${flagged.map((i) => at('columns', i)).join(', ')})`);
    return undefined;
  }
  const declared = doc.primaryKeyColumn;
  let alias: string | undefined;
  let aliasPath = 'primaryKeyColumn';
  if (typeof declared === 'string' && declared !== '') alias = declared;
  else if (isObject(declared) && typeof declared.alias === 'string' && declared.alias !== '') {
    alias = declared.alias;
    aliasPath = 'primaryKeyColumn.alias';
  } else if (declared !== undefined && declared !== null) {
    out.add('primaryKeyColumn', `must be the alias of the primary-key column, as a string or {"alias": …} (got ${describe(declared)})`);
    return undefined;
  }
  if (alias === undefined) {
    if (flagged.length === 1) return columns[flagged[0]!];
    out.add('primaryKeyColumn', 'is required (the alias of the primary-key column)');
    return undefined;
  }
  const index = columns.findIndex((column) => column.alias === alias);
  if (index < 0) {
    out.add(aliasPath, `names no column: ${quote(alias)} is not the alias of any column`);
    return undefined;
  }
  if (flagged.length === 1 && flagged[0] !== index) {
    out.add(aliasPath, `${quote(alias)} disagrees with ${at('columns', flagged[0]!)}, which has isPrimaryKey true`);
    return undefined;
  }
  return columns[index];
}

interface RawRow {
  path: string;
  /** Key of the map / pair encodings. */
  key?: string;
  cells: JsonObject;
  position: number;
}

/**
 * The encodings of §7 / §11 F8: `data` as an object keyed by primary key (export form), `data` as an array of rows
 * or of `[key, row]` pairs, and `sourceData` as an array of rows (SDK create payloads). `data` wins when it holds rows.
 */
function readRows(doc: JsonObject, primaryKey: LookupColumn | undefined, out: Problems): LookupRow[] | undefined {
  const field = pickDataField(doc);
  if (field === undefined) {
    out.add('data', 'is required for a lookup table (an object keyed by primary key, or an array of rows)');
    return undefined;
  }
  const value = doc[field];
  const raw: RawRow[] = [];
  const before = out.count;
  if (isObject(value) && field === 'data') {
    for (const [key, cells] of Object.entries(value)) {
      const path = at('data', key);
      if (expectObject(cells, path, out)) raw.push({ path, key, cells, position: positionOf(cells, raw.length) });
    }
    raw.sort((a, b) => a.position - b.position);
  } else if (Array.isArray(value)) {
    value.forEach((entry, i) => {
      const path = at(field, i);
      if (isObject(entry)) raw.push({ path, cells: entry, position: i });
      else if (Array.isArray(entry) && field === 'data' && entry.length === 2 && isObject(entry[1])) {
        raw.push({ path: at(path, 1), key: keyText(entry[0]), cells: entry[1], position: i });
      } else out.add(path, `must be a row object or a [key, row] pair (got ${describe(entry)})`);
    });
  } else {
    out.add(field, `must be an object keyed by primary key or an array of rows (got ${describe(value)})`);
    return undefined;
  }
  if (!primaryKey) return undefined;
  const rows = keyRows(raw, primaryKey, out);
  return out.count === before ? rows : undefined;
}

function pickDataField(doc: JsonObject): 'data' | 'sourceData' | undefined {
  const hasRows = (v: unknown) => (Array.isArray(v) ? v.length > 0 : isObject(v) && Object.keys(v).length > 0);
  if (hasRows(doc.data)) return 'data';
  if (hasRows(doc.sourceData)) return 'sourceData';
  if (doc.data !== undefined && doc.data !== null) return 'data';
  if (doc.sourceData !== undefined && doc.sourceData !== null) return 'sourceData';
  return undefined;
}

function keyRows(raw: RawRow[], primaryKey: LookupColumn, out: Problems): LookupRow[] {
  const keys = new FirstSeen();
  const rows: LookupRow[] = [];
  for (const row of raw) {
    const cellPath = at(row.path, primaryKey.alias);
    const cell = row.cells[primaryKey.alias];
    const cellKey = cell === undefined || cell === null || cell === '' ? undefined : keyText(cell);
    if (cell !== undefined && cell !== null && cell !== '' && cellKey === undefined) {
      out.add(cellPath, `a primary key must be text or a number (got ${describe(cell)})`);
      continue;
    }
    if (cellKey !== undefined && row.key !== undefined && cellKey !== row.key) {
      out.add(cellPath, `primary key ${quote(cellKey)} differs from the row's key ${quote(row.key)}`);
      continue;
    }
    const key = cellKey ?? row.key;
    if (key === undefined || key === '') {
      out.add(cellPath, 'is required (every row needs a primary key)');
      continue;
    }
    const earlier = keys.check(key, row.path);
    if (earlier) {
      out.add(cellPath, `duplicate primary key ${quote(key)} (also ${earlier})`);
      continue;
    }
    rows.push({ path: row.path, key, cells: row.cells });
  }
  return rows;
}

/** Primary keys compare as text: `1` and `"1"` are the same key. */
export function keyText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  return undefined;
}

function positionOf(cells: JsonObject, fallback: number): number {
  return typeof cells._position === 'number' && Number.isFinite(cells._position) ? cells._position : fallback;
}
