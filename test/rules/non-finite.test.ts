// firstNonFinite: the cheap screens (short text without an exponent; a path-free walk of longer ones) never hide an
// overflowing number, and name the first one by its path.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { firstNonFinite, holdsNonFinite } from '../../src/rules/non-finite.ts';

const check = (text: string) => firstNonFinite(text, JSON.parse(text) as unknown, 'body');

test('a bulk-sized body with a 309-digit number and no exponent names its path', () => {
  const inputs = Array.from({ length: 500 }, (_, i) => ({ id: i, note: `item ${i}` }));
  const text = JSON.stringify({ data: inputs }).replace('"id":321', `"id":${'9'.repeat(309)}`);
  assert.equal(check(text), 'body.data[321].id');
});

test('exponents inside strings or finite numbers of a long body are not refusals', () => {
  const inputs = Array.from({ length: 500 }, (_, i) => ({ ref: `${i}e${i}`, x: 1e300, y: -2.5e-7 }));
  assert.equal(check(JSON.stringify({ data: inputs })), undefined);
});

test('short bodies: an exponent that overflows is found, an ordinary body is cleared', () => {
  assert.equal(check('{"data": {"a": [1, {"b": -1e999}]}}'), 'body.data.a[1].b');
  assert.equal(check('{"data": {"a": 1, "b": "x"}}'), undefined);
});

test('holdsNonFinite looks through arrays and nested objects', () => {
  assert.equal(holdsNonFinite({ a: [{ b: [1, 2, { c: Infinity }] }] }), true);
  assert.equal(holdsNonFinite({ a: [{ b: [1, 2, { c: null }] }], d: 'Infinity' }), false);
  assert.equal(holdsNonFinite(-Infinity), true);
});
