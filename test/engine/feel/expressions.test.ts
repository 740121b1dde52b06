// The FEEL language: conditions, loops, quantifiers, filters, paths, contexts, functions, ranges and unary tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FeelFunction, compileFeel, feelText, fromJson as fromJsonValue, num } from '../../../src/engine/feel/index.ts';
import { passes, show, withWarnings } from './helpers.ts';

test('boolean logic is three-valued', () => {
  assert.equal(show('true and null'), 'null');
  assert.equal(show('false and null'), 'false');
  assert.equal(show('true or null'), 'true');
  assert.equal(show('null or false'), 'null');
  assert.equal(show('1 and true'), 'null');
});

test('if, between and in', () => {
  assert.equal(show('if 1 > 2 then "a" else "b"'), '"b"');
  assert.equal(show('if null then "a" else "b"'), '"b"');
  assert.equal(show('5 between 1 and 10'), 'true');
  assert.equal(show('"b" between "a" and "c"'), 'true');
  assert.equal(show('5 in (< 3, > 4)'), 'true');
  assert.equal(show('5 in [1..5)'), 'false');
  assert.equal(show('5 in [1, 5, 9]'), 'true');
  assert.equal(show('5 in (null..10]'), 'null', 'a written null endpoint cannot be compared');
  assert.equal(show('[1, 2] in [[1, 2], [3]]'), 'true');
});

test('for, some and every iterate lists and integer ranges', () => {
  assert.equal(show('for i in 1..3 return i * 2'), '[2, 4, 6]');
  assert.equal(show('for i in 3..1 return i'), '[3, 2, 1]');
  assert.equal(show('for x in [1, 2], y in [10, 20] return x + y'), '[11, 21, 12, 22]');
  assert.equal(show('for i in 0..4 return if i = 0 then 1 else i * partial[-1]'), '[1, 1, 2, 6, 24]');
  assert.equal(show('for d in @"2020-02-28"..@"2020-03-01" return d'), '[2020-02-28, 2020-02-29, 2020-03-01]');
  assert.equal(show('some x in [1, 2, 3] satisfies x > 2'), 'true');
  assert.equal(show('every x in [1, 2, 3] satisfies x > 2'), 'false');
  assert.equal(show('every x in [] satisfies x > 2'), 'true');
});

test('filters select by condition or by 1-based index, negative from the end', () => {
  assert.equal(show('[1, 2, 3, 4][item > 2]'), '[3, 4]');
  assert.equal(show('[1, 2, 3][1]'), '1');
  assert.equal(show('[1, 2, 3][-1]'), '3');
  assert.equal(show('[1, 2, 3][4]'), 'null');
  assert.equal(show('[{a: 1}, {a: 2}][a = 2]'), '[{a: 2}]');
  assert.equal(show('[{item: 1}, {item: 2}][item >= 2]'), '[{item: 2}]', "an item's own entry named item wins");
  assert.equal(show('people[age > 30].name', { people: [{ name: 'A', age: 20 }, { name: 'B', age: 40 }] }), '["B"]');
});

test('paths read contexts, lists of contexts and properties of temporal values and ranges', () => {
  assert.equal(show('{a: {b: 5}}.a.b'), '5');
  assert.equal(show('[{a: 1}, {a: 2}].a'), '[1, 2]');
  assert.equal(show('date("2020-03-04").month'), '3');
  assert.equal(show('date and time("2020-03-04T10:20:30+02:00").time offset'), 'PT2H');
  assert.equal(show('@"P1Y5M".months'), '5');
  assert.equal(show('[1..10).end included'), 'false');
  assert.equal(show('{a: 1}.b'), 'null');
});

test('contexts see their earlier entries; functions take positional and named arguments', () => {
  assert.equal(show('{a: 1, b: a + 1, c: b * 10}'), '{a: 1, b: 2, c: 20}');
  assert.equal(show('(function(a, b) a - b)(5, 1)'), '4');
  assert.equal(show('(function(a, b) a - b)(b: 1, a: 5)'), '4');
  assert.equal(show('{f: function(x) x * x, y: f(4)}.y'), '16');
  assert.equal(show('(function(n: number) n + 1)("a")'), 'null', 'a typed parameter refuses another type');
  assert.equal(show('(function(n: number) n + 1)([4])'), '5', 'a list of one stands for its item');
  assert.equal(show('substring(string: "abcdef", start position: 2, length: 3)'), '"bcd"');
});

test('instance of checks FEEL types and, through resolveType, the host named types', () => {
  assert.equal(show('1 instance of number'), 'true');
  assert.equal(show('"a" instance of number'), 'false');
  assert.equal(show('null instance of Any'), 'false');
  assert.equal(show('@"2020-01-01T00:00:00" instance of date and time'), 'true');
  assert.equal(show('[1, 2] instance of list<number>'), 'true');
  assert.equal(show('{a: 1} instance of context<a: number>'), 'true');
  const withType = compileFeel('x instance of tAge', { names: ['x'], resolveType: (name) => (name === 'tAge' ? { kind: 'named', name: 'number' } : undefined) });
  assert.equal(withType({ variables: { x: num(3) } }), true);
  assert.equal(withType({ variables: { x: 'old' } }), false);
});

test('unary tests: comparisons, ranges, lists, not(), dash, and ? in expressions', () => {
  assert.equal(passes('< 10', 5), true);
  assert.equal(passes('[1..5]', 6), false);
  assert.equal(passes('"a", "b"', 'b'), true);
  assert.equal(passes('not("a", "b")', 'c'), true);
  assert.equal(passes('-', 'anything'), true);
  assert.equal(passes('? > 3 and ? < 6', 5), true);
  assert.equal(passes('limit', 7, { limit: 7 }), true);
  assert.equal(passes('< limit', 7, { limit: 7 }), false);
  assert.equal(passes('< 10', 'a'), null, 'types that do not compare give null');
  assert.equal(passes('null', null), true);
});

test('runtime type errors give null and a warning naming the problem', () => {
  assert.deepEqual(withWarnings('unknown + 1'), { value: 'null', warnings: ['no variable named "unknown"'] });
  const call = withWarnings('substring("abc", 9)');
  assert.equal(call.value, 'null');
  assert.match(call.warnings[0]!, /substring\(\): the start position is outside the text/);
  assert.match(withWarnings('string length("a", "b")').warnings[0]!, /does not take 2 arguments/);
});

test('functions from the host are called with positional and named arguments', () => {
  const twice = new FeelFunction(['value'], ([value]) => (value && typeof value === 'object' && 'times' in value ? (value as ReturnType<typeof num>).times(2) : null), 'twice');
  const scope = { variables: { twice } };
  assert.equal(feelText(compileFeel('twice(21)', { names: ['twice'] })(scope)), '42');
  assert.equal(feelText(compileFeel('twice(value: 4)', { names: ['twice'] })(scope)), '8');
  assert.equal(feelText(compileFeel('twice(other: 4)', { names: ['twice'] })(scope)), 'null');
});

test('typed parameters resolve host types; unary tests read names with operator characters', () => {
  const adult = compileFeel('(function(p: tPerson) p.age >= 18)(person)', {
    names: ['person'],
    resolveType: (name) => (name === 'tPerson' ? { kind: 'context', entries: [['age', { kind: 'named', name: 'number' }]] } : undefined),
  });
  assert.equal(adult({ variables: { person: fromJsonValue({ age: 20 }) } }), true);
  assert.equal(adult({ variables: { person: fromJsonValue({ name: 'no age' }) } }), null);
  assert.equal(passes('< Max-Limit', 5, { 'Max-Limit': 10 }), true);
  assert.equal(passes('[Min-Age..Max-Age]', 70, { 'Min-Age': 18, 'Max-Age': 65 }), false);
});

test('a unary comparison used as a value is a range; (=10) has the properties of [10..10] but is not equal to it', () => {
  assert.equal(show('(< 10).end'), '10');
  assert.equal(show('(< 10).start'), 'null');
  assert.equal(show('(=10).start included and (=10).end included'), 'true');
  assert.equal(show('(=10) = [10..10]'), 'false');
  assert.equal(show('(< 10) = (null..10)'), 'false', 'an open end is not a written null');
});
