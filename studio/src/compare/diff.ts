// Compares two versions of a decision table for the side-by-side view: which columns and rows exist on one side
// only, which cells changed, and the ordered list of differences that next/previous walk through. Pure: no DOM,
// no React, so node:test covers it directly.
import type { DecisionTable, RuleDocument, TableColumn, TableRow } from '../api/types.ts';
import { cellText as designerCellText } from '../designer/model/cells.ts';
import { COLUMN_KIND_LABEL, cellValueOf, columnBinding, columnKind, columnName, tableOf as designerTableOf } from '../designer/model/table.ts';

export type Side = 'left' | 'right';
export type ChangeStatus = 'same' | 'changed' | 'left-only' | 'right-only';

export interface ColumnPair {
  columnId: string;
  left?: TableColumn;
  right?: TableColumn;
  status: ChangeStatus;
}

export interface RowPair {
  leftIndex?: number;
  rightIndex?: number;
  status: ChangeStatus;
  /** Column ids (present on both sides) whose cell text differs; empty unless status is 'changed'. */
  changedColumns: string[];
}

export interface Difference {
  kind: 'column' | 'row' | 'cell' | 'model' | 'property';
  /** Index into rows (row and cell differences). */
  row?: number;
  columnId?: string;
  /** What a reader sees in the list of differences. */
  label: string;
}

export interface TableDiff {
  columns: ColumnPair[];
  rows: RowPair[];
  differences: Difference[];
}

/** The text a reader sees in a cell: the designer's one-line form (operator and value, `fx` for expressions). */
export function cellText(row: TableRow | undefined, column: TableColumn): string {
  if (!row) return '';
  return designerCellText(cellValueOf(row, column), columnKind(column));
}

/** Column caption with what it is bound to: `Age (client.age)`. */
export function columnTitle(column: TableColumn): string {
  const name = columnName(column);
  const binding = columnBinding(column);
  const kind = columnKind(column);
  const shown = kind === 'calc' ? `{${binding}}` : binding;
  if (name && binding) return `${name} (${shown})`;
  return name || shown || COLUMN_KIND_LABEL[kind];
}

export function tableOf(rule: RuleDocument | undefined): DecisionTable {
  return designerTableOf(rule) as DecisionTable;
}

/** Column definition without its id and alias: what makes two columns with the same id differ. */
function columnSignature(column: TableColumn): string {
  const { columnId: _id, ...rest } = column;
  return stableJson(rest);
}

/** JSON with object keys sorted: equal for documents that differ only in key order. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function rowSignature(row: TableRow, columns: TableColumn[]): string {
  return `${row.active === false ? '0' : '1'}\u0001${columns.map((column) => cellText(row, column)).join('\u0001')}`;
}

/** Longest common subsequence of two key lists as index pairs; falls back to none beyond `limit` cells of work. */
export function lcs(a: string[], b: string[], limit = 4_000_000): Array<[number, number]> {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0 || n * m > limit) return [];
  const width = m + 1;
  const table = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * width + j] = a[i] === b[j] ? table[(i + 1) * width + j + 1] + 1 : Math.max(table[(i + 1) * width + j], table[i * width + j + 1]);
    }
  }
  const pairs: Array<[number, number]> = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      pairs.push([i, j]);
      i++;
      j++;
    } else if (table[(i + 1) * width + j] >= table[i * width + j + 1]) i++;
    else j++;
  }
  return pairs;
}

/** Length of the common start of two key lists, and where their common end begins in each. */
export function commonEnds(a: readonly string[], b: readonly string[]): { start: number; endA: number; endB: number } {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  return { start, endA, endB };
}

/**
 * Aligns rows: equal rows (same text in every shared column) are anchors found by LCS after trimming the common
 * prefix and suffix; between two anchors, rows are paired in order as changed and the surplus of one side is
 * reported as rows only on that side.
 */
function alignRows(left: TableRow[], right: TableRow[], shared: TableColumn[]): RowPair[] {
  const ls = left.map((r) => rowSignature(r, shared));
  const rs = right.map((r) => rowSignature(r, shared));
  const { start, endA: endL, endB: endR } = commonEnds(ls, rs);
  const anchors = lcs(ls.slice(start, endL), rs.slice(start, endR)).map(([i, j]) => [i + start, j + start] as [number, number]);
  const pairs: RowPair[] = [];
  for (let k = 0; k < start; k++) pairs.push({ leftIndex: k, rightIndex: k, status: 'same', changedColumns: [] });
  let i = start;
  let j = start;
  const gap = (toL: number, toR: number) => {
    while (i < toL && j < toR) {
      const changedColumns = shared.filter((column) => cellText(left[i], column) !== cellText(right[j], column)).map((column) => column.columnId);
      const activeChanged = (left[i].active === false) !== (right[j].active === false);
      pairs.push({ leftIndex: i, rightIndex: j, status: changedColumns.length || activeChanged ? 'changed' : 'same', changedColumns });
      i++;
      j++;
    }
    for (; i < toL; i++) pairs.push({ leftIndex: i, status: 'left-only', changedColumns: [] });
    for (; j < toR; j++) pairs.push({ rightIndex: j, status: 'right-only', changedColumns: [] });
  };
  for (const [ai, aj] of anchors) {
    gap(ai, aj);
    pairs.push({ leftIndex: ai, rightIndex: aj, status: 'same', changedColumns: [] });
    i = ai + 1;
    j = aj + 1;
  }
  gap(endL, endR);
  for (let k = 0; k < ls.length - endL; k++) pairs.push({ leftIndex: endL + k, rightIndex: endR + k, status: 'same', changedColumns: [] });
  return pairs;
}

function alignColumns(left: TableColumn[], right: TableColumn[]): ColumnPair[] {
  const rightById = new Map(right.map((c) => [c.columnId, c]));
  const leftIds = new Set(left.map((c) => c.columnId));
  const pairs: ColumnPair[] = [];
  // Right-side order, with left-only columns placed after the column that precedes them on the left.
  const leftOnlyAfter = new Map<string | null, TableColumn[]>();
  let previousShared: string | null = null;
  for (const column of left) {
    if (rightById.has(column.columnId)) previousShared = column.columnId;
    else leftOnlyAfter.set(previousShared, [...(leftOnlyAfter.get(previousShared) ?? []), column]);
  }
  const pushLeftOnly = (after: string | null) => {
    for (const column of leftOnlyAfter.get(after) ?? []) pairs.push({ columnId: column.columnId, left: column, status: 'left-only' });
  };
  pushLeftOnly(null);
  const leftById = new Map(left.map((c) => [c.columnId, c]));
  for (const column of right) {
    if (!leftIds.has(column.columnId)) {
      pairs.push({ columnId: column.columnId, right: column, status: 'right-only' });
      continue;
    }
    const l = leftById.get(column.columnId)!;
    pairs.push({ columnId: column.columnId, left: l, right: column, status: columnSignature(l) === columnSignature(column) ? 'same' : 'changed' });
    pushLeftOnly(column.columnId);
  }
  return pairs;
}

// Status, lock and timestamps are lifecycle, not content: they are shown with each version, not as differences.
const PROPERTIES = ['name', 'description', 'ruleAlias'] as const;

/** Differences every rule type shares: name, description and alias, and the input and output models. */
export function documentDifferences(leftRule: RuleDocument, rightRule: RuleDocument): Difference[] {
  const differences: Difference[] = [];
  for (const key of PROPERTIES) {
    if (stableJson(leftRule[key]) !== stableJson(rightRule[key])) differences.push({ kind: 'property', label: `${key} changed` });
  }
  for (const key of ['inputSchema', 'outputSchema'] as const) {
    if (stableJson(leftRule[key]) !== stableJson(rightRule[key])) {
      differences.push({ kind: 'model', label: `${key === 'inputSchema' ? 'Input' : 'Output'} model changed` });
    }
  }
  return differences;
}

export function diffTables(leftRule: RuleDocument, rightRule: RuleDocument): TableDiff {
  const left = tableOf(leftRule);
  const right = tableOf(rightRule);
  const columns = alignColumns(left.columns, right.columns);
  const shared = columns.filter((c) => c.left && c.right).map((c) => c.right!);
  const rows = alignRows(left.rows, right.rows, shared);
  const differences: Difference[] = documentDifferences(leftRule, rightRule);
  for (const column of columns) {
    if (column.status === 'same') continue;
    const title = columnTitle((column.right ?? column.left)!);
    const what = column.status === 'changed' ? 'changed' : column.status === 'left-only' ? 'only in the left version' : 'only in the right version';
    differences.push({ kind: 'column', columnId: column.columnId, label: `Column ${title} ${what}` });
  }
  rows.forEach((row, index) => {
    if (row.status === 'left-only' || row.status === 'right-only') {
      const n = (row.leftIndex ?? row.rightIndex)! + 1;
      differences.push({ kind: 'row', row: index, label: `Row ${n} only in the ${row.status === 'left-only' ? 'left' : 'right'} version` });
    } else if (row.status === 'changed') {
      if (row.changedColumns.length === 0) differences.push({ kind: 'row', row: index, label: `Row ${row.rightIndex! + 1} activation changed` });
      for (const columnId of row.changedColumns) {
        const column = columns.find((c) => c.columnId === columnId)!;
        differences.push({ kind: 'cell', row: index, columnId, label: `Row ${row.rightIndex! + 1}, ${columnTitle(column.right!)} changed` });
      }
    }
  });
  return { columns, rows, differences };
}

/** The index of the next (step 1) or previous (step -1) difference, wrapping around; -1 when there is none. */
export function stepDifference(count: number, current: number, step: 1 | -1): number {
  if (count === 0) return -1;
  if (current < 0) return step === 1 ? 0 : count - 1;
  return (current + step + count) % count;
}
