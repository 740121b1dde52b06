// The row index of a large decision table (zen's decision_table/index.rs, the same idea): for a column whose
// cells are mostly literal equalities (`'GB'`, `'GB', 'US'`), the rows each value can match, as bitsets; rows
// with an empty or any other cell in that column are always candidates. A solve intersects the candidates of
// every indexed column and tests only those rows, in order, so answers are the same as testing every row.
import type { Literal } from './table-cells.ts';

export interface ColumnIndex {
  /** The input column (its index among the table's inputs). */
  readonly column: number;
  /** Rows whose cell equals the value, as bitsets of the rows. */
  readonly hits: ReadonlyMap<Literal, Uint32Array>;
  /** Rows that are candidates whatever the value (empty or non-literal cells). */
  readonly fallback: Uint32Array;
}

/** Tables below this many rows are tested row by row: an index would not pay for itself. */
const MIN_ROWS = 32;

/** A column's cells: literals of a literal-equality cell, undefined for an empty or any other cell. */
export type ColumnCells = readonly (readonly Literal[] | undefined)[];

/** The index of one column, or undefined when too few of its cells are literal equalities. */
export function indexColumn(column: number, cells: ColumnCells): ColumnIndex | undefined {
  const rows = cells.length;
  const literalRows = cells.filter((c) => c !== undefined).length;
  if (rows < MIN_ROWS || literalRows * 2 < rows) return undefined;
  const words = Math.ceil(rows / 32);
  const hits = new Map<Literal, Uint32Array>();
  const fallback = new Uint32Array(words);
  cells.forEach((literals, row) => {
    const bit = 1 << row % 32;
    const word = row >> 5;
    if (!literals) {
      fallback[word] |= bit;
      return;
    }
    for (const value of literals) {
      let set = hits.get(value);
      if (!set) hits.set(value, (set = new Uint32Array(words)));
      set[word] |= bit;
    }
  });
  return { column, hits, fallback };
}

/**
 * The candidate rows for the columns' values (`valueOf(column)`), as a bitset: for each indexed column, the rows
 * its value hits plus its fallback rows, intersected.
 */
export function candidates(indexes: readonly ColumnIndex[], words: number, valueOf: (column: number) => unknown): Uint32Array {
  const out = new Uint32Array(words);
  indexes.forEach((index, i) => {
    const value = valueOf(index.column);
    const hit = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? index.hits.get(value) : undefined;
    const { fallback } = index;
    if (i === 0) {
      for (let w = 0; w < words; w++) out[w] = fallback[w] | (hit ? hit[w] : 0);
    } else {
      for (let w = 0; w < words; w++) out[w] &= fallback[w] | (hit ? hit[w] : 0);
    }
  });
  return out;
}
