// FEEL numbers are decimals (34 digits, half-even), and the value model's equality, types and JSON conversions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  FeelContext,
  FeelNumber,
  compileFeel,
  conformsTo,
  feelEquals,
  fromJson,
  parseDate,
  toJson,
  typeOf,
} from '../../../src/engine/feel/index.ts';
import { show } from './helpers.ts';

test('numbers are exact decimals of 34 significant digits rounded half-even', () => {
  assert.equal(show('0.1 + 0.2'), '0.3');
  assert.equal(show('0.1 + 0.2 = 0.3'), 'true');
  assert.equal(show('1 / 3'), '0.3333333333333333333333333333333333');
  assert.equal(show('2 / 3'), '0.6666666666666666666666666666666667');
  assert.equal(show('10 ** 40 + 1 - 10 ** 40'), '0', '34 digits: the 1 is rounded away');
  assert.equal(show('decimal(2.5, 0)'), '2');
  assert.equal(show('decimal(3.5, 0)'), '4');
  assert.equal(show('1.10'), '1.1');
});

test('arithmetic propagates null and refuses operands that do not combine', () => {
  assert.equal(show('1 + null'), 'null');
  assert.equal(show('null * 2'), 'null');
  assert.equal(show('1 + "a"'), 'null');
  assert.equal(show('1 / 0'), 'null');
  assert.equal(show('-(3)'), '-3');
  assert.equal(show('2 ** 10'), '1024');
  assert.equal(show('"a" + "b"'), '"ab"');
});

test('equality is deep and typed; values of different kinds are not comparable', () => {
  assert.equal(show('[1, 2] = [1, 2]'), 'true');
  assert.equal(show('{a: 1} = {a: 1}'), 'true');
  assert.equal(show('{a: 1} = {a: 2}'), 'false');
  assert.equal(show('1 = "1"'), 'null');
  assert.equal(show('null = null'), 'true');
  assert.equal(show('1 != null'), 'true');
  assert.equal(show('1 < "a"'), 'null');
  assert.equal(feelEquals(new FeelNumber('1.0'), new FeelNumber(1)), true);
});

test('typeOf and conformsTo name FEEL types, including item-definition style type names', () => {
  assert.equal(typeOf(new FeelNumber(1)), 'number');
  assert.equal(typeOf(parseDate('2020-01-01')), 'date');
  assert.equal(typeOf([]), 'list');
  assert.equal(conformsTo(fromJson([1, 2]), 'list<number>'), true);
  assert.equal(conformsTo(fromJson([1, 'a']), 'list<number>'), false);
  assert.equal(conformsTo(fromJson({ a: 'x', b: 1 }), 'context<a: string, b: number>'), true);
  assert.equal(conformsTo(fromJson({ a: 'x' }), 'context<a: string, b: number>'), false);
  assert.equal(conformsTo(null, 'number'), true, 'null conforms to every type');
  assert.equal(conformsTo(fromJson('x'), 'Any'), true);
  assert.throws(() => conformsTo(null, 'list<number'), /expected ">"/);
});

test('JSON conversion keeps exact numbers as numbers and the rest as text', () => {
  const value = fromJson({ a: 1.5, b: [true, null, 'x'], c: { d: 2 } });
  assert.ok(value instanceof FeelContext);
  assert.deepEqual(toJson(value), { a: 1.5, b: [true, null, 'x'], c: { d: 2 } });
  assert.equal(toJson(new FeelNumber(1).dividedBy(3)), '0.3333333333333333333333333333333333');
  assert.equal(toJson(new FeelNumber('0.1')), 0.1);
  assert.equal(toJson(parseDate('2020-01-31')), '2020-01-31');
  assert.equal(toJson(fromJson(Number.NaN)), null);
});

test('results beyond decimal128 are null; endless recursion is left to the model evaluator', () => {
  assert.equal(show('10 ** 6145'), 'null');
  assert.equal(show('10 ** 6000 * 10 ** 6000'), 'null');
  assert.equal(show('exp(1e20)'), 'null');
  assert.equal(show('{f: function(n) if n = 0 then 0 else 1 + f(n - 1), r: f(50)}.r'), '50', 'a FEEL function may call itself');
  assert.throws(() => compileFeel('{f: function(n) 1 + f(n), r: f(1)}.r')({}), RangeError, 'src/engine/dmn turns this into null with a warning naming the decision');
});
