// Math functions and operators, spec/rule-format.md §4.2, §4.9.1, §11 Fn2, Fn6.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { roundHalfAway, roundHalfEven } from '../../src/engine/expression/arithmetic.ts';
import { context, out, raw } from './helpers.ts';

test('operators follow standard precedence and left-to-right grouping by default', () => {
  assert.equal(out('4-2'), 2);
  assert.equal(out('5*(-2)'), -10);
  assert.equal(out('30/(-6)'), -5);
  assert.equal(out('10 - 5 - 2'), 3);
  assert.equal(out('100 / 10 / 5'), 2);
  assert.equal(out('(4+9)*(4+9) - (4*4 + 2*4*9 + 9*9)'), 0);
  assert.equal(out('1-(4+5+2*{input})/3', { input: 6 }), -6);
  assert.equal(out('8*((100-30)/100)'), 5.6);
  assert.equal(out('30000*1.15'), 34500);
  assert.equal(out('10 % 3'), 1);
  assert.equal(out('-{a}', { a: '4' }), -4);
  assert.equal(out('-0'), 0);
});

test('operators on non-numbers, division by zero and overflow are invalid (null)', () => {
  assert.equal(out('{x}+{x}', { x: 'x' }), null);
  assert.equal(out('"a" * 2'), null);
  assert.equal(out('1/0'), null);
  assert.equal(out('5 % 0'), null);
  assert.equal(out('{n}+1', { n: null }), null);
  assert.equal(out('{n}+1', { n: true }), null);
  assert.equal(out('1e308*10'), null);
  assert.equal(out('"2" + "3"'), 5);
});

test('ABS', () => {
  assert.equal(out('ABS(-2.5)'), 2.5);
  assert.equal(out('ABS(-2)'), 2);
  assert.equal(out('ABS("a")'), null);
  assert.equal(out('ABS()'), null);
  assert.equal(out('ABS(null)'), null);
});

test('AVG', () => {
  assert.equal(out('AVG(6,8)'), 7);
  assert.equal(out('AVG([1,2,3])'), 2);
  assert.equal(out('AVG("1",3)'), 2);
  assert.equal(out('AVG(10, 16, 80, 5)'), 27.75);
  assert.equal(out('AVG([])'), null);
  assert.equal(out('AVG("a")'), null);
});

test('CEILING and FLOOR', () => {
  assert.equal(out('CEILING(1.34)'), 2);
  assert.equal(out('CEILING("1.15")'), 2);
  assert.equal(out('CEILING(6,8)'), null);
  assert.equal(out('CEILING(-0.5)'), 0);
  assert.equal(out('FLOOR(3.28)'), 3);
  assert.equal(out('FLOOR("x")'), null);
});

test('COUNT counts values, arrays expanded', () => {
  assert.equal(out('COUNT([1,2,3],4)'), 4);
  assert.equal(out('COUNT("a","b")'), 2);
  assert.equal(out('COUNT({d})', { d: [{ name: 'dog' }, { name: 'snake' }] }), 2);
  assert.equal(out('COUNT([])'), 0);
  assert.equal(out('COUNT()'), null);
});

test('EXP', () => {
  assert.equal(out('EXP(1)'), 2.718281828459045);
  assert.equal(out('EXP("2.5")'), 12.182493960703473);
  assert.equal(out('EXP(1000)'), null);
  assert.equal(out('EXP("e")'), null);
});

test('MAX, MIN, MEDIAN', () => {
  assert.equal(out('MAX([1,2,3],10)'), 10);
  assert.equal(out('MAX("1")'), 1);
  assert.equal(out('MAX([])'), null);
  assert.equal(out('MAX("a",1)'), null);
  assert.equal(out('MIN([1,2,3],10)'), 1);
  assert.equal(out('MIN([])'), null);
  assert.equal(out('MEDIAN(6,8)'), 7);
  assert.equal(out('MEDIAN(1,2,2,3)'), 2);
  assert.equal(out('MEDIAN(0,[2,5])'), 2);
  assert.equal(out('MEDIAN(3,1,2)'), 2);
  assert.equal(out('MEDIAN("x")'), null);
});

test('MODULO follows JavaScript sign rules', () => {
  assert.equal(out('MODULO(10,3)'), 1);
  assert.equal(out('MODULO(5,3)'), 2);
  assert.equal(out('MODULO(-5,3)'), -2);
  assert.equal(out('MODULO(10)'), null);
  assert.equal(out('MODULO(10,0)'), null);
});

test('POW', () => {
  assert.equal(out('POW(2,6)'), 64);
  assert.equal(out('POW(10,-2.5)'), 0.0031622776601683794);
  assert.equal(out('POW(-4,0.5)'), null);
  assert.equal(out('POW("a",2)'), null);
});

test('RANDOM reads the context random source and scales to its range', () => {
  const ctx = context({ random: () => 0.5 });
  assert.equal(out('RANDOM()', {}, ctx), 0.5);
  assert.equal(out('RANDOM(10)', {}, ctx), 5);
  assert.equal(out('RANDOM(5,10)', {}, ctx), 7.5);
  assert.equal(out('RANDOM("x")', {}, ctx), null);
  const value = out('RANDOM(5,10)') as number;
  assert.ok(value >= 5 && value < 10);
});

test('ROUND rounds half away from zero on the decimal digits', () => {
  assert.equal(out('ROUND(24.89)'), 25);
  assert.equal(out('ROUND(24.89,-1)'), 20);
  assert.equal(out('ROUND(8.358,1)'), 8.4);
  assert.equal(out('ROUND(1.005,2)'), 1.01);
  assert.equal(out('ROUND(-2.5)'), -3);
  assert.equal(out('ROUND(2.5)'), 3);
  assert.equal(out('ROUND(1.5,0.5)'), null);
  assert.equal(out('ROUND("x")'), null);
});

test('ROUNDE rounds ties to even', () => {
  assert.equal(out('ROUNDE(1.5)'), 2);
  assert.equal(out('ROUNDE(2.5)'), 2);
  assert.equal(out('ROUNDE(1.465,2)'), 1.46);
  assert.equal(out('ROUNDE(-2.5)'), -2);
  assert.equal(out('ROUNDE(2.51)'), 3);
  assert.equal(out('ROUNDE("x")'), null);
});

test('SUM', () => {
  assert.equal(out('SUM([1,2,3],4)'), 10);
  assert.equal(out('SUM(1,4,"5")'), 10);
  assert.equal(out('SUM("a","b")'), null);
  assert.equal(out('SUM({number},6)', { number: 'a' }), null);
  assert.equal(out('SUM([])'), 0);
});

test('NUMHASH (djb2 variant)', () => {
  assert.equal(out("NUMHASH('hello')"), 261238937);
  assert.equal(out('NUMHASH({"test": 123})'), 1271012719);
  assert.equal(out('NUMHASH("a","b")'), out('NUMHASH(["a","b"])'));
  assert.equal(typeof out('NUMHASH(5*(-2))'), 'number');
});

test('legacy TIMES, MINUS, DIVIDED and the internal operator names are callable', () => {
  assert.equal(out('TIMES(3,2,2)'), 12);
  assert.equal(out('MINUS(10,4)'), 6);
  assert.equal(out('MINUS(4)'), -4);
  assert.equal(out('DIVIDED(9,3)'), 3);
  assert.equal(out('TIMES_CHAR(2,3)'), 6);
  assert.equal(out('PLUS_CHAR(2,3)'), 5);
  assert.equal(out('MINUS_CHAR(2)'), -2);
  assert.equal(out('DIVIDED_CHAR(1,4)'), 0.25);
  assert.equal(out('MODULO_CHAR(7,4)'), 3);
  assert.equal(out('TIMES("a",2)'), null);
});

test('ROUND and ROUNDE agree with rounding the decimal digits exactly', () => {
  const shift = (value: number, places: number): number => {
    const [mantissa, exponent] = String(value).split('e');
    return Number(`${mantissa}e${Number(exponent ?? 0) + places}`);
  };
  const reference = (value: number, places: number, even: boolean): number => {
    const scaled = shift(Math.abs(value), places);
    const floor = Math.floor(scaled);
    const diff = scaled - floor;
    const whole = diff > 0.5 ? floor + 1 : diff < 0.5 ? floor : even ? (floor % 2 === 0 ? floor : floor + 1) : floor + 1;
    return shift(whole, -places) * Math.sign(value) || 0;
  };
  const decimals = fc.tuple(fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: 0, max: 6 })).map(([n, d]) => n / 10 ** d);
  fc.assert(
    fc.property(fc.oneof(decimals, fc.double({ min: -1e12, max: 1e12, noNaN: true })), fc.integer({ min: -4, max: 8 }), (value, places) => {
      assert.equal(roundHalfAway(value, places), reference(value, places, false));
      assert.equal(roundHalfEven(value, places), reference(value, places, true));
    }),
    { numRuns: 5000, seed: 11 },
  );
});

test('two-argument MAX, MIN and ROUND (their impl2 fast path) answer as the general form on any arguments', async () => {
  const { mathFunctions } = await import('../../src/engine/expression/functions/math.ts');
  const general = (name: string, args: unknown[]): { value?: unknown; error?: string } => {
    const def = mathFunctions.find((d) => d.name === name);
    assert.ok(def && def.kind === 'eager' && def.impl2, `${name} has a two-argument form`);
    try {
      return { value: def.impl(args, undefined as never) };
    } catch (error) {
      return { error: String(error) };
    }
  };
  const viaReferences = (name: string, a: unknown, b: unknown): { value?: unknown; error?: string } => {
    try {
      // References are not constants, so the compiled call takes impl2 (constants would be folded by impl).
      return { value: raw(`${name}({a}, {b})`, { a, b }) };
    } catch (error) {
      return { error: String(error) };
    }
  };
  const argument = fc.oneof(
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer({ min: -5, max: 5 }),
    fc.constantFrom('1', '2.5', 'x', '', null, true, false),
    fc.array(fc.integer({ min: -100, max: 100 }), { maxLength: 3 }),
  );
  fc.assert(
    fc.property(fc.constantFrom('MAX', 'MIN', 'ROUND'), argument, argument, (name, a, b) => {
      const fast = viaReferences(name, a, b);
      const slow = general(name, [a, b]);
      assert.equal(fast.error !== undefined, slow.error !== undefined, `${name}(${JSON.stringify(a)}, ${JSON.stringify(b)}): ${JSON.stringify(fast)} vs ${JSON.stringify(slow)}`);
      if (fast.error === undefined) assert.deepEqual(fast.value, slow.value);
    }),
    { numRuns: 500 },
  );
});
