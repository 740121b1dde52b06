// Values of ZEN expressions: JSON values plus dates (./dates.ts) and intervals. Numbers are IEEE doubles with
// each arithmetic result rounded to 15 significant digits, which gives zen's decimal answers (0.1 + 0.2 is 0.3)
// wherever a rule's numbers stay within that precision (docs/decisions/zen-expressions.md).
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

/**
 * Rounds binary noise off an arithmetic result: when the double is within a few units in the last place of a
 * number with 15 significant digits, that number is the decimal answer (0.1 + 0.2 is 0.3); otherwise the
 * double already is the nearest one to zen's decimal (10 / 3 is 3.3333333333333335).
 */
export function decimal(n: number, what: string): number {
  if (!Number.isFinite(n)) fail(`${what}: number overflow`);
  if (Number.isInteger(n)) return n;
  const few = fewDecimals(n);
  if (few !== undefined) return few;
  const short = Number(n.toPrecision(15));
  return Math.abs(short - n) <= 4 * Math.abs(n) * Number.EPSILON ? short : n;
}

/** Exact powers of ten as doubles, for fewDecimals. */
const POWERS = [1, 10, 100, 1e3, 1e4, 1e5, 1e6];

/**
 * `decimal` without text for the common answers, a number with at most six decimals (1234.5 * 1.1 is
 * 1357.9500000000003, which is 1357.95): m / 10^k for the first k at which that is within 2 units in the last
 * place of n, else undefined. Within 2 units it is the 15-digit decimal nearest to n (those are more than 4 units
 * apart), which `n.toPrecision(15)` reads as; m / 10^k is a correctly rounded division, the double that text reads as.
 */
function fewDecimals(n: number): number | undefined {
  const size = Math.abs(n);
  if (size >= 1e9 || size < 1e-6) return undefined;
  const near = 2 * size * Number.EPSILON;
  for (let k = 1; k < POWERS.length; k++) {
    const short = Math.round(n * POWERS[k]) / POWERS[k];
    if (Math.abs(short - n) <= near) return short;
  }
  return undefined;
}

/** The decimal digits of a double's shortest text: `x = digits * 10^-scale`; undefined for exponent forms. */
function scaled(x: number): [bigint, number] | undefined {
  const text = String(x);
  if (text.includes('e')) return undefined;
  const dot = text.indexOf('.');
  return dot < 0 ? [BigInt(text), 0] : [BigInt(text.slice(0, dot) + text.slice(dot + 1)), text.length - dot - 1];
}

/** Digits a quotient is worked out to before it becomes a double: beyond rust_decimal's 28. */
const QUOTIENT_DIGITS = 34;

/**
 * a / b as zen's decimals answer it, as the nearest double: the quotient of the two numbers as written (0.3 / 0.1
 * is 3), worked out in decimal; a double division would round twice (515 / 6 must be 85.83333333333333, which the
 * 15-digit rounding of `decimal` would cut).
 */
export function quotient(a: number, b: number): number {
  const q = a / b;
  if (!Number.isFinite(q)) return decimal(q, '/');
  if (Number.isInteger(a) && Number.isInteger(b) && Number.isInteger(q)) return q;
  // Whole numbers, the divisor below 2^20: the exact quotient is never within 10^-22 of a rounding boundary of
  // doubles (nor a tie needing more digits than the decimal path keeps), so the double division rounds as it does.
  if (Number.isInteger(a) && Number.isInteger(b) && Math.abs(a) < 2 ** 31 && Math.abs(b) < 2 ** 20) return q;
  const x = scaled(a);
  const y = scaled(b);
  if (!x || !y) return decimal(q, '/');
  // a / b = (X / 10^p) / (Y / 10^r) = X * 10^r / (Y * 10^p); scaled up by 10^QUOTIENT_DIGITS, cut, scaled down.
  const digits = (x[0] * 10n ** BigInt(y[1] + QUOTIENT_DIGITS)) / (y[0] * 10n ** BigInt(x[1]));
  return Number(`${digits}e-${QUOTIENT_DIGITS}`);
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
  // zen compares arrays, objects and intervals by identity, so two of them are never equal.
  if (typeof a === 'object' && a !== null) return false;
  return a === b || (a ?? null) === (b ?? null);
}

/** Order of two numbers, strings or dates; anything else is an error naming the operator. */
export function compare(a: unknown, b: unknown, operator: string): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (a instanceof ZenDate && b instanceof ZenDate) return a.ms - b.ms;
  return fail(`operator '${operator}' cannot compare ${typeName(a)} with ${typeName(b)}`);
}

/** Text of a scalar, as string() and template strings make it; zen refuses arrays, objects and dates. */
export function scalarText(value: unknown, where: string): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return fail(`${where} cannot turn ${typeName(value)} into text`);
}

/** Text of a value where zen converts to a string (templates, `+` with a string, string()). */
export function textOf(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof ZenDate) return isoText(value);
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
