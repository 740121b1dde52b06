// The structural comparison of two versions of any rule type, for the side-by-side view of types that have no
// compare of their own: both documents as indented JSON lines, aligned so that equal parts face each other.
// Objects are matched key by key; arrays by element `id` when every element has one (tree and flow nodes), else
// by equal elements (longest common subsequence, as the table compare aligns rows) with the elements between
// two equal ones paired in order and compared inside. Every change is one difference that Previous/Next walk.
// Pure: no DOM, no React, so node:test covers it directly.
import { lcs, stableJson } from './diff.ts';

export type LineStatus = 'same' | 'changed' | 'left-only' | 'right-only';

export interface DiffLine {
  /** The left side's text, indented; undefined where the left has nothing facing the right. */
  left?: string;
  right?: string;
  status: LineStatus;
}

export interface JsonDifference {
  /** First line of the difference and how many lines it spans. */
  line: number;
  count: number;
  /** `nodes[0].nodes[1].scalarCondition.value changed` */
  label: string;
}

export interface JsonDiff {
  lines: DiffLine[];
  differences: JsonDifference[];
}

/** Lifecycle and bookkeeping, not content: shown with each version, never a difference (as in the table compare). */
export const LIFECYCLE_FIELDS: readonly string[] = ['version', 'status', 'locked', 'createdIn', 'lastUpdate', 'createdAt', 'updatedAt'];

const INDENT = '  ';
const ID_KEYS = ['id', 'columnId', 'nodeId'] as const;

type Json = unknown;

function isObject(value: Json): value is Record<string, Json> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function scalar(value: Json): string {
  return JSON.stringify(value) ?? 'null';
}

function prefix(key: string | undefined): string {
  return key === undefined ? '' : `${JSON.stringify(key)}: `;
}

function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`;
}

/** The indented lines of one value as `JSON.stringify(value, null, 2)` would print it, with its key. */
function render(key: string | undefined, value: Json, depth: number, out: string[]): void {
  const pad = INDENT.repeat(depth);
  if (Array.isArray(value) && value.length > 0) {
    out.push(`${pad}${prefix(key)}[`);
    for (const item of value) render(undefined, item, depth + 1, out);
    out.push(`${pad}]`);
  } else if (isObject(value) && Object.keys(value).length > 0) {
    out.push(`${pad}${prefix(key)}{`);
    for (const [k, v] of Object.entries(value)) if (v !== undefined) render(k, v, depth + 1, out);
    out.push(`${pad}}`);
  } else {
    out.push(`${pad}${prefix(key)}${Array.isArray(value) ? '[]' : isObject(value) ? '{}' : scalar(value)}`);
  }
}

function linesOf(key: string | undefined, value: Json, depth: number): string[] {
  const out: string[] = [];
  render(key, value, depth, out);
  return out;
}

/** The identity key of array elements, when every element on both sides has a distinct one. */
function identityKey(left: Json[], right: Json[]): ((value: Json) => string) | undefined {
  for (const key of ID_KEYS) {
    const ids = (list: Json[]) => list.map((v) => (isObject(v) && (typeof v[key] === 'string' || typeof v[key] === 'number') ? String(v[key]) : undefined));
    const l = ids(left);
    const r = ids(right);
    if (left.length + right.length > 0 && [...l, ...r].every((id) => id !== undefined) && new Set(l).size === l.length && new Set(r).size === r.length) {
      return (value) => String((value as Record<string, Json>)[key]);
    }
  }
  return undefined;
}

/**
 * Index pairs of aligned elements (undefined: no counterpart). With identities, only equal ids pair; without,
 * the elements between two equal ones pair in order and the surplus of one side stands alone.
 */
export function alignArrays(left: Json[], right: Json[]): Array<[number | undefined, number | undefined]> {
  const byId = identityKey(left, right);
  const ls = left.map(byId ?? stableJson);
  const rs = right.map(byId ?? stableJson);
  let start = 0;
  while (start < ls.length && start < rs.length && ls[start] === rs[start]) start++;
  let endL = ls.length;
  let endR = rs.length;
  while (endL > start && endR > start && ls[endL - 1] === rs[endR - 1]) { endL--; endR--; }
  const anchors = lcs(ls.slice(start, endL), rs.slice(start, endR)).map(([i, j]) => [i + start, j + start] as const);
  const pairs: Array<[number | undefined, number | undefined]> = [];
  for (let k = 0; k < start; k++) pairs.push([k, k]);
  let i = start;
  let j = start;
  const gap = (toL: number, toR: number) => {
    if (!byId) for (; i < toL && j < toR; i++, j++) pairs.push([i, j]);
    for (; i < toL; i++) pairs.push([i, undefined]);
    for (; j < toR; j++) pairs.push([undefined, j]);
  };
  for (const [ai, aj] of anchors) {
    gap(ai, aj);
    pairs.push([ai, aj]);
    i = ai + 1;
    j = aj + 1;
  }
  gap(endL, endR);
  for (let k = 0; k < ls.length - endL; k++) pairs.push([endL + k, endR + k]);
  return pairs;
}

class Builder {
  readonly lines: DiffLine[] = [];
  readonly differences: JsonDifference[] = [];

  same(key: string | undefined, value: Json, depth: number): void {
    for (const text of linesOf(key, value, depth)) this.lines.push({ left: text, right: text, status: 'same' });
  }

  oneSided(side: 'left' | 'right', key: string | undefined, value: Json, depth: number, path: string): void {
    const line = this.lines.length;
    for (const text of linesOf(key, value, depth)) this.lines.push(side === 'left' ? { left: text, status: 'left-only' } : { right: text, status: 'right-only' });
    this.differences.push({ line, count: this.lines.length - line, label: `${path || '(document)'} only in the ${side} version` });
  }

  changed(key: string | undefined, left: Json, right: Json, depth: number, path: string): void {
    const line = this.lines.length;
    const l = linesOf(key, left, depth);
    const r = linesOf(key, right, depth);
    for (let k = 0; k < Math.max(l.length, r.length); k++) this.lines.push({ left: l[k], right: r[k], status: 'changed' });
    this.differences.push({ line, count: this.lines.length - line, label: `${path || '(document)'} changed` });
  }

  walk(key: string | undefined, left: Json, right: Json, depth: number, path: string): void {
    if (stableJson(left) === stableJson(right)) return this.same(key, left, depth);
    const pad = INDENT.repeat(depth);
    if (isObject(left) && isObject(right)) {
      this.lines.push({ left: `${pad}${prefix(key)}{`, right: `${pad}${prefix(key)}{`, status: 'same' });
      // The right side's key order, with keys only on the left after the key that precedes them there.
      const leftKeys = Object.keys(left).filter((k) => left[k] !== undefined);
      const order = Object.keys(right).filter((k) => right[k] !== undefined);
      let after = -1;
      for (const k of leftKeys) {
        if (Object.hasOwn(right, k) && right[k] !== undefined) after = order.indexOf(k);
        else order.splice(++after, 0, k);
      }
      for (const k of order) {
        const inLeft = left[k] !== undefined;
        const inRight = right[k] !== undefined;
        if (inLeft && inRight) this.walk(k, left[k], right[k], depth + 1, childPath(path, k));
        else if (inLeft) this.oneSided('left', k, left[k], depth + 1, childPath(path, k));
        else this.oneSided('right', k, right[k], depth + 1, childPath(path, k));
      }
      this.lines.push({ left: `${pad}}`, right: `${pad}}`, status: 'same' });
      return;
    }
    if (Array.isArray(left) && Array.isArray(right) && left.length > 0 && right.length > 0) {
      this.lines.push({ left: `${pad}${prefix(key)}[`, right: `${pad}${prefix(key)}[`, status: 'same' });
      for (const [i, j] of alignArrays(left, right)) {
        if (i !== undefined && j !== undefined) this.walk(undefined, left[i], right[j], depth + 1, childPath(path, j));
        else if (i !== undefined) this.oneSided('left', undefined, left[i], depth + 1, childPath(path, i));
        else this.oneSided('right', undefined, right[j!], depth + 1, childPath(path, j!));
      }
      this.lines.push({ left: `${pad}]`, right: `${pad}]`, status: 'same' });
      return;
    }
    this.changed(key, left, right, depth, path);
  }
}

/** Compares two rule documents, leaving out the lifecycle fields. */
export function diffDocuments(left: Json, right: Json, ignore: readonly string[] = LIFECYCLE_FIELDS): JsonDiff {
  const strip = (doc: Json) => (isObject(doc) ? Object.fromEntries(Object.entries(doc).filter(([k]) => !ignore.includes(k))) : doc);
  const builder = new Builder();
  builder.walk(undefined, strip(left), strip(right), 0, '');
  return { lines: builder.lines, differences: builder.differences };
}
