// The arithmetic operators and decimal rounding on numbers (spec/rule-format.md §4.2, §11 Fn2): the math functions
// (functions/math.ts) and the nodes compiled by argument shape (constant-operand.ts) both use them; kept apart from
// the function definitions so that the compiler's nodes need not import the function catalog's types.
import { finite, invalid, toNum } from './runtime.ts';

export type Arithmetic = (a: unknown, b: unknown) => number;

function num2(a: unknown, b: unknown, op: string): [number, number] {
  return [toNum(a, op), toNum(b, op)];
}

/**
 * The arithmetic operators once both operands are numbers (the general forms below check and convert first).
 * Nodes compiled by argument shape call these directly (constant-operand.ts).
 */
export const NUMBER_ARITHMETIC = {
  '+': (x: number, y: number): number => finite(x + y, "operator '+'"),
  '-': (x: number, y: number): number => finite(x - y, "operator '-'"),
  '*': (x: number, y: number): number => finite(x * y, "operator '*'"),
  '/': (x: number, y: number): number => {
    if (y === 0) invalid("operator '/': division by zero");
    return finite(x / y, "operator '/'");
  },
};

export const add: Arithmetic = (a, b) => {
  if (typeof a === 'number' && typeof b === 'number') return NUMBER_ARITHMETIC['+'](a, b);
  const [x, y] = num2(a, b, "operator '+'");
  return NUMBER_ARITHMETIC['+'](x, y);
};

export const subtract: Arithmetic = (a, b) => {
  if (typeof a === 'number' && typeof b === 'number') return NUMBER_ARITHMETIC['-'](a, b);
  const [x, y] = num2(a, b, "operator '-'");
  return NUMBER_ARITHMETIC['-'](x, y);
};

export const multiply: Arithmetic = (a, b) => {
  if (typeof a === 'number' && typeof b === 'number') return NUMBER_ARITHMETIC['*'](a, b);
  const [x, y] = num2(a, b, "operator '*'");
  return NUMBER_ARITHMETIC['*'](x, y);
};

export const divide: Arithmetic = (a, b) => {
  const [x, y] = num2(a, b, "operator '/'");
  return NUMBER_ARITHMETIC['/'](x, y);
};

export const modulo: Arithmetic = (a, b) => {
  const [x, y] = num2(a, b, "operator '%'");
  if (y === 0) invalid("operator '%': division by zero");
  return finite(x % y, "operator '%'");
};

export function negate(a: unknown): number {
  // 0 - x rather than -x: no negative zero in results
  return 0 - toNum(a, "operator '-'");
}

export const OPERATOR_IMPLS: Record<'+' | '-' | '*' | '/' | '%', Arithmetic> = {
  '+': add,
  '-': subtract,
  '*': multiply,
  '/': divide,
  '%': modulo,
};

/** Moves the decimal point by `places` on the decimal text, so that 1.005 rounds like the digits it shows. */
function shift(value: number, places: number): number {
  const [mantissa, exponent] = String(value).split('e');
  return Number(`${mantissa}e${Number(exponent ?? 0) + places}`);
}

/** 10^|places|: what scaledAwayFromTie and unscale multiply or divide by, computed once per rounding (or per node). */
export function decimalScale(places: number): number {
  return 10 ** Math.abs(places);
}

/**
 * |value| scaled by 10^places (`scale` is decimalScale(places)) when the rounding decision cannot be affected by
 * binary representation error, else undefined (the value sits on or next to a decimal tie and needs the exact
 * decimal shift).
 */
function scaledAwayFromTie(abs: number, places: number, scale: number): number | undefined {
  if (places > 15 || places < -15) return undefined;
  const scaled = places >= 0 ? abs * scale : abs / scale;
  const fraction = scaled - Math.floor(scaled);
  return Math.abs(fraction - 0.5) > 1e-9 * Math.max(1, scaled) ? scaled : undefined;
}

function unscale(whole: number, places: number, scale: number): number {
  return places >= 0 ? whole / scale : whole * scale;
}

/** Half away from zero on the decimal representation (§11 Fn2): ROUND(1.005, 2) is 1.01. */
export function roundHalfAway(value: number, places: number): number {
  return roundHalfAwayScaled(value, places, decimalScale(places));
}

/** roundHalfAway with `scale` = decimalScale(places) given (a ROUND node with constant places computes it once). */
export function roundHalfAwayScaled(value: number, places: number, scale: number): number {
  const sign = value < 0 ? -1 : 1;
  const abs = Math.abs(value);
  const scaled = scaledAwayFromTie(abs, places, scale);
  const rounded = scaled !== undefined ? unscale(Math.round(scaled), places, scale) : shift(Math.round(shift(abs, places)), -places);
  return rounded * sign || 0;
}

/** Banker's rounding on the decimal representation: ties to even. */
export function roundHalfEven(value: number, places: number): number {
  const sign = value < 0 ? -1 : 1;
  const abs = Math.abs(value);
  const scale = decimalScale(places);
  const fast = scaledAwayFromTie(abs, places, scale);
  if (fast !== undefined) return unscale(Math.round(fast), places, scale) * sign || 0;
  const scaled = shift(abs, places);
  const floor = Math.floor(scaled);
  const diff = scaled - floor;
  let whole: number;
  if (diff > 0.5) whole = floor + 1;
  else if (diff < 0.5) whole = floor;
  else whole = floor % 2 === 0 ? floor : floor + 1;
  return shift(whole, -places) * sign || 0;
}
