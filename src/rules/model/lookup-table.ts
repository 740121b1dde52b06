// The typed model of a lookup table (rule-format §7): its columns, primary key and rows with their keys as text,
// whatever `data` encoding the document used. Read by src/rules/lookup-table.ts while it checks the body.
import type { JsonObject } from '../check.ts';

export interface LookupColumn {
  name: string;
  alias: string;
}

export interface LookupRow {
  /** JSON path of the row in the document, for messages. */
  path: string;
  /** The primary key as text (lookups compare text, §7). */
  key: string;
  cells: JsonObject;
}

export interface LookupTableData {
  columns: LookupColumn[];
  primaryKey: LookupColumn;
  rows: LookupRow[];
}

export interface LookupTableModel extends LookupTableData {
  readonly type: 'lookup-table';
  readonly document: JsonObject;
}
