// Values of ZEN expressions: JSON values plus dates (./dates.ts) and intervals. Numbers are IEEE doubles with
// each arithmetic result rounded to 15 significant digits, which gives zen's decimal answers (0.1 + 0.2 is 0.3)
// wherever a rule's numbers stay within that precision (docs/decisions/zen-expressions.md).
import { deepEqual } from '../values.ts';
import { ZenDate, isoText } from './dates.ts';
import { fail } from './errors.ts';

export class ZenInterval {
  readonly left: unknown;
  readonly right: unknown;
  readonly leftClosed: boolean;
  readonly rightClosed: boolean;

  constructor(left: unknown, right: unknown, leftClosed: boolean, rightClosed: boolean) {
    this.left = left;
    this.right = right;
    this.leftClosed = leftClosed;
    this.rightClosed = rightClosed;
  }

  contains(value: unknown): boolean {
    const low = compare(value, this.left, 'in');
    const high = compare(value, this.right, 'in');
    return (this.leftClosed ? low >= 0 : low > 0) && (this.rightClosed ? high <= 0 : high < 0);
  }

  /** The integers of a numeric interval, for `map([0..3], #)`. */
  items(): number[] {
    if (typeof this.left !== 'number' || typeof this.right !== 'number') fail('only a numeric interval can be iterated');
    const out: number[] = [];
    const first = this.leftClosed ? Math.ceil(this.left) : Math.floor(this.left) + 1;
    for (let n = first; this.rightClosed ? n <= this.right : n < this.right; n++) out.push(n);
    return out;
  }
}

/** Rounds binary noise off an arithmetic result: 0.1 + 0.2 is 0.3. */
export function decimal(n: number, what: string): number {
  if (!Number.isFinite(n)) fail(`${what}: number overflow`);
  return Number.isInteger(n) ? n : Number(n.toPrecision(15));
}

export function typeName(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'string') return 'string';
  if (Array.isArray(value)) return 'array';
  if (value instanceof ZenDate) return 'date';
  if (value instanceof ZenInterval) return 'interval';
  return 'object';
}

export function truthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return false;
  if (value === true) return true;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') return value !== '';
  if (value instanceof ZenDate) return value.valid;
  return true;
}

export function equals(a: unknown, b: unknown): boolean {
  if (a instanceof ZenDate || b instanceof ZenDate) {
    return a instanceof ZenDate && b instanceof ZenDate && a.valid && b.valid && a.ms === b.ms;
  }
  return deepEqual(a ?? null, b ?? null);
}

/** Order of two numbers, strings or dates; anything else is an error naming the operator. */
export function compare(a: unknown, b: unknown, operator: string): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (a instanceof ZenDate && b instanceof ZenDate) return a.ms - b.ms;
  return fail(`operator '${operator}' cannot compare ${typeName(a)} with ${typeName(b)}`);
}

/** Text of a value where zen converts to a string (templates, `+` with a string, string()). */
export function textOf(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof ZenDate) return isoText(value) ?? 'null';
  return JSON.stringify(toJson(value));
}

/** The JSON answer of a value: dates as RFC 3339 text, intervals as their text. */
export function toJson(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (value instanceof ZenDate) return isoText(value);
  if (value instanceof ZenInterval) {
    return `${value.leftClosed ? '[' : '('}${textOf(value.left)}..${textOf(value.right)}${value.rightClosed ? ']' : ')'}`;
  }
  if (Array.isArray(value)) return value.map(toJson);
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = toJson(item);
    return out;
  }
  return value;
}

/** The items of something a closure or an aggregate iterates. */
export function itemsOf(value: unknown, fn: string): unknown[] {
  if (Array.isArray(value)) return value;
  if (value instanceof ZenInterval) return value.items();
  return fail(`${fn}() expects an array, got ${typeName(value)}`);
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof ZenDate) &&
    !(value instanceof ZenInterval);
}
