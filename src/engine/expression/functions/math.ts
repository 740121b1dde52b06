// The math functions (spec/rule-format.md §4.2, §4.9.1, §11 Fn2, Fn6, F4, F5); the operators they share with the
// compiler are in ../arithmetic.ts.
import type { FunctionDef } from './types.ts';
import { finite, invalid, spread, toInteger, toNum } from '../runtime.ts';
import type { Arithmetic } from '../arithmetic.ts';
import { add, divide, modulo, multiply, negate, roundHalfAway, roundHalfEven, subtract } from '../arithmetic.ts';

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
