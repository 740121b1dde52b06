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
// cell passes, in row order. The table then evaluates only the candidate rows, with every condition checked as usual, so
// results, row order, ELSE and include/exclude behave exactly as in a scan (ELSE cells are wildcards, and rows
// left out could not have matched, so "an earlier row matched" is unchanged). A column is left out of a solve
// when the value's kind makes the index unsafe (objects; non-numeric text against ranges, which compare as
// strings) or when include/exclude options skip it.
import type { CompiledCondition } from '../cells/condition.ts';
import type { ConditionStep } from './evaluate.ts';
import { isNumericText, prepareOperand, type PreparedOperand } from '../cells/operands.ts';

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

const EMPTY: readonly number[] = [];

/** hash(L), range(L) and wildcard rows of one column: sorted, disjoint. */
type Lists = [readonly number[], readonly number[], readonly number[]];

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

  /** The three sorted, disjoint lists whose union holds every row that may pass for `left`; undefined = unsafe. */
  lists(left: unknown): Lists | undefined {
    switch (typeof left) {
      case 'undefined':
        return [EMPTY, EMPTY, this.wildcard];
      case 'number':
        if (Number.isFinite(left)) return [this.numbers.get(left) ?? EMPTY, this.rangeRows(left), this.wildcard];
        return this.range ? undefined : [this.texts.get(String(left)) ?? EMPTY, EMPTY, this.wildcard];
      case 'string':
        if (isNumericText(left)) {
          const n = Number(left);
          return [this.numbers.get(n) ?? EMPTY, this.rangeRows(n), this.wildcard];
        }
        if (this.range) return undefined;
        if (left === 'true') return [this.trues, EMPTY, this.wildcard];
        if (left === 'false') return [this.falses, EMPTY, this.wildcard];
        return [this.texts.get(left) ?? EMPTY, EMPTY, this.wildcard];
      case 'boolean':
        return this.range ? undefined : [left ? this.trues : this.falses, EMPTY, this.wildcard];
      case 'object':
        return left === null ? [EMPTY, EMPTY, this.wildcard] : undefined;
      default:
        return undefined;
    }
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

/** One compiled row as the index sees it: its condition cell in each column (by condIndex). */
export interface IndexRow {
  readonly conditions: readonly (ConditionStep | undefined)[];
}

export class TableIndex {
  private readonly columns: readonly ColumnIndex[];
  private readonly rowCount: number;
  private readonly stamps: Uint32Array;
  private generation = 0;
  /** Some column has expression groups: candidates() then needs a GroupTester. */
  readonly hasGroups: boolean;

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
  static build(rows: readonly IndexRow[], indexable: readonly number[]): TableIndex | undefined {
    const columns: ColumnIndex[] = [];
    for (const condIndex of indexable) {
      const column = buildColumn(rows, condIndex);
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
    let best: Lists | undefined;
    let bestSize = Number.POSITIVE_INFINITY;
    let others: { lists: Lists; size: number }[] | undefined;
    let grouped: { column: ColumnIndex; lists: Lists }[] | undefined;
    for (const column of this.columns) {
      if (skip !== undefined && skip[column.condIndex]) continue;
      const lists = column.lists(lefts[column.condIndex]);
      if (lists === undefined) continue;
      if (column.groups.length > 0) {
        if (tester !== undefined) (grouped ??= []).push({ column, lists });
        continue;
      }
      const size = lists[0].length + lists[1].length + lists[2].length;
      if (size > limit) continue;
      if (size < bestSize) {
        if (best !== undefined) (others ??= []).push({ lists: best, size: bestSize });
        best = lists;
        bestSize = size;
      } else {
        (others ??= []).push({ lists, size });
      }
    }
    let candidates = best === undefined ? undefined : mergeSorted(best[0], best[1], best[2]);
    if (candidates !== undefined && others !== undefined && candidates.length > 1) {
      others.sort((a, b) => a.size - b.size);
      for (const other of others) {
        candidates = this.intersect(candidates, other.lists);
        if (candidates.length <= 1) break;
      }
    }
    if (grouped !== undefined) {
      grouped.sort((a, b) => a.column.groups.length - b.column.groups.length);
      for (const { column, lists } of grouped) {
        if (candidates !== undefined && candidates.length <= column.groups.length) break;
        const all: (readonly number[])[] = [lists[0], lists[1], lists[2]];
        let size = lists[0].length + lists[1].length + lists[2].length;
        for (const group of column.groups) {
          if (tester!.passes(group.cell)) {
            all.push(group.rows);
            size += group.rows.length;
          }
        }
        if (size > limit) continue;
        candidates = candidates === undefined ? mergeAll(all) : this.intersect(candidates, all);
      }
    }
    return candidates;
  }

  /** Keeps the candidates that also appear in `lists`, marking rows with a fresh generation stamp. */
  private intersect(candidates: number[], lists: readonly (readonly number[])[]): number[] {
    if (++this.generation === 0xffffffff) {
      this.stamps.fill(0);
      this.generation = 1;
    }
    const generation = this.generation;
    const stamps = this.stamps;
    for (const list of lists) for (let i = 0; i < list.length; i++) stamps[list[i]!] = generation;
    let kept = 0;
    for (let i = 0; i < candidates.length; i++) {
      const row = candidates[i]!;
      if (stamps[row] === generation) candidates[kept++] = row;
    }
    candidates.length = kept;
    return candidates;
  }
}

function buildColumn(rows: readonly IndexRow[], condIndex: number): ColumnIndex {
  const column = new ColumnIndex(condIndex);
  const intervals: { row: number; lo: number; loOpen: boolean; hi: number; hiOpen: boolean }[] = [];
  const byExpression = new Map<number, { cell: ConditionStep; rows: number[] }>();
  rows.forEach((row, position) => {
    const cell = row.conditions[condIndex];
    const condition = cell?.condition;
    if (cell !== undefined && cell.memo >= 0) {
      let group = byExpression.get(cell.memo);
      if (group === undefined) byExpression.set(cell.memo, (group = { cell, rows: [] }));
      group.rows.push(position);
    } else if (!fileUnderHash(column, condition, position) && !collectInterval(intervals, condition, position)) {
      column.wildcard.push(position);
    } else if (condition !== undefined && (condition.operator === '=' || condition.operator === 'IN')) {
      column.indexedRows++;
    }
  });
  let unsorted = false;
  if (byExpression.size > 0) {
    const groups = [...byExpression.values()].sort((a, b) => b.rows.length - a.rows.length);
    const kept = groups.filter((group, i) => i < MAX_GROUPS && group.rows.length >= GROUP_MIN_ROWS);
    for (const group of groups.slice(kept.length)) column.wildcard.push(...group.rows);
    unsorted = kept.length < groups.length;
    column.groups = kept;
    for (const group of kept) column.indexedRows += group.rows.length;
  }
  if (intervals.length > 0) {
    const range = buildRange(intervals, rows.length);
    if (range) {
      column.range = range;
      column.indexedRows += intervals.length;
    } else {
      // Too much overlap to store per segment: those rows become wildcards, merged back into row order.
      for (const interval of intervals) column.wildcard.push(interval.row);
      unsorted = true;
    }
  }
  if (unsorted) column.wildcard.sort((a, b) => a - b);
  return column;
}

function fileUnderHash(column: ColumnIndex, condition: CompiledCondition | undefined, row: number): boolean {
  if (condition === undefined || condition.kind !== 'static' || condition.isDate) return false;
  let members: readonly unknown[];
  if (condition.operator === '=') members = [condition.operand];
  else if (condition.operator === 'IN' && Array.isArray(condition.operand)) members = condition.operand;
  else return false;
  const prepared = members.map(prepareOperand);
  // Members from object variables also equal JSON text inputs; keep such rows out of the hash.
  if (prepared.some((p) => p.isObject)) return false;
  for (const p of prepared) addToHash(column, p, row);
  return true;
}

function addToHash(column: ColumnIndex, p: PreparedOperand, row: number): void {
  if (p.missing) return;
  let list: number[];
  if (p.numeric) list = listIn(column.numbers, p.num);
  else if (p.bool === 1) list = column.trues;
  else if (p.bool === 0) list = column.falses;
  else list = listIn(column.texts, p.text);
  if (list[list.length - 1] !== row) list.push(row);
}

function listIn<K>(map: Map<K, number[]>, key: K): number[] {
  let list = map.get(key);
  if (!list) {
    list = [];
    map.set(key, list);
  }
  return list;
}

function collectInterval(
  intervals: { row: number; lo: number; loOpen: boolean; hi: number; hiOpen: boolean }[],
  condition: CompiledCondition | undefined,
  row: number,
): boolean {
  if (condition === undefined || condition.kind !== 'static' || condition.isDate) return false;
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
      if (n === undefined) return false;
      const op = condition.operator;
      if (op === '<' || op === '<=') intervals.push({ row, lo: -inf, loOpen: true, hi: n, hiOpen: op === '<' });
      else intervals.push({ row, lo: n, loOpen: op === '>', hi: inf, hiOpen: true });
      return true;
    }
    case 'between':
    case 'betweenLeftOpen':
    case 'betweenRightOpen': {
      if (!Array.isArray(operand) || operand.length !== 2) return false;
      const lo = numeric(operand[0]);
      const hi = numeric(operand[1]);
      if (lo === undefined || hi === undefined) return false;
      const op = condition.operator;
      intervals.push({ row, lo, loOpen: op === 'betweenLeftOpen', hi, hiOpen: op === 'betweenRightOpen' });
      return true;
    }
    default:
      return false;
  }
}

/** Elementary-segment lists; undefined when the stored lists would grow far beyond the row count (heavy overlap). */
function buildRange(
  intervals: readonly { row: number; lo: number; loOpen: boolean; hi: number; hiOpen: boolean }[],
  rowCount: number,
): RangeIndex | undefined {
  const finite = new Set<number>();
  for (const { lo, hi } of intervals) {
    if (Number.isFinite(lo)) finite.add(lo);
    if (Number.isFinite(hi)) finite.add(hi);
  }
  const points = Float64Array.from([...finite].sort((a, b) => a - b));
  const positionOf = new Map<number, number>();
  points.forEach((point, i) => positionOf.set(point, i));
  const segmentCount = 2 * points.length + 1;
  const segments: number[][] = Array.from({ length: segmentCount }, () => []);
  const budget = 8 * rowCount + 64;
  let stored = 0;
  for (const { row, lo, loOpen, hi, hiOpen } of intervals) {
    const first = lo === Number.NEGATIVE_INFINITY ? 0 : 2 * positionOf.get(lo)! + (loOpen ? 2 : 1);
    const last = hi === Number.POSITIVE_INFINITY ? segmentCount - 1 : 2 * positionOf.get(hi)! + (hiOpen ? 0 : 1);
    if (first > last) continue;
    stored += last - first + 1;
    if (stored > budget) return undefined;
    for (let s = first; s <= last; s++) segments[s]!.push(row);
  }
  return { points, segments };
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
