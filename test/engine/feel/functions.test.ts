// FEEL built-in functions by group: conversion, string, list, numeric, context and range functions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { show } from './helpers.ts';

test('conversion functions', () => {
  assert.equal(show('number("1.000.000,01", ".", ",")'), '1000000.01');
  assert.equal(show('number("12a")'), 'null');
  assert.equal(show('string(1.50)'), '"1.5"');
  assert.equal(show('string([1, "a"])'), '"[1, \\"a\\"]"');
  assert.equal(show('string(date("2020-01-01"))'), '"2020-01-01"');
});

test('string functions count code points and take XML Schema patterns', () => {
  assert.equal(show('substring("foobar", 3)'), '"obar"');
  assert.equal(show('substring("foobar", -2, 1)'), '"a"');
  assert.equal(show('string length("😀a")'), '2');
  assert.equal(show('upper case("abc")'), '"ABC"');
  assert.equal(show('substring before("foobar", "bar")'), '"foo"');
  assert.equal(show('substring after("foobar", "ob")'), '"ar"');
  assert.equal(show('contains("foobar", "ob") and starts with("foobar", "fo") and ends with("foobar", "r")'), 'true');
  assert.equal(show('matches("abc", "^A", "i")'), 'true');
  assert.equal(show('matches("abc", "(")'), 'null');
  assert.equal(show('replace("0123456789", "(\\d{3})(\\d{3})(\\d{4})", "($1) $2-$3")'), '"(012) 345-6789"');
  assert.equal(show('split("a1b22c", "\\d+")'), '["a", "b", "c"]');
  assert.equal(show('string join(["a", null, "c"], "-")'), '"a-c"');
});

test('list functions', () => {
  assert.equal(show('list contains([1, null], null)'), 'true');
  assert.equal(show('count([1, 2, 3])'), '3');
  assert.equal(show('min(3, 1, 2)'), '1');
  assert.equal(show('max([date("2020-01-01"), date("2021-01-01")])'), '2021-01-01');
  assert.equal(show('sum([1, 2, 3])'), '6');
  assert.equal(show('sum([1, "a"])'), 'null');
  assert.equal(show('mean(1, 2, 3, 4)'), '2.5');
  assert.equal(show('median([3, 1, 2, 4])'), '2.5');
  assert.equal(show('mode([1, 2, 2, 3, 3])'), '[2, 3]');
  assert.equal(show('stddev([2, 4, 7, 5])'), '2.081665999466132735282297706979931');
  assert.equal(show('all([true, null])'), 'null');
  assert.equal(show('any([false, true])'), 'true');
  assert.equal(show('sublist([1, 2, 3, 4], 2, 2)'), '[2, 3]');
  assert.equal(show('append([1], 2, 3)'), '[1, 2, 3]');
  assert.equal(show('concatenate([1], [2], [3])'), '[1, 2, 3]');
  assert.equal(show('insert before([1, 3], 2, 2)'), '[1, 2, 3]');
  assert.equal(show('remove([1, 2, 3], -1)'), '[1, 2]');
  assert.equal(show('reverse([1, 2, 3])'), '[3, 2, 1]');
  assert.equal(show('index of([1, 2, 1], 1)'), '[1, 3]');
  assert.equal(show('union([1, 2], [2, 3])'), '[1, 2, 3]');
  assert.equal(show('distinct values([1, 2, 1])'), '[1, 2]');
  assert.equal(show('flatten([1, [2, [3]]])'), '[1, 2, 3]');
  assert.equal(show('product(2, 3, 4)'), '24');
  assert.equal(show('sort([3, 1, 2])'), '[1, 2, 3]');
  assert.equal(show('sort(list: [3, 1, 2], precedes: function(x, y) x > y)'), '[3, 2, 1]');
  assert.equal(show('list replace([1, 2, 3], 2, 9)'), '[1, 9, 3]');
  assert.equal(show('list replace([1, 2, 3], function(item, newItem) item > 1, 0)'), '[1, 0, 0]');
  assert.equal(show('not(true)'), 'false');
  assert.equal(show('is(@"2020-01-01T10:00:00Z", @"2020-01-01T11:00:00+01:00")'), 'false');
  assert.equal(show('is(1, 1.0)'), 'true');
});

test('numeric functions round in each mode, to positive and negative scales', () => {
  assert.equal(show('decimal(1/3, 2)'), '0.33');
  assert.equal(show('floor(-1.5)'), '-2');
  assert.equal(show('ceiling(1.21, 1)'), '1.3');
  assert.equal(show('round up(5.5, 0)'), '6');
  assert.equal(show('round down(-5.5, 0)'), '-5');
  assert.equal(show('round half up(2.5, 0)'), '3');
  assert.equal(show('round half down(2.5, 0)'), '2');
  assert.equal(show('round half up(1250, -2)'), '1300');
  assert.equal(show('abs(-3)'), '3');
  assert.equal(show('abs(duration("-P1D"))'), 'P1D');
  assert.equal(show('modulo(-12, 5)'), '3');
  assert.equal(show('modulo(12, 0)'), 'null');
  assert.equal(show('sqrt(16)'), '4');
  assert.equal(show('sqrt(-1)'), 'null');
  assert.equal(show('decimal(log(10), 5)'), '2.30259');
  assert.equal(show('decimal(exp(1), 5)'), '2.71828');
  assert.equal(show('odd(5) and even(4)'), 'true');
});

test('context functions', () => {
  assert.equal(show('get value({a: 1}, "a")'), '1');
  assert.equal(show('get entries({a: 1, b: 2})'), '[{key: "a", value: 1}, {key: "b", value: 2}]');
  assert.equal(show('context([{key: "a", value: 1}])'), '{a: 1}');
  assert.equal(show('context([{key: "a", value: 1}, {key: "a", value: 2}])'), 'null');
  assert.equal(show('context put({a: 1}, "b", 2)'), '{a: 1, b: 2}');
  assert.equal(show('context put({x: {y: 1}}, ["x", "z"], 2)'), '{x: {y: 1, z: 2}}');
  assert.equal(show('context merge([{a: 1}, {a: 2, b: 3}])'), '{a: 2, b: 3}');
});

test('range functions relate points and ranges, open ends included', () => {
  assert.equal(show('before(1, 10)'), 'true');
  assert.equal(show('before([1..5], [5..10])'), 'false');
  assert.equal(show('before([1..5), [5..10])'), 'true');
  assert.equal(show('after(10, [1..5])'), 'true');
  assert.equal(show('meets([1..5], [5..10])'), 'true');
  assert.equal(show('met by([5..10], [1..5])'), 'true');
  assert.equal(show('overlaps([1..5], [3..8])'), 'true');
  assert.equal(show('overlaps before([1..5], [3..8])'), 'true');
  assert.equal(show('overlaps after([3..8], [1..5])'), 'true');
  assert.equal(show('finishes(5, [1..5])'), 'true');
  assert.equal(show('finished by([1..5], [3..5])'), 'true');
  assert.equal(show('includes([1..10], 5)'), 'true');
  assert.equal(show('during([3..4], [1..10])'), 'true');
  assert.equal(show('starts(1, [1..5])'), 'true');
  assert.equal(show('started by([1..5], [1..3])'), 'true');
  assert.equal(show('coincides([1..5], [1..5])'), 'true');
  assert.equal(show('includes(< 10, 5)'), 'true', 'a unary comparison is a range with one open end');
  assert.equal(show('before(1, "a")'), 'null');
  assert.equal(show('range("[1..10)")'), '[1..10)');
  assert.equal(show('range("[5..1]")'), 'null', 'a descending range is not a range');
  assert.equal(show('range("[date(\\"2020-01-01\\")..date(\\"2020-12-31\\")]").end'), '2020-12-31');
});
