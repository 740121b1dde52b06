// Numbers compared without decimal.js's copy give decimal.js's order, for every sign, exponent and digit count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareNumbers } from '../../../src/engine/feel/compare.ts';
import { FeelNumber } from '../../../src/engine/feel/index.ts';

const TEXTS = [
  '0', '-0', '1', '-1', '18', '17.999999999999999999999999999999', '18.0000000000000000000000000000001', '1e7', '9999999',
  '10000000', '10000001', '0.1', '0.10000001', '-0.1', '123456789012345678901234567890.1234', '-123456789012345678901234567890.1234',
  '1e6144', '-1e6144', '1e-6176', '5e-300', '-5e-300', '1e9000', '-1e9000', 'Infinity', '-Infinity', 'NaN', '0.0375', '600000', '365',
];

test('compareNumbers orders numbers as decimal.js comparedTo does', () => {
  const values = TEXTS.map((text) => new FeelNumber(text));
  let compared = 0;
  for (const a of values) {
    for (const b of values) {
      const expected = a.comparedTo(b);
      assert.ok(Object.is(compareNumbers(a, b), expected), `${a.toString()} vs ${b.toString()}: ${expected}`);
      compared++;
    }
  }
  assert.equal(compared, TEXTS.length ** 2);
});
