// Candidate rows for one input, answered from per-column indexes instead of a scan (SPEC §9 "Speed").
//
// For a condition column bound to an input path, every row's cell is filed under one of:
//   - hash: a constant `=` or `IN` cell, keyed the way looseEquals compares (numbers by value, boolean-likes by
//     truth, other text exactly);
//   - range: a constant `<`, `<=`, `>`, `>=` or between-family cell with numeric bounds, as an interval over the
//     elementary segments between all bounds of the column;
//   - group: a function cell whose outcome is the same in every row of one solve (ConditionStep.memo >= 0),
//     rows with the same expression together; a group's rows are candidates when its expression holds, which is
//     evaluated once per solve and remembered for the rows (TableScope.passes);
//   - wildcard: anything else (ANY, ELSE, variables, other functions, dates, negative operators...), always a
//     candidate.
// For an input value the column yields hash(L) + range(L) + true groups + wildcard: a superset of the rows whose
// cell passes, in row order. The table then evaluates only the candidate rows, with every condition checked as
// usual, so results, row order, ELSE and include/exclude behave exactly as in a scan (ELSE cells are wildcards,
// and rows left out could not have matched, so "an earlier row matched" is unchanged). A column is left out of a solve
// when the value's kind makes the index unsafe (objects, non-finite numbers against ranges) or when include/exclude
// options skip it. Text that is not numeric and booleans pass no numeric range (tables-mixed-comparison.md).
import type { CompiledCondition } from '../cells/condition.ts';
import type { ConditionStep } from './steps.ts';
import { isNumericText, prepareOperand } from '../cells/operands.ts';

/** Tables below this many active rows are scanned: the index does not pay for itself. */
export const INDEX_MIN_ROWS = 32;

/** A column whose candidate list would exceed this share of the rows is not worth consulting. */
const SELECTIVE_SHARE = 0.5;

/**
 * Expression groups per column, the largest kept: each costs one evaluation per solve that consults the column.
 * Expressions shared by fewer rows than GROUP_MIN_ROWS stay wildcards (their rows evaluate them, once per solve).
 */
const MAX_GROUPS = 16;
const GROUP_MIN_ROWS = 2;

/** See candidates(): how many rows of a column may be marked to remove one candidate. */
const INTERSECT_RATIO = 16;

const EMPTY: readonly number[] = [];

/** Answers a repeatable function cell for the current solve (evaluated at most once per solve). */
export interface GroupTester {
  passes(cell: ConditionStep): boolean;
}

interface ExpressionGroup {
  /** One of the group's cells (they share the expression and its memo slot). */
  readonly cell: ConditionStep;
  readonly rows: readonly number[];
}

interface RangeIndex {
  readonly points: Float64Array;
  /** Rows per elementary segment: 2i = open gap below points[i], 2i+1 = exactly points[i], 2k = above all. */
  readonly segments: readonly (readonly number[])[];
}

class ColumnIndex {
  readonly condIndex: number;
  readonly numbers = new Map<number, number[]>();
  readonly texts = new Map<string, number[]>();
  readonly trues: number[] = [];
  readonly falses: number[] = [];
  wildcard: number[] = [];
  groups: readonly ExpressionGroup[] = [];
  range: RangeIndex | undefined;
  /** Rows filed under hash or range. */
  indexedRows = 0;

  constructor(condIndex: number) {
    this.condIndex = condIndex;
  }

  // The last select(): hash and range rows for the value (with `wildcard`, sorted and disjoint), and their count.
  // Scratch state of one candidates() call, which runs start to finish without yielding.
  hashHit: readonly number[] = EMPTY;
  rangeHit: readonly number[] = EMPTY;
  selected = 0;

  /**
   * Looks `left` up: afterwards hashHit + rangeHit + wildcard (+ the groups whose expression holds) hold every row
   * whose cell may pass. Returns false when the value's kind makes the index unsafe for this column.
   */
  select(left: unknown): boolean {
    let hash: readonly number[] = EMPTY;
    let range: readonly number[] = EMPTY;
    switch (typeof left) {
      case 'undefined':
        break;
      case 'number':
        if (Number.isFinite(left)) {
          hash = this.numbers.get(left) ?? EMPTY;
          range = this.rangeRows(left);
        } else if (this.range) return false;
        else hash = this.texts.get(String(left)) ?? EMPTY;
        break;
      case 'string':
        if (isNumericText(left)) {
          const n = Number(left);
          hash = this.numbers.get(n) ?? EMPTY;
          range = this.rangeRows(n);
        } else if (left === 'true') hash = this.trues; // text that is not numeric passes no numeric range
        else if (left === 'false') hash = this.falses;
        else hash = this.texts.get(left) ?? EMPTY;
        break;
      case 'boolean':
        hash = left ? this.trues : this.falses;
        break;
      case 'object':
        if (left !== null) return false;
        break;
      default:
        return false;
    }
    this.hashHit = hash;
    this.rangeHit = range;
    this.selected = hash.length + range.length + this.wildcard.length;
    return true;
  }

  private rangeRows(n: number): readonly number[] {
    const range = this.range;
    if (!range) return EMPTY;
    const points = range.points;
    let lo = 0;
    let hi = points.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (points[mid]! < n) lo = mid + 1;
      else hi = mid;
    }
    const segment = lo < points.length && points[lo] === n ? 2 * lo + 1 : 2 * lo;
    return range.segments[segment]!;
  }
}

/** One compiled row as the index sees it: its cells in column order. */
export interface IndexRow {
  readonly steps: readonly unknown[];
}

/** A condition column to index: its condIndex and the position of its cells in IndexRow.steps. */
export interface IndexableColumn {
  readonly condIndex: number;
  readonly position: number;
}

export class TableIndex {
  private readonly columns: readonly ColumnIndex[];
  private readonly rowCount: number;
  private readonly stamps: Uint32Array;
  private generation = 0;
  /** Some column has expression groups: candidates() then needs a GroupTester. */
  readonly hasGroups: boolean;
  // Scratch lists of one candidates() call.
  private readonly others: ColumnIndex[] = [];
  private readonly grouped: ColumnIndex[] = [];

  private constructor(columns: ColumnIndex[], rowCount: number) {
    this.columns = columns;
    this.rowCount = rowCount;
    this.stamps = new Uint32Array(rowCount);
    this.hasGroups = columns.some((column) => column.groups.length > 0);
  }

  /**
   * Builds indexes for the condition columns listed in `indexable` (those bound to an input path). Returns
   * undefined when no column would narrow the rows enough to be worth it.
   */
  static build(rows: readonly IndexRow[], indexable: readonly IndexableColumn[]): TableIndex | undefined {
    const columns: ColumnIndex[] = [];
    for (const { condIndex, position } of indexable) {
      const column = buildColumn(rows, condIndex, position);
      if (column.indexedRows > 0 && column.wildcard.length <= rows.length * SELECTIVE_SHARE) columns.push(column);
    }
    return columns.length === 0 ? undefined : new TableIndex(columns, rows.length);
  }

  /**
   * Candidate row positions (sorted) for one solve, or undefined when a scan is as good. `lefts` are the left
   * operands by condIndex; `skip[condIndex]` marks columns the include/exclude options switched off; `tester`
   * answers expression groups (columns with groups are left out without it).
   *
   * Columns answered by hash and range alone come first, most selective first. Columns with expression groups
   * follow, each only while the candidates outnumber its groups: evaluating its expressions must cost less than
   * visiting the rows it could remove.
   */
  candidates(lefts: readonly unknown[], skip: readonly boolean[] | undefined, tester?: GroupTester): number[] | undefined {
    const limit = this.rowCount * SELECTIVE_SHARE;
    // Scratch arrays reused across solves: only the first otherCount / groupedCount entries are this call's.
    const others = this.others;
    const grouped = this.grouped;
    let otherCount = 0;
    let groupedCount = 0;
    let best: ColumnIndex | undefined;
    const columns = this.columns;
    for (let i = 0; i < columns.length; i++) {
      const column = columns[i]!;
      if (skip !== undefined && skip[column.condIndex]) continue;
      if (!column.select(lefts[column.condIndex])) continue;
      if (column.groups.length > 0) {
        if (tester !== undefined) grouped[groupedCount++] = column;
      } else if (column.selected <= limit) {
        if (best === undefined) best = column;
        else if (column.selected < best.selected) {
          others[otherCount++] = best;
          best = column;
        } else others[otherCount++] = column;
      }
    }
    let candidates = best === undefined ? undefined : mergeSorted(best.hashHit, best.rangeHit, best.wildcard);
    if (candidates !== undefined && otherCount > 0 && candidates.length > 1) {
      const rest = others.slice(0, otherCount).sort((a, b) => a.selected - b.selected);
      for (const other of rest) {
        // Marking a column's rows costs about as much per row as a candidate's cells cost to check per
        // INTERSECT_RATIO rows: a column much wider than the candidates is cheaper left to the row checks.
        if (other.selected > INTERSECT_RATIO * candidates.length) break;
        candidates = this.intersect(candidates, other, undefined);
        if (candidates.length <= 1) break;
      }
    }
    if (groupedCount > 0) {
      const withGroups = groupedCount === 1 ? grouped : grouped.slice(0, groupedCount).sort((a, b) => a.groups.length - b.groups.length);
      for (let i = 0; i < groupedCount; i++) {
        const column = withGroups[i]!;
        if (candidates !== undefined && candidates.length <= column.groups.length) break;
        let size = column.selected;
        const groups = column.groups;
        for (let g = 0; g < groups.length; g++) if (tester!.passes(groups[g]!.cell)) size += groups[g]!.rows.length;
        if (size > limit) continue;
        candidates = candidates === undefined ? this.collect(column, tester!) : this.intersect(candidates, column, tester);
      }
    }
    return candidates;
  }

  /** Every row a column's last select() admits, sorted (its groups already evaluated: passes() is remembered). */
  private collect(column: ColumnIndex, tester: GroupTester): number[] {
    const lists: (readonly number[])[] = [column.hashHit, column.rangeHit, column.wildcard];
    for (const group of column.groups) if (tester.passes(group.cell)) lists.push(group.rows);
    return mergeAll(lists);
  }

  /** Keeps the candidates that a column's last select() also admits, marking rows with a fresh generation stamp. */
  private intersect(candidates: number[], column: ColumnIndex, tester: GroupTester | undefined): number[] {
    if (++this.generation === 0xffffffff) {
      this.stamps.fill(0);
      this.generation = 1;
    }
    const generation = this.generation;
    const stamps = this.stamps;
    mark(stamps, column.hashHit, generation);
    mark(stamps, column.rangeHit, generation);
    mark(stamps, column.wildcard, generation);
    if (tester !== undefined) for (const group of column.groups) if (tester.passes(group.cell)) mark(stamps, group.rows, generation);
    let kept = 0;
    for (let i = 0; i < candidates.length; i++) {
      const row = candidates[i]!;
      if (stamps[row] === generation) candidates[kept++] = row;
    }
    candidates.length = kept;
    return candidates;
  }
}

/** Stamps the rows of `list` with `generation` (a function of its own: no closure per intersection). */
function mark(stamps: Uint32Array, list: readonly number[], generation: number): void {
  for (let i = 0; i < list.length; i++) stamps[list[i]!] = generation;
}

interface Interval {
  readonly lo: number;
  readonly loOpen: boolean;
  readonly hi: number;
  readonly hiOpen: boolean;
}

/** Where a distinct cell goes: the hash lists it joins, an interval, an expression group, or the wildcards. */
type Filing =
  | { readonly kind: 'hash'; readonly lists: readonly number[][] }
  | { readonly kind: 'range'; readonly interval: Interval }
  | { readonly kind: 'group'; readonly rows: number[]; readonly cell: ConditionStep }
  | { readonly kind: 'wildcard' };

const WILDCARD: Filing = { kind: 'wildcard' };

function buildColumn(rows: readonly IndexRow[], condIndex: number, stepPosition: number): ColumnIndex {
  const column = new ColumnIndex(condIndex);
  const intervalRows: number[] = [];
  const intervals: Interval[] = [];
  const groups: { rows: number[]; cell: ConditionStep }[] = [];
  // Identical cells are one object (table/compile.ts): each distinct cell is examined once.
  const filings = new Map<ConditionStep, Filing>();
  for (let position = 0; position < rows.length; position++) {
    const cell = rows[position]!.steps[stepPosition] as ConditionStep | undefined;
    let filing = cell === undefined ? WILDCARD : filings.get(cell);
    if (filing === undefined) {
      filing = fileCell(column, cell!);
      if (filing.kind === 'group') groups.push(filing);
      filings.set(cell!, filing);
    }
    switch (filing.kind) {
      case 'hash': {
        const lists = filing.lists;
        for (let l = 0; l < lists.length; l++) {
          const list = lists[l]!;
          if (list[list.length - 1] !== position) list.push(position);
        }
        column.indexedRows++;
        break;
      }
      case 'range':
        intervalRows.push(position);
        intervals.push(filing.interval);
        break;
      case 'group':
        filing.rows.push(position);
        break;
      default:
        column.wildcard.push(position);
    }
  }
  let unsorted = false;
  if (groups.length > 0) {
    groups.sort((a, b) => b.rows.length - a.rows.length);
    const kept = groups.filter((group, i) => i < MAX_GROUPS && group.rows.length >= GROUP_MIN_ROWS);
    for (const group of groups.slice(kept.length)) for (const row of group.rows) column.wildcard.push(row);
    unsorted = kept.length < groups.length;
    column.groups = kept;
    for (const group of kept) column.indexedRows += group.rows.length;
  }
  if (intervals.length > 0) {
    const range = buildRange(intervalRows, intervals, rows.length);
    if (range) {
      column.range = range;
      column.indexedRows += intervals.length;
    } else {
      // Too much overlap to store per segment: those rows become wildcards, merged back into row order.
      for (const row of intervalRows) column.wildcard.push(row);
      unsorted = true;
    }
  }
  if (unsorted) column.wildcard.sort((a, b) => a - b);
  return column;
}

function fileCell(column: ColumnIndex, cell: ConditionStep): Filing {
  if (cell.memo >= 0) return { kind: 'group', rows: [], cell };
  const lists = hashLists(column, cell.condition);
  if (lists !== undefined) return { kind: 'hash', lists };
  const interval = intervalOf(cell.condition);
  return interval === undefined ? WILDCARD : { kind: 'range', interval };
}

/** The hash lists of a constant `=` or `IN` cell; undefined for other cells. */
function hashLists(column: ColumnIndex, condition: CompiledCondition): number[][] | undefined {
  if (condition.kind !== 'static' || condition.isDate) return undefined;
  let members: readonly unknown[];
  if (condition.operator === '=') members = [condition.operand];
  else if (condition.operator === 'IN' && Array.isArray(condition.operand)) members = condition.operand;
  else return undefined;
  const prepared = members.map(prepareOperand);
  // Members from object variables also equal JSON text inputs; keep such rows out of the hash.
  if (prepared.some((p) => p.isObject)) return undefined;
  const lists: number[][] = [];
  for (const p of prepared) {
    if (p.missing) continue;
    if (p.numeric) lists.push(listIn(column.numbers, p.num));
    else if (p.bool === 1) lists.push(column.trues);
    else if (p.bool === 0) lists.push(column.falses);
    else lists.push(listIn(column.texts, p.text));
  }
  return lists;
}

function listIn<K>(map: Map<K, number[]>, key: K): number[] {
  let list = map.get(key);
  if (!list) {
    list = [];
    map.set(key, list);
  }
  return list;
}

/** The interval of a constant numeric `<`, `<=`, `>`, `>=` or between-family cell; undefined for other cells. */
function intervalOf(condition: CompiledCondition): Interval | undefined {
  if (condition.kind !== 'static' || condition.isDate) return undefined;
  const operand = condition.operand;
  const numeric = (value: unknown): number | undefined => {
    const p = prepareOperand(value);
    return p.numeric && Number.isFinite(p.num) ? p.num : undefined;
  };
  const inf = Number.POSITIVE_INFINITY;
  switch (condition.operator) {
    case '<':
    case '<=':
    case '>':
    case '>=': {
      const n = numeric(operand);
      if (n === undefined) return undefined;
      const op = condition.operator;
      if (op === '<' || op === '<=') return { lo: -inf, loOpen: true, hi: n, hiOpen: op === '<' };
      return { lo: n, loOpen: op === '>', hi: inf, hiOpen: true };
    }
    case 'between':
    case 'betweenLeftOpen':
    case 'betweenRightOpen': {
      if (!Array.isArray(operand) || operand.length !== 2) return undefined;
      const lo = numeric(operand[0]);
      const hi = numeric(operand[1]);
      if (lo === undefined || hi === undefined) return undefined;
      const op = condition.operator;
      return { lo, loOpen: op === 'betweenLeftOpen', hi, hiOpen: op === 'betweenRightOpen' };
    }
    default:
      return undefined;
  }
}

/**
 * Segment lists over the column's bounds. With every distinct bound as a point, a segment's list holds exactly
 * the rows whose interval contains it. Heavily overlapping intervals (age bands, amount bands, `>=` thresholds)
 * would store far more entries than rows that way, so the points are thinned (every 2nd, 4th, ... bound) until
 * the lists fit the budget: a segment then lists every row whose interval overlaps it, a superset of the rows
 * that pass, which is all the index promises (every candidate's cells are checked anyway). undefined when even
 * a handful of points exceeds the budget.
 */
function buildRange(rows: readonly number[], intervals: readonly Interval[], rowCount: number): RangeIndex | undefined {
  const finite = new Set<number>();
  for (let i = 0; i < intervals.length; i++) {
    const { lo, hi } = intervals[i]!;
    if (Number.isFinite(lo)) finite.add(lo);
    if (Number.isFinite(hi)) finite.add(hi);
  }
  const all = [...finite].sort((a, b) => a - b);
  const budget = 8 * rowCount + 64;
  for (let step = 1; ; step *= 2) {
    const points = Float64Array.from(step === 1 ? all : all.filter((_, i) => i % step === 0));
    const range = fillSegments(rows, intervals, points, budget);
    if (range !== undefined) return range;
    if (points.length <= MIN_RANGE_POINTS) return undefined;
  }
}

/** Fewest points a thinned range index keeps: below this it narrows too little to be worth consulting. */
const MIN_RANGE_POINTS = 4;

function fillSegments(rows: readonly number[], intervals: readonly Interval[], points: Float64Array, budget: number): RangeIndex | undefined {
  const segmentCount = 2 * points.length + 1;
  // Each interval's first and last segment are found once, for the budget and the filling. The lists grow by push
  // so they stay packed arrays, which the solve reads faster than holey ones.
  const firsts = new Int32Array(intervals.length);
  const lasts = new Int32Array(intervals.length);
  let stored = 0;
  for (let i = 0; i < intervals.length; i++) {
    const { lo, loOpen, hi, hiOpen } = intervals[i]!;
    const first = segmentOf(points, lo, loOpen, true);
    const last = segmentOf(points, hi, hiOpen, false);
    firsts[i] = first;
    lasts[i] = last;
    if (first <= last) stored += last - first + 1;
    if (stored > budget) return undefined;
  }
  const segments: number[][] = [];
  for (let s = 0; s < segmentCount; s++) segments.push([]);
  for (let i = 0; i < intervals.length; i++) {
    const row = rows[i]!;
    for (let s = firsts[i]!, last = lasts[i]!; s <= last; s++) segments[s]!.push(row);
  }
  return { points, segments };
}

/**
 * The segment an interval's bound falls in (2i = open gap below points[i], 2i+1 = exactly points[i]), for the
 * lower bound (`lower`) or the upper one. An open bound on a point excludes that point's segment.
 */
function segmentOf(points: Float64Array, bound: number, open: boolean, lower: boolean): number {
  if (bound === Number.NEGATIVE_INFINITY) return 0;
  if (bound === Number.POSITIVE_INFINITY) return 2 * points.length;
  let lo = 0;
  let hi = points.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (points[mid]! < bound) lo = mid + 1;
    else hi = mid;
  }
  if (lo < points.length && points[lo] === bound) return open ? (lower ? 2 * lo + 2 : 2 * lo) : 2 * lo + 1;
  return 2 * lo;
}

/** The union of three sorted, disjoint lists, sorted. */
function mergeSorted(a: readonly number[], b: readonly number[], c: readonly number[]): number[] {
  const out = new Array<number>(a.length + b.length + c.length);
  let i = 0;
  let j = 0;
  let k = 0;
  let n = 0;
  const big = Number.POSITIVE_INFINITY;
  while (i < a.length || j < b.length || k < c.length) {
    const x = i < a.length ? a[i]! : big;
    const y = j < b.length ? b[j]! : big;
    const z = k < c.length ? c[k]! : big;
    if (x <= y && x <= z) {
      out[n++] = x;
      i++;
    } else if (y <= z) {
      out[n++] = y;
      j++;
    } else {
      out[n++] = z;
      k++;
    }
  }
  return out;
}

/** The union of sorted, disjoint lists, sorted. */
function mergeAll(lists: readonly (readonly number[])[]): number[] {
  const nonEmpty = lists.filter((list) => list.length > 0);
  if (nonEmpty.length === 0) return [];
  if (nonEmpty.length === 1) return nonEmpty[0]!.slice();
  if (nonEmpty.length <= 3) return mergeSorted(nonEmpty[0]!, nonEmpty[1]!, nonEmpty[2] ?? EMPTY);
  return nonEmpty.flat().sort((a, b) => a - b);
}
