// The pre-coerced comparisons of cells/operands.ts must agree with looseEquals / compareLoose of values.ts on
// every pair of values: the hot path and the column index rely on it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compareToPrepared, equalsPrepared, prepareOperand, ValueSet } from '../../src/engine/cells/operands.ts';
import { compareLoose, looseEquals } from '../../src/engine/values.ts';
import { compileGeneralTest } from '../../src/engine/cells/general.ts';
import type { Operator } from '../../src/rules/operators.ts';

/** Values that stress the coercions: numbers and their texts, boolean-likes, blanks, JSON texts, objects. */
const tricky = fc.constantFrom<unknown>(
  0, -0, 1, 3, 2.31, -5, 1e21, Number.POSITIVE_INFINITY, Number.NaN,
  '0', '3', '3.0', ' 3 ', '2.31', '-5', '.5', '1e3', '1e400', 'Infinity', 'NaN', '0x10', '',
  true, false, 'true', 'false', 'TRUE',
  'a', 'b', 'A', 'abc', ' a',
  '{"a":1}', '[1,2]', '[]', '{}', 'null',
  null, undefined, { a: 1 }, [1, 2], [], {},
);
const leftValue = fc.oneof(tricky, fc.double(), fc.integer().map(String), fc.string({ maxLength: 4 }));
const cellValue = fc.oneof(tricky, fc.integer().map(String), fc.string({ maxLength: 4 }));

test('equalsPrepared agrees with looseEquals for present left values', () => {
  fc.assert(
    fc.property(leftValue, cellValue, (left, right) => {
      if (left === null || left === undefined) return equalsPrepared(left, prepareOperand(right)) === false;
      if (right === null || right === undefined) return true;
      return equalsPrepared(left, prepareOperand(right)) === looseEquals(left, right);
    }),
    { numRuns: 20_000 },
  );
});

test('compareToPrepared agrees with compareLoose (NaN where compareLoose gives undefined)', () => {
  fc.assert(
    fc.property(leftValue, cellValue, (left, right) => {
      const expected = compareLoose(left, right);
      const actual = compareToPrepared(left, prepareOperand(right));
      if (expected === undefined) return Number.isNaN(actual);
      return Math.sign(actual) === Math.sign(expected);
    }),
    { numRuns: 20_000 },
  );
});

test('ValueSet.has is "some member looseEquals the value"', () => {
  fc.assert(
    fc.property(leftValue, fc.array(cellValue, { maxLength: 5 }), (left, members) => {
      const present = members.filter((m) => m !== null && m !== undefined);
      const set = new ValueSet(present.map(prepareOperand));
      const expected = left !== null && left !== undefined && present.some((m) => looseEquals(left, m));
      return set.has(left) === expected;
    }),
    { numRuns: 20_000 },
  );
});

test('ValueSet members that are objects (from variables) match equal objects and their JSON text', () => {
  const set = new ValueSet([prepareOperand({ code: 'A' }), prepareOperand('x')]);
  assert.equal(set.has({ code: 'A' }), true);
  assert.equal(set.has('{"code":"A"}'), true);
  assert.equal(set.has({ code: 'B' }), false);
  assert.equal(set.has('x'), true);
});

test('compiled comparison and between tests agree with compareLoose, fast paths included', () => {
  const holds = (c: number | undefined, accept: (c: number) => boolean): boolean => c !== undefined && accept(c);
  const reference: Record<string, (left: unknown, a: unknown, b: unknown) => boolean> = {
    '<': (l, a) => holds(compareLoose(l, a), (c) => c < 0),
    '<=': (l, a) => holds(compareLoose(l, a), (c) => c <= 0),
    '>': (l, a) => holds(compareLoose(l, a), (c) => c > 0),
    '>=': (l, a) => holds(compareLoose(l, a), (c) => c >= 0),
    between: (l, a, b) => holds(compareLoose(l, a), (c) => c >= 0) && holds(compareLoose(l, b), (c) => c <= 0),
    betweenLeftOpen: (l, a, b) => holds(compareLoose(l, a), (c) => c > 0) && holds(compareLoose(l, b), (c) => c <= 0),
    betweenRightOpen: (l, a, b) => holds(compareLoose(l, a), (c) => c >= 0) && holds(compareLoose(l, b), (c) => c < 0),
    // The negation of between for a present value: a value that cannot be ordered against the bounds is outside.
    notBetween: (l, a, b) => l !== null && l !== undefined && !(holds(compareLoose(l, a), (c) => c >= 0) && holds(compareLoose(l, b), (c) => c <= 0)),
    '=': (l, a) => l !== null && l !== undefined && looseEquals(l, a),
  };
  const scalar = fc.oneof(fc.integer({ min: -5, max: 5 }).map(String), fc.constantFrom('2.5', 'a', 'true', '', ' 3 '));
  fc.assert(
    fc.property(fc.constantFrom(...Object.keys(reference)), leftValue, scalar, scalar, (operator, left, a, b) => {
      const operand = operator.startsWith('between') || operator === 'notBetween' ? [a, b] : a;
      return compileGeneralTest(operator as Operator, operand)(left) === reference[operator]!(left, a, b);
    }),
    { numRuns: 20_000 },
  );
});
