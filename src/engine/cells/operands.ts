// Right operands of condition cells, coerced once at compile time so that a solve compares without parsing.
// Every comparison here must agree exactly with looseEquals / compareLoose of ../values.ts (§2.7); the property
// test in test/engine/cells-operands.test.ts checks that on random values.
import { deepEqual, isNumeric, textOf } from '../values.ts';

/**
 * isNumeric for strings, skipping the regular expression for text that starts with a letter: most text inputs
 * compared against numeric cells are words, and this runs per condition per solve.
 */
export function isNumericText(text: string): boolean {
  const first = text.charCodeAt(0);
  // Printable ASCII above '9' (letters, punctuation) can never start a decimal literal or leading whitespace.
  if (first > 57 && first < 160) return false;
  return isNumeric(text);
}

/** One pair of surrounding `"` or `'` is removed from stored members and scalar values (§2.9 notes). */
export function stripQuotes(text: string): string {
  if (text.length >= 2) {
    const first = text[0];
    if ((first === '"' || first === "'") && text[text.length - 1] === first) return text.slice(1, -1);
  }
  return text;
}

/** The text of a stored scalar value: strings lose one pair of quotes; other JSON scalars become their text. */
export function cellText(value: unknown): string {
  if (typeof value === 'string') return stripQuotes(value);
  if (value === null || value === undefined) return '';
  return textOf(value);
}

/**
 * Members of a stored set value. Arrays are taken member by member; a string typed into the editor is split on
 * `|`, else `,`, else `;` (§2.9), each part trimmed.
 */
export function setMembers(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (value === null || value === undefined) return [];
  if (typeof value !== 'string') return [value];
  if (value.trim() === '') return [];
  const separator = value.includes('|') ? '|' : value.includes(',') ? ',' : value.includes(';') ? ';' : undefined;
  return separator === undefined ? [value] : value.split(separator).map((part) => part.trim());
}

/** A right operand coerced for the three comparison modes of §2.7. */
export interface PreparedOperand {
  /** The value as it was resolved (text for stored cells; any JSON value when a variable supplied it). */
  readonly raw: unknown;
  readonly text: string;
  readonly numeric: boolean;
  readonly num: number;
  /** -1 not boolean-like, 0 false, 1 true. */
  readonly bool: number;
  /** The parsed JSON when the operand is (or is text of) an object or array: compared deeply with object inputs. */
  readonly json: object | undefined;
  readonly isObject: boolean;
  /** The operand is null or missing (a variable without value): nothing compares to it. */
  readonly missing: boolean;
}

export function prepareOperand(value: unknown): PreparedOperand {
  const isObject = value !== null && typeof value === 'object';
  const text = isObject ? JSON.stringify(value) : typeof value === 'string' ? value : textOf(value);
  const numeric = !isObject && isNumeric(value);
  const bool = value === true || value === 'true' ? 1 : value === false || value === 'false' ? 0 : -1;
  let json: object | undefined;
  if (isObject) json = value;
  else if (typeof value === 'string' && looksLikeJsonContainer(value)) {
    try {
      const parsed: unknown = JSON.parse(value);
      if (parsed !== null && typeof parsed === 'object') json = parsed;
    } catch {
      json = undefined;
    }
  }
  const missing = value === null || value === undefined;
  return { raw: value, text, numeric, num: numeric ? Number(value) : Number.NaN, bool, json, isObject, missing };
}

function looksLikeJsonContainer(text: string): boolean {
  const first = text.trimStart()[0];
  return first === '{' || first === '[';
}

/** looseEquals(left, operand) with the operand's coercions done in advance. Missing and null never equal. */
export function equalsPrepared(left: unknown, p: PreparedOperand): boolean {
  if (p.missing) return false;
  switch (typeof left) {
    case 'number':
      if (p.isObject) return false;
      if (Number.isFinite(left)) return p.numeric && left === p.num;
      return String(left) === p.text;
    case 'string':
      if (p.isObject) return p.json !== undefined && deepEqual(parseJsonOrUndefined(left), p.json);
      if (p.numeric) return isNumericText(left) && Number(left) === p.num;
      if (p.bool >= 0) return left === 'true' ? p.bool === 1 : left === 'false' ? p.bool === 0 : left === p.text;
      return left === p.text;
    case 'boolean':
      if (p.isObject) return false;
      return p.bool >= 0 ? (left ? 1 : 0) === p.bool : String(left) === p.text;
    case 'object':
      if (left === null) return false;
      return p.json !== undefined && deepEqual(left, p.json);
    case 'undefined':
      return false;
    default:
      return String(left) === p.text;
  }
}

/**
 * compareLoose(left, operand) as a number: negative, zero or positive; NaN when the two cannot be ordered (left
 * missing, null, or an object; operand an object; one side numeric and the other not). Every `<`/`>` test on NaN is false, which is what §2.8 asks of
 * a missing value.
 */
export function compareToPrepared(left: unknown, p: PreparedOperand): number {
  if (p.isObject || p.missing) return Number.NaN;
  // A number and a value that is not numeric cannot be ordered: `"abc" >= 100` is false, and so is
  // `"abc" < 100` (docs/decisions/tables-mixed-comparison.md).
  switch (typeof left) {
    case 'number':
      if (!Number.isFinite(left)) return p.numeric ? Number.NaN : compareText(String(left), p.text);
      return p.numeric ? (left < p.num ? -1 : left > p.num ? 1 : 0) : Number.NaN;
    case 'string':
      if (isNumericText(left)) {
        if (!p.numeric) return Number.NaN;
        const n = Number(left);
        return n < p.num ? -1 : n > p.num ? 1 : 0;
      }
      if (p.numeric) return Number.NaN;
      if (p.bool >= 0 && (left === 'true' || left === 'false')) return (left === 'true' ? 1 : 0) - p.bool;
      return compareText(left, p.text);
    case 'boolean':
      if (p.bool >= 0) return (left ? 1 : 0) - p.bool;
      if (p.numeric) return Number.NaN;
      return compareText(String(left), p.text);
    case 'object':
    case 'undefined':
      return Number.NaN;
    default:
      return compareText(String(left), p.text);
  }
}

function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

function parseJsonOrUndefined(text: string): unknown {
  if (!looksLikeJsonContainer(text)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Membership under looseEquals, answered by hashing: numbers by value, boolean-likes by truth, other text
 * exactly. Objects and arrays (from JSON members) are compared deeply.
 */
export class ValueSet {
  readonly members: readonly PreparedOperand[];
  private readonly numbers = new Set<number>();
  private readonly texts = new Set<string>();
  private hasTrue = false;
  private hasFalse = false;
  private readonly objects: object[] = [];
  /** Members that came from object or array variables: equal only to objects (or JSON text of one). */
  private readonly objectMembers: object[] = [];

  constructor(members: readonly PreparedOperand[]) {
    this.members = members;
    for (const m of members) {
      if (m.missing) continue;
      if (m.isObject) {
        this.objectMembers.push(m.json!);
        continue;
      }
      if (m.numeric) this.numbers.add(m.num);
      else if (m.bool === 1) this.hasTrue = true;
      else if (m.bool === 0) this.hasFalse = true;
      else this.texts.add(m.text);
      if (m.json !== undefined) this.objects.push(m.json);
    }
  }

  has(left: unknown): boolean {
    switch (typeof left) {
      case 'number':
        return Number.isFinite(left) ? this.numbers.has(left) : this.texts.has(String(left));
      case 'string':
        if (isNumericText(left)) return this.numbers.has(Number(left));
        if (left === 'true') return this.hasTrue;
        if (left === 'false') return this.hasFalse;
        if (this.texts.has(left)) return true;
        return this.objectMembers.length > 0 && this.hasObject(parseJsonOrUndefined(left), this.objectMembers);
      case 'boolean':
        return left ? this.hasTrue : this.hasFalse;
      case 'object':
        if (left === null) return false;
        return this.hasObject(left, this.objects) || this.hasObject(left, this.objectMembers);
      case 'undefined':
        return false;
      default:
        return this.texts.has(String(left));
    }
  }

  private hasObject(left: unknown, candidates: readonly object[]): boolean {
    if (left === undefined) return false;
    for (const candidate of candidates) if (deepEqual(left, candidate)) return true;
    return false;
  }
}
