// The comparison of expected and received output (docs/decisions/rule-tests-comparison.md): structured
// differences per path, ignored paths within every result element or at one index, and paths that cannot be read.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compareOutput, parseIgnorePath } from '../../src/service/rule-tests/compare.ts';

describe('rule test comparison', () => {
  test('equal output has no difference, whatever the key order', () => {
    assert.deepEqual(compareOutput([{ a: 1, b: { c: [1, 2] } }], [{ b: { c: [1, 2] }, a: 1 }]), []);
  });

  test('each differing leaf is named with its path, expected and received', () => {
    const expected = [{ price: 10, items: [{ name: 'a' }, { name: 'b' }], 'net price': 1, gone: true }];
    const received = [{ price: 12, items: [{ name: 'a' }, { name: 'B' }], 'net price': 2, extra: null }];
    assert.deepEqual(compareOutput(expected, received), [
      { path: '[0].price', kind: 'changed', expected: 10, received: 12 },
      { path: '[0].items[1].name', kind: 'changed', expected: 'b', received: 'B' },
      { path: '[0]["net price"]', kind: 'changed', expected: 1, received: 2 },
      { path: '[0].gone', kind: 'missing', expected: true },
      { path: '[0].extra', kind: 'unexpected', received: null },
    ]);
  });

  test('types differ: the whole value at that path; 1 and "1" differ; rows missing or extra are named by index', () => {
    assert.deepEqual(compareOutput([{ a: [1] }], [{ a: { 0: 1 } }]), [{ path: '[0].a', kind: 'changed', expected: [1], received: { 0: 1 } }]);
    assert.deepEqual(compareOutput([{ a: 1 }], [{ a: '1' }]), [{ path: '[0].a', kind: 'changed', expected: 1, received: '1' }]);
    assert.deepEqual(compareOutput([], [{ a: 1 }]), [{ path: '[0]', kind: 'unexpected', received: { a: 1 } }]);
    assert.deepEqual(compareOutput([{ a: 1 }], []), [{ path: '[0]', kind: 'missing', expected: { a: 1 } }]);
  });

  test('an ignored path without a leading index applies within every result element, and to everything below it', () => {
    const expected = [{ at: 'x', price: 1, meta: { id: 1, when: 'a' } }, { at: 'y', price: 2, meta: { id: 2, when: 'b' } }];
    const received = [{ at: 'X', price: 1, meta: { id: 1, when: 'c' } }, { at: 'Y', price: 3, meta: { id: 2, when: 'd' } }];
    assert.deepEqual(compareOutput(expected, received, ['at', 'meta.when']), [{ path: '[1].price', kind: 'changed', expected: 2, received: 3 }]);
    assert.deepEqual(compareOutput(expected, received, ['at', 'meta', 'price']), []);
  });

  test('[n] at the start names one element; [*] and * any index or key; quoted keys', () => {
    const expected = [{ p: 1, items: [{ q: 1 }, { q: 2 }], 'a b': 1 }, { p: 1, items: [], 'a b': 1 }];
    const received = [{ p: 9, items: [{ q: 8 }, { q: 7 }], 'a b': 2 }, { p: 9, items: [], 'a b': 2 }];
    assert.deepEqual(compareOutput(expected, received, ['[0].p', 'items[*].q', '["a b"]']), [{ path: '[1].p', kind: 'changed', expected: 1, received: 9 }]);
    assert.deepEqual(compareOutput(expected, received, ['[*].*']), []);
  });

  test('a path that cannot be read is refused with where and how to write it', () => {
    for (const bad of ['', 'a..b', 'a[', 'a[x]', 'a.', 'a]b']) {
      assert.throws(() => parseIgnorePath(bad), (err: Error) => /is not an output path \(.+ at character \d+\); write e\.g\. price/.test(err.message), bad);
    }
    assert.deepEqual(parseIgnorePath('items[0]["x.y"].*'), [{ key: 'items' }, { index: 0 }, { key: 'x.y' }, { any: true }]);
  });
});
