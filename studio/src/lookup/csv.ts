// CSV in and out of a lookup table (papaparse). The first row is the header; its names map to the table's
// columns by name, then by alias (case and surrounding spaces ignored), so an exported file imports back onto the
// same columns. Malformed input is refused as a whole with messages that name the line and the column: an
// import never drops a row or a value silently.
import Papa from 'papaparse';
import { aliasFor, cellText } from './model.ts';
import type { LookupColumn, LookupModel, LookupRow } from './model.ts';

export interface CsvTable {
  header: string[];
  /** Data records, each with the 1-based line of the file it starts on. */
  records: { line: number; fields: string[] }[];
}

export type CsvResult<T> = { ok: true; value: T } | { ok: false; errors: string[] };

/** At most this many problems are listed; the rest are counted. */
const MAX_ERRORS = 10;

class Collector {
  readonly errors: string[] = [];
  more = 0;
  add(message: string): void {
    if (this.errors.length < MAX_ERRORS) this.errors.push(message);
    else this.more++;
  }
  finish(): string[] {
    return this.more ? [...this.errors, `… and ${this.more} more problem${this.more === 1 ? '' : 's'}.`] : this.errors;
  }
}

function columnLabel(header: readonly string[], index: number): string {
  const name = header[index];
  return name ? `column ${index + 1} ("${name}")` : `column ${index + 1}`;
}

/** Parses CSV text (delimiter detected: comma, semicolon, tab…; a UTF-8 byte order mark is ignored; blank lines are skipped). */
export function parseCsv(text: string): CsvResult<CsvTable> {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const errors = new Collector();
  const rows: { line: number; fields: string[] }[] = [];
  // Line numbers: count line breaks up to where each record starts (papaparse's step gives where each one ends).
  let counted = 0;
  let line = 1;
  const lineAt = (offset: number) => {
    for (; counted < offset && counted < source.length; counted++) {
      const c = source.charCodeAt(counted);
      if (c === 10 || (c === 13 && source.charCodeAt(counted + 1) !== 10)) line++;
    }
    return line;
  };
  let start = 0;
  Papa.parse<string[]>(source, {
    skipEmptyLines: 'greedy',
    step(result) {
      // blank lines skipped before this record
      while (start < source.length && (source[start] === '\n' || source[start] === '\r')) start++;
      const at = lineAt(start);
      const fields = result.data;
      for (const error of result.errors) {
        if (error.code === 'UndetectableDelimiter') continue; // one column: nothing to detect
        const where = fields.length > 0 ? `, ${columnLabel(rows[0]?.fields ?? [], fields.length - 1)}` : '';
        const what = error.code === 'MissingQuotes' ? 'a quoted value is never closed (a " is missing)' : error.code === 'InvalidQuotes' ? 'a quote inside a quoted value must be doubled ("")' : error.message;
        errors.add(`Line ${at}${where}: ${what}.`);
      }
      rows.push({ line: at, fields });
      start = result.meta.cursor;
    },
  });
  if (rows.length === 0) return { ok: false, errors: ['The file is empty: the first line must name the columns.'] };
  const [head, ...records] = rows;
  const header = head!.fields.map((h) => h.trim());
  const seen = new Map<string, number>();
  header.forEach((name, i) => {
    if (name === '') errors.add(`Line ${head!.line}, column ${i + 1}: the header names no column (every column needs a name).`);
    const key = name.toLowerCase();
    const earlier = seen.get(key);
    if (name !== '' && earlier !== undefined) errors.add(`Line ${head!.line}, column ${i + 1}: "${name}" is also the name of column ${earlier + 1}.`);
    else seen.set(key, i);
  });
  for (const record of records) {
    const n = record.fields.length;
    if (n > header.length) {
      errors.add(`Line ${record.line}, column ${header.length + 1}: ${n} values but the header names ${header.length} column${header.length === 1 ? '' : 's'}; "${record.fields[header.length]}" has no column.`);
    } else if (n < header.length) {
      errors.add(`Line ${record.line}, ${columnLabel(header, n)}: no value (${n} value${n === 1 ? '' : 's'} for ${header.length} columns).`);
    }
  }
  if (errors.errors.length > 0) return { ok: false, errors: errors.finish() };
  return { ok: true, value: { header, records } };
}

/** The column a header name refers to: by name, then alias, ignoring case and surrounding spaces. */
function matchColumn(columns: readonly LookupColumn[], name: string): LookupColumn | undefined {
  const wanted = name.trim().toLowerCase();
  return columns.find((c) => c.name.trim().toLowerCase() === wanted) ?? columns.find((c) => c.alias.toLowerCase() === wanted);
}

export type ImportMode = 'replace' | 'append';

/**
 * The model after importing a parsed CSV.
 * - replace: the CSV's columns and rows become the table. Columns whose name matches one of the table keep its
 *   alias (so LOOKUP_VALUE calls by alias keep working); the key stays the key column if the CSV has it, else the
 *   CSV's first column is the key.
 * - append: the rows are added after the existing ones. Every CSV column must match a table column and the key
 *   column must be there; columns the CSV lacks are left empty.
 */
export function importCsv(model: LookupModel, csv: CsvTable, mode: ImportMode): CsvResult<LookupModel> {
  // Two CSV columns never land on one table column (say "Swift Code" by name and "pk" by alias): the second one
  // counts as unmatched.
  const used = new Set<LookupColumn>();
  const matched = csv.header.map((name) => {
    const column = matchColumn(model.columns, name);
    if (!column || used.has(column)) return undefined;
    used.add(column);
    return column;
  });
  let columns: readonly LookupColumn[];
  let primaryKey: string;
  if (mode === 'append') {
    const unknown = csv.header.map((name, i) => (matched[i] ? undefined : `Column ${i + 1} of the CSV ("${name}") matches no column of the table (${model.columns.map((c) => c.name).join(', ')}); use Replace to take the CSV's columns.`)).filter((m): m is string => m !== undefined);
    const key = model.columns.find((c) => c.alias === model.primaryKey);
    if (key && !matched.includes(key)) unknown.push(`The CSV has no "${key.name}" column: every appended row needs its primary key.`);
    if (unknown.length > 0) return { ok: false, errors: unknown };
    columns = model.columns;
    primaryKey = model.primaryKey;
  } else {
    const taken: string[] = matched.filter((c): c is LookupColumn => c !== undefined).map((c) => c.alias);
    columns = csv.header.map((name, i) => {
      const existing = matched[i];
      if (existing) return { name, alias: existing.alias };
      const alias = aliasFor(name, taken);
      taken.push(alias);
      return { name, alias };
    });
    primaryKey = columns.find((c) => c.alias === model.primaryKey)?.alias ?? columns[0]!.alias;
    columns = [...columns.filter((c) => c.alias === primaryKey), ...columns.filter((c) => c.alias !== primaryKey)];
  }
  const aliases = csv.header.map((name, i) => (mode === 'append' ? matched[i]!.alias : columns.find((c) => c.name === name)!.alias));
  const empty = mode === 'append' ? Object.fromEntries(columns.map((c) => [c.alias, ''])) : {};
  const imported: LookupRow[] = csv.records.map((record) => {
    const row: Record<string, unknown> = { ...empty };
    record.fields.forEach((field, i) => {
      row[aliases[i]!] = field;
    });
    return row;
  });
  return { ok: true, value: { columns, primaryKey, rows: mode === 'append' ? [...model.rows, ...imported] : imported } };
}

/** The table as CSV (RFC 4180: comma, CRLF, quotes where needed), headed by the column names, key column first. */
export function toCsv(model: LookupModel): string {
  return Papa.unparse(
    { fields: model.columns.map((c) => c.name), data: model.rows.map((row) => model.columns.map((c) => cellText(row[c.alias]))) },
    { newline: '\r\n' },
  );
}
