// Value coercion shared by table operators and expression functions (spec/rule-format.md §2.7, §2.8, §4.8).

const NUMERIC_TEXT = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

/** A JSON number, or a string holding a plain decimal literal. `""` is never numeric. */
export function isNumeric(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'string') return false;
  // Printable ASCII above '9' (letters, '@', punctuation) starts neither a decimal literal nor whitespace: most
  // text compared loosely is words, and this runs per comparison.
  const first = value.charCodeAt(0);
  if (first > 57 && first < 160) return false;
  return NUMERIC_TEXT.test(value);
}

/** The number a numeric value stands for, or NaN. */
export function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && NUMERIC_TEXT.test(value)) return Number(value);
  return Number.NaN;
}

export function isBooleanLike(value: unknown): boolean {
  return typeof value === 'boolean' || value === 'true' || value === 'false';
}

export function toBoolean(value: unknown): boolean {
  return value === true || value === 'true';
}

/** `String(x)` for scalars, compact JSON for objects and arrays (substring operators, CONCAT, interpolation). */
export function textOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** NULL semantics: null, missing, `{}` and `[]` are null; `""`, 0 and false are not. */
export function isNullValue(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bArr = b as unknown[];
    if (a.length !== bArr.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], bArr[i])) return false;
    return true;
  }
  const aKeys = Object.keys(a);
  const bObj = b as Record<string, unknown>;
  if (aKeys.length !== Object.keys(bObj).length) return false;
  for (const key of aKeys) {
    if (!Object.hasOwn(bObj, key) || !deepEqual((a as Record<string, unknown>)[key], bObj[key])) return false;
  }
  return true;
}

/**
 * Loose equality of §2.7: numbers if both are numeric, booleans if both are boolean-like, otherwise exact text.
 * Objects and arrays compare deeply (against a JSON text on the other side when it parses).
 */
export function looseEquals(left: unknown, right: unknown): boolean {
  if (left === null || left === undefined || right === null || right === undefined) return left === right;
  if (typeof left === 'object' || typeof right === 'object') {
    const l = typeof left === 'string' ? tryParseJson(left) : left;
    const r = typeof right === 'string' ? tryParseJson(right) : right;
    return typeof l === 'object' && typeof r === 'object' && deepEqual(l, r);
  }
  if (isNumeric(left) && isNumeric(right)) return toNumber(left) === toNumber(right);
  if (isBooleanLike(left) && isBooleanLike(right)) return toBoolean(left) === toBoolean(right);
  return String(left) === String(right);
}

/**
 * Ordering of §2.7 / §11 C1: numeric if both numeric, boolean (false < true) if both boolean-like, else
 * JavaScript string order. Returns undefined when either side is missing, null, or an object.
 */
export function compareLoose(left: unknown, right: unknown): number | undefined {
  if (left === null || left === undefined || right === null || right === undefined) return undefined;
  if (typeof left === 'object' || typeof right === 'object') return undefined;
  if (isNumeric(left) && isNumeric(right)) {
    const l = toNumber(left);
    const r = toNumber(right);
    return l < r ? -1 : l > r ? 1 : 0;
  }
  // A number and a value that is not numeric cannot be ordered (docs/decisions/tables-mixed-comparison.md).
  if (isNumeric(left) || isNumeric(right)) return undefined;
  if (isBooleanLike(left) && isBooleanLike(right)) return Number(toBoolean(left)) - Number(toBoolean(right));
  const l = String(left);
  const r = String(right);
  return l < r ? -1 : l > r ? 1 : 0;
}

const NOT_JSON = Symbol('not-json');

function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}
