import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getAt, parsePath, setAt } from '../src/engine/path.ts';

test('parsePath splits dotted paths and array indexes', () => {
  assert.deepEqual(parsePath('order[1].price'), ['order', 1, 'price']);
  assert.deepEqual(parsePath('[0].name'), [0, 'name']);
});

test('getAt tells missing apart from null', () => {
  assert.equal(getAt({ a: { b: null } }, ['a', 'b']), null);
  assert.equal(getAt({ a: {} }, ['a', 'b']), undefined);
});

test('setAt nests dotted output paths and never touches prototypes', () => {
  const out: Record<string, unknown> = {};
  setAt(out, ['prices', 'final'], 5.6);
  setAt(out, ['__proto__', 'polluted'], true);
  assert.deepEqual(JSON.parse(JSON.stringify(out)), { prices: { final: 5.6 }, ['__proto__']: { polluted: true } });
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});
