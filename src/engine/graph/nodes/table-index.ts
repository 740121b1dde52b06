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
 * The index of a column whose cells are few distinct texts however many rows repeat them (zen's 8k table: `< 100`
 * and `endsWith($, '@gmail.com')` in 7,989 rows each): the rows of each distinct cell as a bitset, tested once per
 * solve instead of once per row. A cell answers the same in every row of one table run (same `$`, input, `$nodes`
 * and pinned instant), so the rows of a cell that fails are no candidates and a candidate row passes this column.
 */
export interface GroupIndex<Test> {
  readonly column: number;
  /** Per distinct non-empty cell: its rows and the test of its first row. */
  readonly groups: readonly { readonly rows: Uint32Array; readonly test: Test }[];
  /** Rows whose cell is empty (candidates whatever the value). */
  readonly fallback: Uint32Array;
}

/** Distinct cells a column may have to be grouped: each one is tested per solve, even when row 1 matches. */
const MAX_GROUPS = 8;

/**
 * The group index of one column (`cells`: each row's trimmed cell text; `testOf(row)`: that row's test of the
 * column), or undefined for a small table, too many distinct cells, or a cell that may answer differently per
 * row (one calling rand()).
 */
export function groupColumn<Test>(column: number, cells: readonly string[], testOf: (row: number) => Test): GroupIndex<Test> | undefined {
  const rows = cells.length;
  if (rows < MIN_ROWS) return undefined;
  const words = Math.ceil(rows / 32);
  const byText = new Map<string, { rows: Uint32Array; test: Test }>();
  const fallback = new Uint32Array(words);
  for (let row = 0; row < rows; row++) {
    const text = cells[row];
    const bit = 1 << row % 32;
    if (text === '') {
      fallback[row >> 5] |= bit;
      continue;
    }
    let group = byText.get(text);
    if (!group) {
      if (byText.size === MAX_GROUPS || text.includes('rand')) return undefined;
      byText.set(text, (group = { rows: new Uint32Array(words), test: testOf(row) }));
    }
    group.rows[row >> 5] |= bit;
  }
  return byText.size === 0 ? undefined : { column, groups: [...byText.values()], fallback };
}

/** The rows a literal index leaves for the column's value: its fallback rows and the rows the value hits. */
export function literalCandidates(index: ColumnIndex, value: unknown): Uint32Array[] {
  const hit = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? index.hits.get(value) : undefined;
  return hit ? [index.fallback, hit] : [index.fallback];
}

/**
 * The candidate rows of a solve: per indexed column, the bitsets of the rows it leaves (a row is left when it is in
 * any of them), intersected over the columns. Worked out a 32-row word at a time, when the row loop reaches it: a
 * first-hit table that matches early (zen's 8k table, row 1) reads one word instead of intersecting every word of
 * every indexed column (which was most of such a solve, with the bitset it allocated).
 */
export class CandidateRows {
  readonly #columns: readonly (readonly Uint32Array[])[];
  readonly words: number;

  constructor(columns: readonly (readonly Uint32Array[])[], words: number) {
    this.words = words;
    this.#columns = columns;
  }

  /** The candidate bits of word `w` (rows 32w to 32w + 31). */
  word(w: number): number {
    const columns = this.#columns;
    let bits = ~0;
    for (let i = 0; i < columns.length && bits !== 0; i++) {
      const sets = columns[i];
      let any = 0;
      for (let k = 0; k < sets.length; k++) any |= sets[k][w];
      bits &= any;
    }
    return bits;
  }
}
