// Numeric functions (DMN 1.5, 10.3.4.5): rounding to a scale in each rounding mode, modulo, roots and logs.
import { Decimal } from 'decimal.js';
import { bad, fn, integer, type Builtin } from '../builtin.ts';
import type { Env } from '../env.ts';
import { FeelDaysTimeDuration, FeelNumber, FeelYearsMonthsDuration, isNumber, type FeelValue } from '../values.ts';

type Rounding = Decimal.Rounding;

function round(n: FeelNumber, scale: number, mode: Rounding): FeelNumber {
  if (scale >= 0) return n.toDecimalPlaces(scale, mode);
  const factor = new FeelNumber(10).pow(-scale);
  return n.dividedBy(factor).toDecimalPlaces(0, mode).times(factor);
}

function rounding(name: string, mode: Rounding, scaleOptional: boolean): Builtin {
  return fn(name, [['n', scaleOptional ? 'scale?' : 'scale']], ([n, scale], env: Env) => {
    if (!isNumber(n)) return bad(env, name, 'expects a number');
    if (scale === undefined && scaleOptional) return round(n, 0, mode);
    const s = integer(scale);
    if (s === null || s < -6111 || s > 6176) return bad(env, name, 'the scale is a whole number from -6111 to 6176');
    return round(n, s, mode);
  });
}

function unary(name: string, body: (n: FeelNumber) => FeelValue): Builtin {
  return fn(name, [['number']], ([n], env) => (isNumber(n) ? body(n) : bad(env, name, 'expects a number')));
}

export const NUMBERS: Builtin[] = [
  rounding('decimal', Decimal.ROUND_HALF_EVEN, false),
  rounding('floor', Decimal.ROUND_FLOOR, true),
  rounding('ceiling', Decimal.ROUND_CEIL, true),
  rounding('round up', Decimal.ROUND_UP, false),
  rounding('round down', Decimal.ROUND_DOWN, false),
  rounding('round half up', Decimal.ROUND_HALF_UP, false),
  rounding('round half down', Decimal.ROUND_HALF_DOWN, false),
  fn('abs', [['n']], ([n], env) => {
    if (isNumber(n)) return n.abs();
    if (n instanceof FeelDaysTimeDuration) return new FeelDaysTimeDuration(n.seconds.abs());
    if (n instanceof FeelYearsMonthsDuration) return new FeelYearsMonthsDuration(Math.abs(n.months));
    return bad(env, 'abs', 'expects a number or a duration');
  }),
  fn('modulo', [['dividend', 'divisor']], ([a, b], env) => {
    if (!isNumber(a) || !isNumber(b)) return bad(env, 'modulo', 'expects numbers');
    if (b.isZero()) return bad(env, 'modulo', 'the divisor is zero');
    return a.minus(b.times(a.dividedBy(b).floor()));
  }),
  unary('sqrt', (n) => (n.isNegative() ? null : n.sqrt())),
  unary('log', (n) => (n.lte(0) ? null : n.ln())),
  unary('exp', (n) => {
    const result = n.exp();
    return result.isFinite() ? result : null;
  }),
  unary('odd', (n) => (n.isInteger() ? !n.mod(2).isZero() : null)),
  unary('even', (n) => (n.isInteger() ? n.mod(2).isZero() : null)),
];
