// What compiled expressions share at run time: the evaluation frame, the "invalid" signal and the argument
// coercions every function uses (spec/rule-format.md §4.8).
import type { EvaluationContext } from '../types.ts';
import type { Scope } from './contract.ts';
import { LimitError, RuleError, TimeoutError, UnresolvedRuleError, ValidationError } from '../errors.ts';
import { isNullValue, textOf } from '../values.ts';

/** One evaluation of one expression. Allocated once per evaluate call. */
export interface Frame {
  scope: Scope;
  ctx: EvaluationContext;
  /** Values bound by ARRAY_MAP / ARRAY_FILTER / ARRAY_REDUCE parameters, by slot number. */
  locals: unknown[];
  /** Set when RAW_VALUE produced the result (in tail position): output casting is skipped. */
  raw: boolean;
}

/** A compiled node: its value, or a promise of it when a call below it waits (CNode.waits). */
export type Evaluator = (f: Frame) => unknown;

/**
 * "Invalid" (§4.8): the expression evaluates to null (a condition to false). Deliberately not an Error: it is
 * thrown on ordinary bad data (a string where a number is needed), often, and an Error would capture a stack.
 */
export class Invalid {
  readonly message: string;
  constructor(message: string) {
    this.message = message;
  }
}

export function invalid(message: string): never {
  throw new Invalid(message);
}

/** Failures that must leave the expression untouched: they fail the whole solve (or trigger a reload). */
export function mustPropagate(error: unknown): boolean {
  return (
    error instanceof RuleError ||
    error instanceof TimeoutError ||
    error instanceof LimitError ||
    error instanceof UnresolvedRuleError ||
    error instanceof ValidationError
  );
}

/** The reason an evaluation became invalid, for traces and ExpressionError. */
export function invalidReason(error: unknown): string {
  if (error instanceof Invalid) return error.message;
  if (error instanceof RangeError && /call stack/i.test(error.message)) return 'value nests too deeply';
  if (error instanceof Error) return error.message;
  return String(error);
}

/** Short rendering of a value for messages. */
export function describe(value: unknown): string {
  if (value === undefined) return 'a missing value';
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : value instanceof RegExp ? String(value) : JSON.stringify(value);
  } catch {
    text = String(value);
  }
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

const NUMERIC_TEXT = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

/** A number or numeric string as a number; anything else is invalid. */
export function toNum(value: unknown, fn: string): number {
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return value;
  } else if (typeof value === 'string' && NUMERIC_TEXT.test(value)) {
    return Number(value);
  }
  return invalid(`${fn}: ${describe(value)} is not a number`);
}

export function toInteger(value: unknown, fn: string): number {
  const n = toNum(value, fn);
  if (!Number.isInteger(n)) invalid(`${fn}: ${describe(value)} is not a whole number`);
  return n;
}

/** Division by zero, NaN and overflow are invalid (§11 Fn6). */
export function finite(n: number, fn: string): number {
  if (!Number.isFinite(n)) invalid(`${fn}: the result is not a finite number`);
  return n;
}

/**
 * Truth of AND / OR / NOT arguments: booleans and "true"/"false"; numbers (0 false, others true); null, missing
 * and empty objects/arrays are false (they are accepted since release 1.14.5); any other string is invalid.
 */
export function toLogical(value: unknown, fn: string): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (typeof value === 'number') return value !== 0;
  if (value === null || value === undefined) return false;
  if (typeof value === 'object' && isNullValue(value)) return false;
  return invalid(`${fn}: ${describe(value)} is not a boolean`);
}

/** IF conditions must be booleans (or their text). */
export function toCondition(value: unknown, fn: string): boolean {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return invalid(`${fn}: the condition ${describe(value)} is not a boolean`);
}

export function toText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof RegExp) return String(value);
  return textOf(value);
}

/** "Arrays allowed" arguments (§4.9): an array argument contributes its elements. */
export function spread(args: readonly unknown[]): unknown[] {
  let hasArray = false;
  for (const a of args) {
    if (Array.isArray(a)) {
      hasArray = true;
      break;
    }
  }
  if (!hasArray) return args as unknown[];
  const out: unknown[] = [];
  for (const a of args) {
    if (Array.isArray(a)) for (const item of a) out.push(item);
    else out.push(a);
  }
  return out;
}

/** IS_NULL semantics: null, missing, `{}`, `[]` and the string "null". */
export function isNullish(value: unknown): boolean {
  return value === 'null' || isNullValue(value);
}

/** Deep copy of JSON-like values, so constants folded at compile time never leak into mutable results. */
export function cloneJson(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(cloneJson);
  if (value instanceof RegExp) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) defineKey(out, key, cloneJson((value as Record<string, unknown>)[key]));
  return out;
}

/** Sets an own property even for `__proto__`, which a plain assignment would treat as the prototype. */
export function defineKey(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    target[key] = value;
  }
}
