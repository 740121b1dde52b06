// An index over one input column of a decision table, built at compile time from the rules' literal entries:
// string literals (`"a"`, `"a","b"`) by value, number literals, comparisons and ranges with literal endpoints
// (`< 5`, `[1..10)`) by interval. A lookup answers the rules that may match on that column, in rule order: the
// rules whose entry matches the value, plus those whose entry is `-` or not a literal. The candidates still run
// all their unary tests, so the index only skips rules that cannot match; a value of another kind (null, a
// list, a date) gets no candidates list and every rule runs, as without the index.
import { isNumber, num } from '../feel/index.ts';
import type { FeelNumber, FeelValue } from '../feel/index.ts';

/** Rule positions that may match the value, in order; undefined when the index cannot tell (every rule runs). */
export type RuleIndex = (value: FeelValue) => readonly number[] | undefined;

/** Tables smaller than this are scanned: the lookup costs more than a few unary tests. */
export const INDEX_MIN_RULES = 16;

/** Candidate lists may hold at most this many entries per rule, summed (rules spanning many intervals). */
const MAX_ENTRIES_PER_RULE = 8;

type Entry =
  | { kind: 'any' }
  | { kind: 'other' }
  | { kind: 'strings'; values: string[] }
  | { kind: 'interval'; lo: FeelNumber | null; loClosed: boolean; hi: FeelNumber | null; hiClosed: boolean };

const NUMBER = String.raw`-?(?:\d+(?:\.\d+)?|\.\d+)`;
const STRING = /^"([^"\\]*)"$/;
const NUMBER_ONLY = new RegExp(`^${NUMBER}$`);
const COMPARISON = new RegExp(`^(<=|>=|<|>)\\s*(${NUMBER})$`);
const RANGE = new RegExp(`^([[(\\]])\\s*(${NUMBER})\\s*\\.\\.\\s*(${NUMBER})\\s*([\\])[])$`);

function classify(text: string): Entry {
  const t = text.trim();
  if (t === '-' || t === '') return { kind: 'any' };
  const parts = t.split(',').map((part) => part.trim());
  if (parts.every((part) => STRING.test(part))) return { kind: 'strings', values: parts.map((part) => STRING.exec(part)![1]!) };
  if (NUMBER_ONLY.test(t)) return { kind: 'interval', lo: num(t), loClosed: true, hi: num(t), hiClosed: true };
  const comparison = COMPARISON.exec(t);
  if (comparison) {
    const [, op, n] = comparison;
    const bound = num(n!);
    return op!.startsWith('<')
      ? { kind: 'interval', lo: null, loClosed: false, hi: bound, hiClosed: op === '<=' }
      : { kind: 'interval', lo: bound, loClosed: op === '>=', hi: null, hiClosed: false };
  }
  const range = RANGE.exec(t);
  if (range) {
    const [, open, lo, hi, close] = range;
    return { kind: 'interval', lo: num(lo!), loClosed: open === '[', hi: num(hi!), hiClosed: close === ']' };
  }
  return { kind: 'other' };
}

/** A column's lookup, and the mean length of its candidate lists (lower skips more rules). */
interface ColumnIndex {
  lookup: RuleIndex;
  meanCandidates: number;
}

/** Merges sorted rule lists into one sorted list without duplicates. */
function merged(a: readonly number[], b: readonly number[]): number[] {
  return [...new Set([...a, ...b])].sort((x, y) => x - y);
}

function stringIndex(entries: readonly Entry[], always: number[]): ColumnIndex | undefined {
  const byValue = new Map<string, number[]>();
  entries.forEach((entry, rule) => {
    if (entry.kind !== 'strings') return;
    for (const value of entry.values) {
      const rules = byValue.get(value) ?? [];
      if (rules[rules.length - 1] !== rule) rules.push(rule);
      byValue.set(value, rules);
    }
  });
  if (byValue.size < 2) return undefined;
  const lists = new Map<string, readonly number[]>();
  let total = 0;
  for (const [value, rules] of byValue) {
    const list = merged(rules, always);
    total += list.length;
    lists.set(value, list);
  }
  if (total > MAX_ENTRIES_PER_RULE * entries.length) return undefined;
  return { lookup: (value) => (typeof value === 'string' ? (lists.get(value) ?? always) : undefined), meanCandidates: total / lists.size };
}

/**
 * Endpoints e0 < e1 < ... cut the number line into segments: 0 = below e0, 2j+1 = the point ej, 2j+2 = between ej
 * and ej+1 (the last: above the last endpoint). Each segment lists the rules whose interval covers it.
 */
function intervalIndex(entries: readonly Entry[], always: number[]): ColumnIndex | undefined {
  const intervals = entries.flatMap((entry, rule) => (entry.kind === 'interval' ? [{ ...entry, rule }] : []));
  const endpoints: FeelNumber[] = [];
  for (const i of intervals) for (const e of [i.lo, i.hi]) if (e) endpoints.push(e);
  endpoints.sort((a, b) => a.cmp(b));
  const points = endpoints.filter((e, k) => k === 0 || !e.eq(endpoints[k - 1]!));
  if (points.length < 2) return undefined;
  const pointAt = (e: FeelNumber): number => {
    let lo = 0;
    let hi = points.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (points[mid]!.lt(e)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const segments: number[][] = Array.from({ length: 2 * points.length + 1 }, () => []);
  let total = 0;
  for (const i of intervals) {
    const first = i.lo ? 2 * pointAt(i.lo) + (i.loClosed ? 1 : 2) : 0;
    const last = i.hi ? 2 * pointAt(i.hi) + (i.hiClosed ? 1 : 0) : segments.length - 1;
    for (let s = first; s <= last; s++) segments[s]!.push(i.rule);
    total += Math.max(0, last - first + 1);
    if (total > MAX_ENTRIES_PER_RULE * entries.length) return undefined;
  }
  const lists = segments.map((rules) => merged(rules, always));
  const lookup: RuleIndex = (value) => {
    if (!isNumber(value)) return undefined;
    // The segment of the value: below, on, or above the first endpoint not below it.
    let lo = 0;
    let hi = points.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (points[mid]!.lt(value)) lo = mid + 1;
      else hi = mid;
    }
    const segment = lo < points.length && points[lo]!.eq(value) ? 2 * lo + 1 : 2 * lo;
    return lists[segment];
  };
  return { lookup, meanCandidates: lists.reduce((sum, list) => sum + list.length, 0) / lists.length };
}

/**
 * The most selective index over the columns of the rules' entry texts (rules x columns), or undefined for a
 * small table or one with no column of literals. The result answers for the row of input values.
 */
export function indexRules(entryTexts: readonly (readonly string[])[], columns: number): ((values: readonly FeelValue[]) => readonly number[] | undefined) | undefined {
  if (entryTexts.length < INDEX_MIN_RULES) return undefined;
  let best: { column: number; index: ColumnIndex } | undefined;
  for (let column = 0; column < columns; column++) {
    const entries = entryTexts.map((texts) => classify(texts[column] ?? '-'));
    const always = entries.flatMap((entry, rule) => (entry.kind === 'any' || entry.kind === 'other' ? [rule] : []));
    // A column mixing strings and intervals is not indexed: one kind of value could only skip half of it.
    const kinds = new Set(entries.map((entry) => entry.kind).filter((kind) => kind === 'strings' || kind === 'interval'));
    if (kinds.size !== 1 || always.length > entries.length / 2) continue;
    const index = kinds.has('strings') ? stringIndex(entries, always) : intervalIndex(entries, always);
    if (index && (!best || index.meanCandidates < best.index.meanCandidates)) best = { column, index };
  }
  if (!best) return undefined;
  const { column, index } = best;
  return (values) => index.lookup(values[column] ?? null);
}
