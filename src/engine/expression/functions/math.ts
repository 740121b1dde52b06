// Math functions and the arithmetic operators (spec/rule-format.md §4.2, §4.9.1, §11 Fn2, Fn6, F4, F5).
import type { FunctionDef } from './types.ts';
import { finite, invalid, spread, toInteger, toNum } from '../runtime.ts';

export type Arithmetic = (a: unknown, b: unknown) => number;

function num2(a: unknown, b: unknown, op: string): [number, number] {
  return [toNum(a, op), toNum(b, op)];
}

/**
 * The arithmetic operators once both operands are numbers (the general forms below check and convert first).
 * Nodes compiled by argument shape call these directly (expression/number-operand.ts).
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

/**
 * |value| scaled by 10^places when the rounding decision cannot be affected by binary representation error,
 * else undefined (the value sits on or next to a decimal tie and needs the exact decimal shift).
 */
function scaledAwayFromTie(abs: number, places: number): number | undefined {
  if (places > 15 || places < -15) return undefined;
  const scaled = places >= 0 ? abs * 10 ** places : abs / 10 ** -places;
  const fraction = scaled - Math.floor(scaled);
  return Math.abs(fraction - 0.5) > 1e-9 * Math.max(1, scaled) ? scaled : undefined;
}

function unscale(whole: number, places: number): number {
  return places >= 0 ? whole / 10 ** places : whole * 10 ** -places;
}

/** Half away from zero on the decimal representation (§11 Fn2): ROUND(1.005, 2) is 1.01. */
export function roundHalfAway(value: number, places: number): number {
  const sign = value < 0 ? -1 : 1;
  const abs = Math.abs(value);
  const scaled = scaledAwayFromTie(abs, places);
  const rounded = scaled !== undefined ? unscale(Math.round(scaled), places) : shift(Math.round(shift(abs, places)), -places);
  return rounded * sign || 0;
}

/** Banker's rounding on the decimal representation: ties to even. */
export function roundHalfEven(value: number, places: number): number {
  const sign = value < 0 ? -1 : 1;
  const abs = Math.abs(value);
  const fast = scaledAwayFromTie(abs, places);
  if (fast !== undefined) return unscale(Math.round(fast), places) * sign || 0;
  const scaled = shift(abs, places);
  const floor = Math.floor(scaled);
  const diff = scaled - floor;
  let whole: number;
  if (diff > 0.5) whole = floor + 1;
  else if (diff < 0.5) whole = floor;
  else whole = floor % 2 === 0 ? floor : floor + 1;
  return shift(whole, -places) * sign || 0;
}

/** ROUND(x, [places]): half away from zero; two arguments take it without an argument array (impl2). */
function round(x: unknown, places: unknown): number {
  return finite(roundHalfAway(toNum(x, 'ROUND'), places === undefined ? 0 : toInteger(places, 'ROUND')), 'ROUND');
}

function maxOf(args: unknown[]): number {
  const values = numbers(args, 'MAX');
  if (values.length === 0) invalid('MAX: no values');
  return Math.max(...values);
}

function minOf(args: unknown[]): number {
  const values = numbers(args, 'MIN');
  if (values.length === 0) invalid('MIN: no values');
  return Math.min(...values);
}

function numbers(args: unknown[], fn: string): number[] {
  return spread(args).map((v) => toNum(v, fn));
}

/** djb2 variant over UTF-16 code units (§4.9.1; verified against both documented examples). */
export function numhash(text: string): number {
  let h = 5381;
  for (let i = 0; i < text.length; i++) h = (h * 33 + text.charCodeAt(i)) | 0;
  return Math.abs(h);
}

function binary(name: string, aliases: readonly string[], op: Arithmetic): FunctionDef {
  return { kind: 'eager', name, aliases, params: 'a, b', min: 2, max: 2, impl: ([a, b]) => op(a, b) };
}

export const mathFunctions: FunctionDef[] = [
  binary('PLUS_CHAR', [], add),
  binary('DIVIDED_CHAR', ['DIVIDED'], divide),
  binary('MODULO_CHAR', [], modulo),
  {
    kind: 'eager',
    name: 'MINUS_CHAR',
    params: 'a, [b]',
    aliases: ['MINUS'],
    min: 1,
    max: 2,
    impl: (args) => (args.length === 1 ? negate(args[0]) : subtract(args[0], args[1])),
  },
  {
    // TIMES takes more than two factors in old exports (benefit-program-sample.json)
    kind: 'eager',
    name: 'TIMES_CHAR',
    params: 'a, b…',
    aliases: ['TIMES'],
    min: 2,
    max: Infinity,
    impl: (args) => {
      let product = toNum(args[0], 'TIMES');
      for (let i = 1; i < args.length; i++) product = multiply(product, args[i]);
      return product;
    },
  },
  {
    kind: 'eager',
    name: 'ABS',
    params: 'number',
    min: 1,
    max: 1,
    impl: ([x]) => Math.abs(toNum(x, 'ABS')),
  },
  {
    kind: 'eager',
    name: 'AVG',
    params: 'number…',
    min: 1,
    max: Infinity,
    impl: (args) => {
      const values = numbers(args, 'AVG');
      if (values.length === 0) invalid('AVG: no values');
      let sum = 0;
      for (const v of values) sum += v;
      return finite(sum / values.length, 'AVG');
    },
  },
  {
    kind: 'eager',
    name: 'CEILING',
    params: 'number',
    min: 1,
    max: 1,
    impl: ([x]) => Math.ceil(toNum(x, 'CEILING')) || 0,
  },
  {
    kind: 'eager',
    name: 'FLOOR',
    params: 'number',
    min: 1,
    max: 1,
    impl: ([x]) => Math.floor(toNum(x, 'FLOOR')),
  },
  {
    kind: 'eager',
    name: 'COUNT',
    params: 'value…',
    min: 1,
    max: Infinity,
    impl: (args) => spread(args).length,
  },
  {
    kind: 'eager',
    name: 'EXP',
    params: 'number',
    min: 1,
    max: 1,
    impl: ([x]) => finite(Math.exp(toNum(x, 'EXP')), 'EXP'),
  },
  {
    kind: 'eager',
    name: 'MAX',
    params: 'number…',
    min: 1,
    max: Infinity,
    impl: (args) => maxOf(args),
    // Two scalars (the common MAX(x, 0)) without the argument arrays; an array argument takes the general form.
    impl2: (a, b) => (Array.isArray(a) || Array.isArray(b) ? maxOf([a, b]) : Math.max(toNum(a, 'MAX'), toNum(b, 'MAX'))),
  },
  {
    kind: 'eager',
    name: 'MIN',
    params: 'number…',
    min: 1,
    max: Infinity,
    impl: (args) => minOf(args),
    impl2: (a, b) => (Array.isArray(a) || Array.isArray(b) ? minOf([a, b]) : Math.min(toNum(a, 'MIN'), toNum(b, 'MIN'))),
  },
  {
    kind: 'eager',
    name: 'MEDIAN',
    params: 'number…',
    min: 1,
    max: Infinity,
    impl: (args) => {
      const values = numbers(args, 'MEDIAN').sort((a, b) => a - b);
      if (values.length === 0) invalid('MEDIAN: no values');
      const mid = values.length >> 1;
      return values.length % 2 === 1 ? values[mid]! : finite((values[mid - 1]! + values[mid]!) / 2, 'MEDIAN');
    },
  },
  {
    kind: 'eager',
    name: 'MODULO',
    params: 'dividend, divisor',
    min: 2,
    max: 2,
    impl: ([a, b]) => {
      const x = toNum(a, 'MODULO');
      const y = toNum(b, 'MODULO');
      if (y === 0) invalid('MODULO: division by zero');
      return finite(x % y, 'MODULO');
    },
  },
  {
    kind: 'eager',
    name: 'POW',
    params: 'base, exponent',
    min: 2,
    max: 2,
    impl: ([a, b]) => finite(Math.pow(toNum(a, 'POW'), toNum(b, 'POW')), 'POW'),
  },
  {
    kind: 'eager',
    name: 'RANDOM',
    params: '[min], [max]',
    min: 0,
    max: 2,
    contextual: true,
    impl: (args, f) => {
      const random = f.ctx.random ?? Math.random;
      if (args.length === 0) return random();
      if (args.length === 1) return random() * toNum(args[0], 'RANDOM');
      const min = toNum(args[0], 'RANDOM');
      const max = toNum(args[1], 'RANDOM');
      return min + random() * (max - min);
    },
  },
  {
    kind: 'eager',
    name: 'ROUND',
    params: 'number, [places]',
    min: 1,
    max: 2,
    impl: ([x, places]) => round(x, places),
    impl2: round,
  },
  {
    kind: 'eager',
    name: 'ROUNDE',
    params: 'number, [places]',
    min: 1,
    max: 2,
    impl: ([x, places]) =>
      finite(roundHalfEven(toNum(x, 'ROUNDE'), places === undefined ? 0 : toInteger(places, 'ROUNDE')), 'ROUNDE'),
  },
  {
    kind: 'eager',
    name: 'SUM',
    params: 'number…',
    min: 1,
    max: Infinity,
    impl: (args) => {
      let sum = 0;
      for (const v of spread(args)) sum += toNum(v, 'SUM');
      return finite(sum, 'SUM');
    },
  },
  {
    kind: 'eager',
    name: 'NUMHASH',
    params: 'value…',
    min: 1,
    max: Infinity,
    impl: (args) => {
      if (args.length > 1) return numhash(JSON.stringify(args));
      const [x] = args;
      return numhash(typeof x === 'string' ? x : (JSON.stringify(x) ?? String(x)));
    },
  },
];
